// "Did you mean ...?" for misspelled names: a case file's unknown member, an unknown tensor source kind.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dmltool {

// Edit distance between `a` and `b`, ignoring ASCII case: insertions, deletions, substitutions and swaps of two
// adjacent characters each count 1 (optimal string alignment). "BlockSzie" -> "BlockSize" is 1.
size_t name_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` when it is close enough to be a slip of the keyboard: at most 1 edit for names
// of up to 4 characters, 2 up to 8, else 3 — a looser cutoff would suggest "ATensor" for "CTensor"-like siblings
// as readily as it catches typos. Ties keep the first candidate; an exact match is not a suggestion. Failing that,
// a candidate the word abbreviates ("h5" -> hdf5).
std::optional<std::string> closest_name(std::string_view word, const std::vector<std::string>& candidates);

// " (did you mean X?)" or "" — for appending to a message.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

// "unknown member 'KEY' (did you mean X? expected one of A, B)": the suggestion only when one is close. Without a
// path: callers prefix their own.
std::string unknown_member_text(const std::string& key, const std::vector<std::string>& allowed);

}  // namespace dmltool
