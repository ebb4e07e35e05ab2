#include "core/plan_tuning.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include "core/compare.h"
#include "core/platform.h"

namespace dmltool {
namespace {

// The file's "format" member: a file without it (or with another) is not read.
constexpr const char* kCacheFormat = "dmltool-tuning-cache/1";

class Fnv1a {
public:
    void bytes(const void* data, size_t size) {
        const auto* p = static_cast<const unsigned char*>(data);
        for (size_t i = 0; i < size; ++i) hash_ = (hash_ ^ p[i]) * 0x100000001b3ull;
    }
    void text(std::string_view s) {
        number(s.size());  // length first: "ab"+"c" and "a"+"bc" differ
        bytes(s.data(), s.size());
    }
    void number(uint64_t v) { bytes(&v, sizeof v); }
    uint64_t value() const { return hash_; }

private:
    uint64_t hash_ = 0xcbf29ce484222325ull;
};

void hash_binding(Fnv1a& h, const BufferBinding& b) {
    h.number(uint64_t(b.source));
    h.number(b.index);
    h.number(b.byte_offset);
    h.number(b.byte_size);
    h.number(b.typed_uint4);
}

nlohmann::json entry_json(const std::string& label, const PlanChoice& choice) {
    nlohmann::json candidates = nlohmann::json::array();
    for (const VariantTime& t : choice.candidates) candidates.push_back({{"variant", t.variant}, {"seconds", t.seconds}});
    return {{"label", label}, {"variant", choice.variant}, {"candidates", candidates}};
}

// The devices object of a cache file, or an error saying why the file is not one.
Result<nlohmann::json> read_devices(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return io_error("cannot open " + path.string());
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json root = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
    if (root.is_discarded()) return invalid_input(path.string() + ": not JSON");
    if (!root.is_object() || root.value("format", "") != kCacheFormat)
        return invalid_input(path.string() + ": \"format\" is not \"" + kCacheFormat + "\"");
    if (!root.contains("devices") || !root["devices"].is_object())
        return invalid_input(path.string() + ": no \"devices\" object");
    return root["devices"];
}

}  // namespace

std::string_view tuning_mode_name(TuningMode mode) {
    switch (mode) {
        case TuningMode::kOff: return "off";
        case TuningMode::kCached: return "cached";
        case TuningMode::kTune: return "tune";
    }
    return "?";
}

std::optional<TuningMode> parse_tuning_mode(std::string_view text) {
    for (TuningMode mode : {TuningMode::kOff, TuningMode::kCached, TuningMode::kTune})
        if (text == tuning_mode_name(mode)) return mode;
    return std::nullopt;
}

double PlanChoice::speedup() const {
    if (candidates.empty() || !(candidates.front().seconds > 0)) return 1.0;
    for (const VariantTime& t : candidates)
        if (t.variant == variant && t.seconds > 0) return candidates.front().seconds / t.seconds;
    return 1.0;
}

size_t choose_variant(const std::vector<VariantTime>& measured, double margin) {
    if (measured.empty()) return 0;
    size_t best = 0;
    for (size_t i = 1; i < measured.size(); ++i)
        if (measured[i].seconds > 0 && (!(measured[best].seconds > 0) || measured[i].seconds < measured[best].seconds))
            best = i;
    const double heuristic = measured[0].seconds;
    if (best != 0 && heuristic > 0 && measured[best].seconds * (1 + margin) > heuristic) return 0;
    return best;
}

Result<double> settle_clocks(const std::function<Result<TimedBatch>(double previous_mean)>& time_batch) {
    constexpr double kSettledTolerance = 0.02, kSettleMinSeconds = 0.5;
    constexpr unsigned kMaxSettleBatches = 200;
    DMLTOOL_ASSIGN_OR_RETURN(const TimedBatch first, time_batch(0));
    double busy = first.seconds, previous = first.mean;
    for (unsigned count = 0; count < kMaxSettleBatches; ++count) {
        DMLTOOL_ASSIGN_OR_RETURN(const TimedBatch current, time_batch(previous));
        busy += current.seconds;
        if (busy >= kSettleMinSeconds && std::abs(current.mean - previous) <= kSettledTolerance * previous)
            return std::min(current.mean, previous);
        if (!(current.seconds > 0)) break;  // timestamps that do not advance: nothing to wait for
        previous = current.mean;
    }
    return previous;  // never settled (a noisy device): the last batch, as warm as it gets
}

std::string variant_output_difference(const std::vector<HostTensor>& expected, const std::vector<HostTensor>& got) {
    if (expected.size() != got.size()) return "a different number of outputs";
    for (size_t o = 0; o < expected.size(); ++o) {
        // Not bitwise, ulp 0, abs 0: equal values only; ulp_distance counts two NaNs and +-0 as 0 ulp apart.
        const Tolerance equal_values;
        const CompareResult r = compare_tensors(expected[o], got[o], equal_values, 1);
        if (r.verdict == Verdict::kPassed) continue;
        if (r.mismatches.empty()) return "output " + std::to_string(o) + ": " + r.reason;
        const Mismatch& m = r.mismatches.front();
        return "output " + std::to_string(o) + " element " + std::to_string(m.index) + ": expected " + m.expected +
               ", got " + m.got;
    }
    return {};
}

std::string plan_fingerprint(std::string_view op_name, const DevicePlan& heuristic,
                             const std::vector<std::string>& variants) {
    Fnv1a h;
    h.text(op_name);
    h.number(heuristic.auxiliary_buffers.size());
    for (const auto& buffer : heuristic.auxiliary_buffers) {
        h.number(buffer.size());
        h.bytes(buffer.data(), buffer.size());
    }
    h.number(heuristic.dispatches.size());
    for (const KernelDispatch& d : heuristic.dispatches) {
        h.number(d.dxbc ? d.dxbc->size() : 0);
        if (d.dxbc) h.bytes(d.dxbc->data(), d.dxbc->size());
        h.number(d.root_constants.size());
        for (uint32_t c : d.root_constants) h.number(c);
        h.number(d.srvs.size());
        for (const BufferBinding& b : d.srvs) hash_binding(h, b);
        h.number(d.uavs.size());
        for (const BufferBinding& b : d.uavs) hash_binding(h, b);
        for (uint32_t g : d.group_count) h.number(g);
        h.number(d.barrier_after);
    }
    h.number(variants.size());
    for (const std::string& v : variants) h.text(v);
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h.value()));
    return text;
}

