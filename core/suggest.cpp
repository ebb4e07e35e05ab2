#include "core/suggest.h"

#include <algorithm>
#include <cctype>

namespace dmltool {

namespace {
char lower(char c) { return char(std::tolower(static_cast<unsigned char>(c))); }
}  // namespace

size_t name_distance(std::string_view a, std::string_view b) {
    // Three rows of the classic table suffice: the swap looks two rows back.
    std::vector<size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) previous[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
                current[j] = std::min(current[j], before[j - 2] + 1);
        }
        std::swap(before, previous);
        std::swap(previous, current);
    }
    return previous[b.size()];
}

std::optional<std::string> closest_name(std::string_view word, const std::vector<std::string>& candidates) {
    const size_t length = std::max<size_t>(word.size(), 1);
    const size_t cutoff = length <= 4 ? 1 : length <= 8 ? 2 : 3;
    std::optional<std::string> best;
    size_t best_distance = cutoff + 1;
    for (const std::string& candidate : candidates) {
        if (candidate == word) continue;
        const size_t d = name_distance(word, candidate);
        if (d < best_distance) {
            best_distance = d;
            best = candidate;
        }
    }
    if (best || word.size() < 2) return best;
    // An abbreviation ("h5" for hdf5, "seq" for sequence) is far in edits but plain to a reader: the word's
    // letters in order within the candidate, starting with its first.
    for (const std::string& candidate : candidates) {
        if (candidate == word || lower(candidate[0]) != lower(word[0])) continue;
        size_t matched = 0;
        for (char c : candidate)
            if (matched < word.size() && lower(c) == lower(word[matched])) ++matched;
        if (matched == word.size()) return candidate;
    }
    return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
    auto best = closest_name(word, candidates);
    return best ? " (did you mean " + *best + "?)" : std::string();
}

std::string unknown_member_text(const std::string& key, const std::vector<std::string>& allowed) {
    std::string list;
    for (const std::string& name : allowed) list += (list.empty() ? "" : ", ") + name;
    const auto best = closest_name(key, allowed);
    return "unknown member '" + key + "' (" + (best ? "did you mean " + *best + "? " : "") + "expected one of " + list + ")";
}

}  // namespace dmltool
