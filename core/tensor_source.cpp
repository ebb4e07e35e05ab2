#include "core/tensor_source.h"

#include <cmath>
#include <limits>

#include "core/hdf5_io.h"

namespace dmltool {
namespace {

std::string type_name(DataType t) { return std::string(data_type_name(t)); }

std::string scalar_text(const ScalarValue& v) {
    switch (v.kind) {
        case ScalarValue::Kind::kSigned: return std::to_string(v.i);
        case ScalarValue::Kind::kUnsigned: return std::to_string(v.u);
        case ScalarValue::Kind::kFloat: {
            char buffer[32];
            std::snprintf(buffer, sizeof buffer, "%.17g", v.f);
            return buffer;
        }
    }
    return "?";
}

// Integer value of a scalar when it is one (floats only when integral and within int64/uint64 range).
bool integral_value(const ScalarValue& v, __int128* out) {
    switch (v.kind) {
        case ScalarValue::Kind::kSigned: *out = v.i; return true;
        case ScalarValue::Kind::kUnsigned: *out = v.u; return true;
        case ScalarValue::Kind::kFloat:
            if (!std::isfinite(v.f) || std::floor(v.f) != v.f || std::fabs(v.f) > 1.8e19) return false;
            *out = __int128(v.f);
            return true;
    }
    return false;
}

void store_integer(HostTensor& t, uint64_t index, __int128 value) {
    // Two's complement truncation to the element size (little endian): exactly the low bytes.
    const uint64_t bits = uint64_t(value);
    std::memcpy(t.element_ptr(index), &bits, t.element_bytes());
}

// Stores one scalar into element `index`, checking it is representable in the data type.
Status store_checked(HostTensor& t, uint64_t index, const ScalarValue& v, const std::string& path) {
    const DataType type = t.data_type();
    if (is_float(type)) {
        const double d = v.as_double();
        if (type != DataType::kFloat64 && std::isfinite(d)) {
            const double limit = type == DataType::kFloat16 ? 65504.0 : double(std::numeric_limits<float>::max());
            if (std::fabs(d) > limit)
                return invalid_input(path + ": expected a value representable as " + type_name(type) + " (|x| <= " +
                                     scalar_text(ScalarValue{ScalarValue::Kind::kFloat, 0, 0, limit}) + "), found " +
                                     scalar_text(v));
        }
        t.set_from_double(index, d);
        return Status::ok();
    }
    __int128 value;
    if (!integral_value(v, &value))
        return invalid_input(path + ": expected an integer for " + type_name(type) + ", found " + scalar_text(v));
    if (value < __int128(integer_min(type)) || value > __int128(integer_max(type)))
        return invalid_input(path + ": expected an integer in [" + std::to_string(integer_min(type)) + ", " +
                             std::to_string(integer_max(type)) + "] for " + type_name(type) + ", found " + scalar_text(v));
    store_integer(t, index, value);
    return Status::ok();
}

Result<std::filesystem::path> resolve_path(const std::string& file, const std::filesystem::path& base_dir,
                                           const SourceOptions& options, const std::string& json_path) {
    const std::filesystem::path given(file);
    if (given.is_absolute()) {
        if (!options.allow_outside_paths)
            return invalid_input(json_path + "/hdf5: expected a path relative to the case file, found absolute path '" +
                                 file + "' (pass --allow-outside-paths to permit it)");
        return given;
    }
    const std::filesystem::path resolved = (base_dir / given).lexically_normal();
    const std::filesystem::path relative = given.lexically_normal();
    if (!options.allow_outside_paths && !relative.empty() && *relative.begin() == "..")
        return invalid_input(json_path + "/hdf5: expected a path inside the case file's directory, found '" + file +
                             "', which climbs out of it (pass --allow-outside-paths to permit it)");
    return resolved;
}

Result<HostTensor> from_values(const ValuesSource& s, const TensorDesc& desc, const std::string& path) {
    HostTensor t(desc);
    if (s.values.size() != t.element_count())
        return invalid_input(path + "/values: expected " + std::to_string(t.element_count()) + " values (Sizes " +
                             format_dims(desc.sizes) + "), found " + std::to_string(s.values.size()));
    for (uint64_t i = 0; i < t.element_count(); ++i)
        DMLTOOL_RETURN_IF_ERROR(store_checked(t, i, s.values[i], path + "/values[" + std::to_string(i) + "]"));
    return t;
}

Result<HostTensor> from_random(const RandomSource& s, const TensorDesc& desc, const std::string& path) {
    HostTensor t(desc);
    const std::string rpath = path + "/random";
    if (is_float(desc.data_type)) {
        const double lo = s.min.as_double(), hi = s.max.as_double();
        if (!(lo <= hi)) return invalid_input(rpath + ": expected min <= max, found min " + scalar_text(s.min) +
                                              " and max " + scalar_text(s.max));
        // Check the range once through the same representability rule as explicit values.
        DMLTOOL_RETURN_IF_ERROR(store_checked(t, 0, s.min, rpath + "/min"));
        DMLTOOL_RETURN_IF_ERROR(store_checked(t, 0, s.max, rpath + "/max"));
        for (uint64_t i = 0; i < t.element_count(); ++i) t.set_from_double(i, random_float_element(s.seed, i, lo, hi));
        return t;
    }
    __int128 lo, hi;
    if (!integral_value(s.min, &lo)) return invalid_input(rpath + "/min: expected an integer for " + type_name(desc.data_type) + ", found " + scalar_text(s.min));
    if (!integral_value(s.max, &hi)) return invalid_input(rpath + "/max: expected an integer for " + type_name(desc.data_type) + ", found " + scalar_text(s.max));
    DMLTOOL_RETURN_IF_ERROR(store_checked(t, 0, s.min, rpath + "/min"));
    DMLTOOL_RETURN_IF_ERROR(store_checked(t, 0, s.max, rpath + "/max"));
    if (lo > hi) return invalid_input(rpath + ": expected min <= max, found min " + scalar_text(s.min) + " and max " + scalar_text(s.max));
    const unsigned __int128 width = (unsigned __int128)(hi - lo) + 1;
    for (uint64_t i = 0; i < t.element_count(); ++i)
        store_integer(t, i, lo + __int128(random_bits(s.seed, i) % width));
    return t;
}

Result<HostTensor> from_sequence(const SequenceSource& s, const TensorDesc& desc, const std::string& path) {
    HostTensor t(desc);
    if (is_float(desc.data_type)) {
        const double start = s.start.as_double(), step = s.step.as_double();
        for (uint64_t i = 0; i < t.element_count(); ++i) {
            const double v = start + double(i) * step;
            if (desc.data_type != DataType::kFloat64 && !(std::fabs(v) <= (desc.data_type == DataType::kFloat16 ? 65504.0 : 3.4028234663852886e38)))
                return invalid_input(path + "/sequence: element " + std::to_string(i) + " = " + std::to_string(v) +
                                     " is not representable as " + type_name(desc.data_type));
            t.set_from_double(i, v);
        }
        return t;
    }
    __int128 start, step;
    if (!integral_value(s.start, &start)) return invalid_input(path + "/sequence/start: expected an integer for " + type_name(desc.data_type) + ", found " + scalar_text(s.start));
    if (!integral_value(s.step, &step)) return invalid_input(path + "/sequence/step: expected an integer for " + type_name(desc.data_type) + ", found " + scalar_text(s.step));
    // Integer sequences wrap modulo 2^bits (documented): a 0..N ramp over a long UINT8 tensor stays useful.
    for (uint64_t i = 0; i < t.element_count(); ++i) store_integer(t, i, start + __int128(i) * step);
    return t;
}

Result<HostTensor> from_constant(const ConstantSource& s, const TensorDesc& desc, const std::string& path) {
    HostTensor t(desc);
    DMLTOOL_RETURN_IF_ERROR(store_checked(t, 0, s.value, path + "/constant"));
    for (uint64_t i = 1; i < t.element_count(); ++i)
        std::memcpy(t.element_ptr(i), t.element_ptr(0), t.element_bytes());
    return t;
}

}  // namespace

uint64_t random_bits(uint64_t seed, uint64_t index) {
    uint64_t z = seed + (index + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double random_float_element(uint64_t seed, uint64_t index, double min, double max) {
    const double unit = double(random_bits(seed, index) >> 11) * 0x1.0p-53;  // [0, 1)
    return min + unit * (max - min);
}

Result<HostTensor> materialize_source(const TensorSource& source, const TensorDesc& desc,
                                      const std::filesystem::path& base_dir, const SourceOptions& options) {
    const std::string& path = source.json_path;
    if (const auto* h = std::get_if<Hdf5Source>(&source.kind)) {
        DMLTOOL_ASSIGN_OR_RETURN(std::filesystem::path file, resolve_path(h->file, base_dir, options, path));
        auto tensor = read_hdf5_tensor(file, h->dataset, desc);
        if (!tensor.is_ok()) return tensor.status().with_context(path);
        return tensor;
    }
    if (const auto* v = std::get_if<ValuesSource>(&source.kind)) return from_values(*v, desc, path);
    if (const auto* r = std::get_if<RandomSource>(&source.kind)) return from_random(*r, desc, path);
    if (const auto* s = std::get_if<SequenceSource>(&source.kind)) return from_sequence(*s, desc, path);
    return from_constant(std::get<ConstantSource>(source.kind), desc, path);
}

}  // namespace dmltool