std::filesystem::path default_tuning_cache_path() {
#ifdef _WIN32
    if (const char* local = std::getenv("LOCALAPPDATA"); local && *local)
        return std::filesystem::path(local) / "dmltool" / "tuning.json";
#endif
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::filesystem::path(xdg) / "dmltool" / "tuning.json";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "dmltool" / "tuning.json";
    return {};
}

TuningCache TuningCache::load(const std::filesystem::path& path, std::string* warning) {
    TuningCache cache(path);
    std::error_code error;
    if (path.empty() || !std::filesystem::exists(path, error)) return cache;
    auto devices = read_devices(path);
    if (devices.is_ok())
        cache.devices_ = std::move(devices).value();
    else if (warning)
        *warning = "tuning cache ignored (it is rebuilt by tuning): " + devices.status().message();
    return cache;
}

std::optional<PlanChoice> TuningCache::find(const std::string& device, const std::string& plan) const {
    const nlohmann::json* entry = nullptr;
    for (const nlohmann::json* source : {&stored_, &devices_}) {
        auto d = source->find(device);
        if (d == source->end() || !d->is_object()) continue;
        auto p = d->find(plan);
        if (p != d->end() && p->is_object()) {
            entry = &*p;
            break;
        }
    }
    if (!entry || !entry->contains("variant") || !(*entry)["variant"].is_string()) return std::nullopt;
    PlanChoice choice;
    choice.source = "cache";
    choice.variant = (*entry)["variant"].get<std::string>();
    if (auto c = entry->find("candidates"); c != entry->end() && c->is_array())
        for (const nlohmann::json& t : *c)
            if (t.is_object() && t.value("variant", nlohmann::json()).is_string() &&
                t.value("seconds", nlohmann::json()).is_number())
                choice.candidates.push_back({t["variant"].get<std::string>(), t["seconds"].get<double>()});
    return choice;
}

void TuningCache::store(const std::string& device, const std::string& plan, const std::string& label,
                        const PlanChoice& choice) {
    stored_[device][plan] = entry_json(label, choice);
}

Status TuningCache::save() const {
    if (path_.empty() || stored_.empty()) return Status::ok();
    nlohmann::json devices = nlohmann::json::object();
    std::error_code error;
    if (std::filesystem::exists(path_, error)) {
        auto current = read_devices(path_);
        if (current.is_ok()) devices = std::move(current).value();  // an unreadable file is replaced
    }
    for (const auto& [device, plans] : stored_.items())
        for (const auto& [plan, entry] : plans.items()) devices[device][plan] = entry;
    if (path_.has_parent_path()) {
        std::filesystem::create_directories(path_.parent_path(), error);
        if (error) return io_error("cannot create " + path_.parent_path().string() + ": " + error.message());
    }
    std::filesystem::path temporary = path_;
    temporary += ".tmp" + std::to_string(platform::process_id());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << nlohmann::json{{"format", kCacheFormat}, {"devices", devices}}.dump(1) << "\n";
        if (!out.flush()) return io_error("cannot write " + temporary.string());
    }
    std::filesystem::rename(temporary, path_, error);
    if (error) {
        // Some runtimes (MinGW's on Windows) do not rename over an existing file: replace it in two steps.
        std::filesystem::remove(path_, error);
        std::filesystem::rename(temporary, path_, error);
    }
    if (error) {
        std::filesystem::remove(temporary, error);
        return io_error("cannot replace " + path_.string() + ": " + error.message());
    }
    return Status::ok();
}

}  // namespace dmltool
