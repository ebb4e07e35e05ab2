#include "core/op_registry.h"

#include <algorithm>

namespace dmltool {
namespace {

constexpr std::string_view kOperatorPrefix = "DML_OPERATOR_";

size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string_view strip_prefix(std::string_view name) {
    if (name.substr(0, kOperatorPrefix.size()) == kOperatorPrefix) name.remove_prefix(kOperatorPrefix.size());
    return name;
}

}  // namespace

void OpRegistry::add(std::unique_ptr<Op> op) { ops_.push_back(std::move(op)); }

const Op* OpRegistry::find(std::string_view name) const {
    name = strip_prefix(name);
    for (const auto& op : ops_)
        if (op->name() == name) return op.get();
    return nullptr;
}

std::string OpRegistry::unknown_operator_message(std::string_view name) const {
    const std::string_view bare = strip_prefix(name);
    std::string known;
    const Op* closest = nullptr;
    size_t best = 4;  // suggest only near misses
    for (const auto& op : ops_) {
        known += (known.empty() ? "" : ", ") + std::string(kOperatorPrefix) + std::string(op->name());
        const size_t distance = edit_distance(bare, op->name());
        if (distance < best) {
            best = distance;
            closest = op.get();
        }
    }
    std::string message = "unknown operator '" + std::string(name) + "'";
    if (closest) message += " (did you mean '" + std::string(kOperatorPrefix) + std::string(closest->name()) + "'?)";
    return message + "; known operators: " + known;
}

}  // namespace dmltool
