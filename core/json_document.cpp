#include "core/json_document.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <vector>

namespace dmltool {
namespace {

using nlohmann::json;

std::string mib_text(uint64_t bytes) {
    return bytes % (1 << 20) == 0 ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " bytes";
}

// A SAX handler that builds the document with nlohmann's own DOM builder and watches every event on the way:
// counts values, tracks the JSON pointer of the current position (for messages), stops before nesting beyond
// the limit and notes repeated member names. (nlohmann's parse-callback API would do the same but is
// quadratic in 3.11.2 for arrays of objects: 200000 cases took 12 s instead of 0.6 s.)
class GuardedDomBuilder {
public:
    using number_integer_t = json::number_integer_t;
    using number_unsigned_t = json::number_unsigned_t;
    using number_float_t = json::number_float_t;
    using string_t = json::string_t;
    using binary_t = json::binary_t;

    GuardedDomBuilder(json& root, const CaseLoadLimits& limits) : dom_(root, true), limits_(limits) {}

    bool null() { return scalar() && dom_.null(); }
    bool boolean(bool v) { return scalar() && dom_.boolean(v); }
    bool number_integer(number_integer_t v) { return scalar() && dom_.number_integer(v); }
    bool number_unsigned(number_unsigned_t v) { return scalar() && dom_.number_unsigned(v); }
    bool number_float(number_float_t v, const string_t& text) { return scalar() && dom_.number_float(v, text); }
    bool string(string_t& v) { return scalar() && dom_.string(v); }
    bool binary(binary_t& v) { return scalar() && dom_.binary(v); }
    bool start_object(std::size_t n) { return open(false) && dom_.start_object(n); }
    bool start_array(std::size_t n) { return open(true) && dom_.start_array(n); }
    bool end_object() { return close() && dom_.end_object(); }
    bool end_array() { return close() && dom_.end_array(); }
    bool key(string_t& k) {
        Frame& object = frames_.back();
        object.key = k;
        if (!object.keys.insert(k).second && !first_duplicate_) first_duplicate_ = pointer(0);
        // This object is the value of a member "sweep": remember the order of its members (the sweep's axes).
        if (frames_.size() >= 2 && !frames_[frames_.size() - 2].is_array && frames_[frames_.size() - 2].key == "sweep")
            sweep_member_order_[pointer(0, frames_.size() - 1)].push_back(k);
        return dom_.key(k);
    }
    template <class Exception>
    bool parse_error(std::size_t position, const std::string& token, const Exception& e) {
        return dom_.parse_error(position, token, e);  // throws e: parse_json_document reports it with its position
    }

    const std::string& refusal() const { return refusal_; }
    const std::optional<std::string>& first_duplicate() const { return first_duplicate_; }
    std::map<std::string, std::vector<std::string>>& sweep_member_order() { return sweep_member_order_; }

private:
    struct Frame {
        bool is_array = false;
        uint64_t elements = 0;  // array elements begun so far
        std::string key;        // object member being parsed
        std::set<std::string> keys;
    };

    bool scalar() { return count_value(); }

    bool open(bool is_array) {
        if (!count_value()) return false;
        if (frames_.size() >= limits_.max_depth) {
            refusal_ = pointer(16) + ": expected JSON nested at most " + std::to_string(limits_.max_depth) +
                       " levels deep, found deeper nesting (" + (is_array ? "an array" : "an object") + " at level " +
                       std::to_string(frames_.size() + 1) + ")";
            return false;
        }
        frames_.emplace_back().is_array = is_array;
        return true;
    }

    bool close() {
        frames_.pop_back();
        return true;
    }

    bool count_value() {
        if (!frames_.empty() && frames_.back().is_array) ++frames_.back().elements;
        if (++values_ <= limits_.max_json_values) return true;
        refusal_ = pointer(16) + ": expected at most " + std::to_string(limits_.max_json_values) +
                   " JSON values in the file (--max-json-values; large data belongs in HDF5), found more";
        return false;
    }

    // JSON pointer of the value being parsed (of the first `frame_count` frames' position: their container);
    // with max_components > 0, long pointers end in "/...".
    std::string pointer(size_t max_components, size_t frame_count = SIZE_MAX) const {
        std::string out;
        for (size_t i = 0; i < std::min(frames_.size(), frame_count); ++i) {
            if (max_components && i == max_components) return out + "/...";
            const Frame& f = frames_[i];
            if (f.is_array) {
                out += "/" + std::to_string(f.elements ? f.elements - 1 : 0);
                continue;
            }
            out += "/";
            for (char c : f.key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
        }
        return out.empty() ? "/" : out;
    }

    nlohmann::detail::json_sax_dom_parser<json> dom_;
    const CaseLoadLimits& limits_;
    std::vector<Frame> frames_;
    uint64_t values_ = 0;
    std::string refusal_;
    std::optional<std::string> first_duplicate_;
    std::map<std::string, std::vector<std::string>> sweep_member_order_;
};

// Line and column of a byte offset, for JSON syntax errors.
std::string line_and_column(const std::string& text, size_t offset) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace

Result<std::string> read_text_file(const std::string& path, const CaseLoadLimits& limits) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return io_error(path + ": expected a case file (JSON), found a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return io_error(path + ": cannot open case file (" +
                        (std::filesystem::exists(path, ec) ? "permission denied" : "no such file") + ")");
    const std::string limit = "expected a case file of at most " + mib_text(limits.max_file_bytes) +
                              " (--max-case-file-size)";
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > limits.max_file_bytes) return invalid_input(path + ": " + limit + ", found " + std::to_string(size) + " bytes");
    // Read in bounded chunks whatever file_size said: a FIFO or /dev/zero has no size and no end.
    std::string text;
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        text.append(chunk, size_t(in.gcount()));
        if (text.size() > limits.max_file_bytes) return invalid_input(path + ": " + limit + ", found more");
    }
    if (in.bad()) return io_error(path + ": read error");
    return text;
}

Result<JsonDocument> parse_json_document(const std::string& text, const std::string& path,
                                         const CaseLoadLimits& limits) {
    if (text.size() > limits.max_file_bytes)
        return invalid_input(path + ": expected a case file of at most " + mib_text(limits.max_file_bytes) +
                             " (--max-case-file-size), found " + std::to_string(text.size()) + " bytes");
    JsonDocument document;
    GuardedDomBuilder builder(document.root, limits);
    try {
        if (!json::sax_parse(text, &builder)) return invalid_input(path + ": " + builder.refusal());
    } catch (const json::parse_error& e) {
        std::string what = e.what();
        // nlohmann's message: "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error ..."
        const size_t colon = what.find("syntax error");
        return invalid_input(path + ": malformed JSON at " + line_and_column(text, e.byte ? e.byte - 1 : 0) + ": " +
                             (colon != std::string::npos ? what.substr(colon) : what));
    } catch (const json::exception& e) {
        // Not every syntax problem is a parse_error: a number such as 1e400 throws out_of_range.406, which
        // would otherwise escape as an "internal error" (exit 3) instead of an invalid case file (exit 2).
        std::string what = e.what();
        const size_t bracket = what.find("] ");
        return invalid_input(path + ": malformed JSON: " + (bracket != std::string::npos ? what.substr(bracket + 2) : what));
    }
    document.first_duplicate_member = builder.first_duplicate();
    document.sweep_member_order = std::move(builder.sweep_member_order());
    return document;
}

}  // namespace dmltool
