#include "core/tensor_source.h"

#include <charconv>
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
            if (std::isnan(v.f)) return "nan";
            if (std::isinf(v.f)) return v.f < 0 ? "-inf" : "inf";
            // The shortest text that reads back as the same double: -1e+39, not -9.9999999999999994e+38.
            char buffer[32];
            const auto end = std::to_chars(buffer, buffer + sizeof buffer, v.f, std::chars_format::general).ptr;
            return std::string(buffer, end);
        }
    }
    return "?";
}

// Integer value of a scalar when it is one (floats only when integral).
bool integral_value(const ScalarValue& v, __int128* out) {
    switch (v.kind) {
        case ScalarValue::Kind::kSigned: *out = v.i; return true;
        case ScalarValue::Kind::kUnsigned: *out = v.u; return true;
        case ScalarValue::Kind::kFloat:
            // Up to 1e38 (inside __int128): 2^64 as a float is an integer, and out of range, not "not an integer".
            if (!std::isfinite(v.f) || std::floor(v.f) != v.f || std::fabs(v.f) > 1e38) return false;
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
    const std::string member = json_path + "/hdf5";
    const std::string allow = " (pass --allow-outside-paths to permit it)";
    const std::filesystem::path given(file);
    // has_root_path, not is_absolute: on Windows "/tmp/x.h5" (root-relative, e.g. a Linux path under Wine) and
    // "D:x.h5" (drive-relative) are not absolute, yet neither is relative to the case file.
    if (given.has_root_path()) {
        if (!options.allow_outside_paths)
            return invalid_input(member + ": expected a path relative to the case file, found absolute path '" + file +
                                 "'" + allow);
        return given;
    }
    const std::filesystem::path resolved = (base_dir / given).lexically_normal();
    if (options.allow_outside_paths) return resolved;
    // Decided on where the path leads, not on how it is spelled: "../cases/x.h5" from inside cases/ stays inside,
    // and a symbolic link can leave the tree although the text does not. Both canonical (the part that does not
    // exist yet is taken as written; it fails later as a missing file). The target is resolved as the system
    // would, links first and ".." after them, so it is not normalised lexically beforehand.
    std::error_code ec;
    // Absolute first: weakly_canonical leaves a relative path whose first component does not exist relative,
    // which would then look like it left the tree (a missing bare file name must fail as missing instead).
    const std::filesystem::path root = std::filesystem::weakly_canonical(
        std::filesystem::absolute(base_dir.empty() ? std::filesystem::path(".") : base_dir, ec), ec);
    const std::filesystem::path target =
        ec ? resolved : std::filesystem::weakly_canonical(std::filesystem::absolute(base_dir / given, ec), ec);
    if (ec) return io_error(member + ": cannot resolve '" + file + "' (" + ec.message() + ")");
    const std::filesystem::path inside = target.lexically_relative(root);
    if (!inside.empty() && *inside.begin() != "..") return resolved;
    const std::filesystem::path spelled = given.lexically_normal();
    if (!spelled.empty() && *spelled.begin() == "..")
        return invalid_input(member + ": expected a path inside the case file's directory, found '" + file +
                             "', which climbs out of it" + allow);
    return invalid_input(member + ": expected a path inside the case file's directory, found '" + file +
                         "', which resolves to '" + target.generic_string() + "' through a symbolic link" + allow);
}

// The checks of the inline sources need only the data type and the element count, so that case loading
// (and `dmltool validate`) can run them without allocating the tensor. `scratch` is one element of the type.
Status check_values(const ValuesSource& s, const TensorDesc& desc, HostTensor& scratch, const std::string& path) {
    if (s.values.size() != desc.element_count())
        return invalid_input(path + "/values: expected " + std::to_string(desc.element_count()) + " values (Sizes " +
                             format_dims(desc.sizes) + "), found " + std::to_string(s.values.size()));
    for (size_t i = 0; i < s.values.size(); ++i)
        DMLTOOL_RETURN_IF_ERROR(store_checked(scratch, 0, s.values[i], path + "/values[" + std::to_string(i) + "]"));
    return Status::ok();
}

Status check_random(const RandomSource& s, DataType type, HostTensor& scratch, const std::string& path) {
    const std::string rpath = path + "/random";
    const auto min_above_max = [&] {
        return invalid_input(rpath + ": expected min <= max, found min " + scalar_text(s.min) + " and max " +
                             scalar_text(s.max));
    };
    if (is_float(type)) {
        if (!(s.min.as_double() <= s.max.as_double())) return min_above_max();
    } else {
        __int128 lo, hi;
        if (!integral_value(s.min, &lo))
            return invalid_input(rpath + "/min: expected an integer for " + type_name(type) + ", found " + scalar_text(s.min));
        if (!integral_value(s.max, &hi))
            return invalid_input(rpath + "/max: expected an integer for " + type_name(type) + ", found " + scalar_text(s.max));
        if (lo > hi) return min_above_max();
    }
    // The range through the same representability rule as explicit values.
    DMLTOOL_RETURN_IF_ERROR(store_checked(scratch, 0, s.min, rpath + "/min"));
    return store_checked(scratch, 0, s.max, rpath + "/max");
}

double float_limit(DataType type) {
    return type == DataType::kFloat16 ? 65504.0 : double(std::numeric_limits<float>::max());
}

Status check_sequence(const SequenceSource& s, const TensorDesc& desc, const std::string& path) {
    const DataType type = desc.data_type;
    if (is_float(type)) {
        if (type == DataType::kFloat64) return Status::ok();
        // start + i * step is monotonic in i: the largest magnitude is at the first or the last element.
        const uint64_t last = desc.element_count() - 1;
        for (uint64_t i : {uint64_t(0), last}) {
            const double v = s.start.as_double() + double(i) * s.step.as_double();
            if (!(std::fabs(v) <= float_limit(type)))
                return invalid_input(path + "/sequence: expected every element representable as " + type_name(type) +
                                     " (|x| <= " + scalar_text(ScalarValue{ScalarValue::Kind::kFloat, 0, 0, float_limit(type)}) +
                                     "), found element " + std::to_string(i) + " = " +
                                     scalar_text(ScalarValue{ScalarValue::Kind::kFloat, 0, 0, v}));
        }
        return Status::ok();
    }
    __int128 value;
    if (!integral_value(s.start, &value))
        return invalid_input(path + "/sequence/start: expected an integer for " + type_name(type) + ", found " + scalar_text(s.start));
    if (!integral_value(s.step, &value))
        return invalid_input(path + "/sequence/step: expected an integer for " + type_name(type) + ", found " + scalar_text(s.step));
    return Status::ok();
}

HostTensor fill_values(const ValuesSource& s, const TensorDesc& desc) {
    HostTensor t(desc);
    for (uint64_t i = 0; i < t.element_count(); ++i) {
        const ScalarValue& v = s.values[i];
        __int128 value;
        if (is_float(t.data_type()) || !integral_value(v, &value))
            t.set_from_double(i, v.as_double());
        else
            store_integer(t, i, value);
    }
    return t;
}

HostTensor fill_random(const RandomSource& s, const TensorDesc& desc) {
    HostTensor t(desc);
    if (is_float(desc.data_type)) {
        const double lo = s.min.as_double(), hi = s.max.as_double();
        for (uint64_t i = 0; i < t.element_count(); ++i) t.set_from_double(i, random_float_element(s.seed, i, lo, hi));
        return t;
    }
    __int128 lo = 0, hi = 0;  // integral: check_random said so
    integral_value(s.min, &lo);
    integral_value(s.max, &hi);
    const unsigned __int128 width = (unsigned __int128)(hi - lo) + 1;
    for (uint64_t i = 0; i < t.element_count(); ++i)
        store_integer(t, i, lo + __int128(random_bits(s.seed, i) % width));
    return t;
}

HostTensor fill_sequence(const SequenceSource& s, const TensorDesc& desc) {
    HostTensor t(desc);
    if (is_float(desc.data_type)) {
        const double start = s.start.as_double(), step = s.step.as_double();
        for (uint64_t i = 0; i < t.element_count(); ++i) t.set_from_double(i, start + double(i) * step);
        return t;
    }
    __int128 start = 0, step = 0;  // integral: check_sequence said so
    integral_value(s.start, &start);
    integral_value(s.step, &step);
    // Integer sequences wrap modulo 2^bits (documented): a 0..N ramp over a long UINT8 tensor stays useful.
    for (uint64_t i = 0; i < t.element_count(); ++i) store_integer(t, i, start + __int128(i) * step);
    return t;
}

HostTensor fill_constant(const TensorDesc& desc, const HostTensor& one_element) {
    HostTensor t(desc);
    for (uint64_t i = 0; i < t.element_count(); ++i)
        std::memcpy(t.element_ptr(i), one_element.element_ptr(0), t.element_bytes());
    return t;
}

HostTensor one_element_of(DataType type) {
    TensorDesc one;
    one.data_type = type;
    one.sizes = {1};
    return HostTensor(one);
}

}  // namespace

uint64_t random_bits(uint64_t seed, uint64_t index) {
    uint64_t z = seed + (index + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t derived_random_seed(std::string_view case_name, std::string_view slot) {
    uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a, 64-bit
    const auto add = [&hash](std::string_view text) {
        for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ull;
    };
    add(case_name);
    add("/");
    add(slot);
    return hash;
}

std::pair<ScalarValue, ScalarValue> default_random_range(DataType type) {
    const auto signed_value = [](int64_t v) { return ScalarValue{ScalarValue::Kind::kSigned, v, 0, 0}; };
    if (is_float(type)) return {signed_value(-1), signed_value(1)};
    if (element_size_in_bits(type) > 16)
        return is_signed_integer(type) ? std::pair{signed_value(-32768), signed_value(32767)}
                                       : std::pair{signed_value(0), signed_value(65535)};
    return {signed_value(integer_min(type)), signed_value(int64_t(integer_max(type)))};
}

double random_float_element(uint64_t seed, uint64_t index, double min, double max) {
    const double unit = double(random_bits(seed, index) >> 11) * 0x1.0p-53;  // [0, 1)
    return min + unit * (max - min);
}

Status check_inline_source(const TensorSource& source, const TensorDesc& desc) {
    const std::string& path = source.json_path;
    HostTensor scratch = one_element_of(desc.data_type);
    if (const auto* v = std::get_if<ValuesSource>(&source.kind)) return check_values(*v, desc, scratch, path);
    if (const auto* r = std::get_if<RandomSource>(&source.kind)) return check_random(*r, desc.data_type, scratch, path);
    if (const auto* s = std::get_if<SequenceSource>(&source.kind)) return check_sequence(*s, desc, path);
    if (const auto* c = std::get_if<ConstantSource>(&source.kind))
        return store_checked(scratch, 0, c->value, path + "/constant");
    return Status::ok();  // HDF5: the file is read (and checked) when the case runs
}

Status check_source(const TensorSource& source, const TensorDesc& desc, const std::filesystem::path& base_dir,
                    const SourceOptions& options) {
    const std::string& path = source.json_path;
    if (const auto* h = std::get_if<Hdf5Source>(&source.kind)) {
        DMLTOOL_ASSIGN_OR_RETURN(std::filesystem::path file, resolve_path(h->file, base_dir, options, path));
        Status checked = check_hdf5_tensor(file, h->dataset, desc, Hdf5ReadOptions{options.allow_outside_paths});
        return checked.is_ok() ? checked : checked.with_context(path);
    }
    return check_inline_source(source, desc);
}

Result<HostTensor> materialize_source(const TensorSource& source, const TensorDesc& desc,
                                      const std::filesystem::path& base_dir, const SourceOptions& options) {
    const std::string& path = source.json_path;
    if (const auto* h = std::get_if<Hdf5Source>(&source.kind)) {
        DMLTOOL_ASSIGN_OR_RETURN(std::filesystem::path file, resolve_path(h->file, base_dir, options, path));
        auto tensor = read_hdf5_tensor(file, h->dataset, desc, Hdf5ReadOptions{options.allow_outside_paths});
        if (!tensor.is_ok()) return tensor.status().with_context(path);
        return tensor;
    }
    DMLTOOL_RETURN_IF_ERROR(check_inline_source(source, desc));
    if (const auto* v = std::get_if<ValuesSource>(&source.kind)) return fill_values(*v, desc);
    if (const auto* r = std::get_if<RandomSource>(&source.kind)) return fill_random(*r, desc);
    if (const auto* s = std::get_if<SequenceSource>(&source.kind)) return fill_sequence(*s, desc);
    HostTensor one = one_element_of(desc.data_type);
    DMLTOOL_RETURN_IF_ERROR(store_checked(one, 0, std::get<ConstantSource>(source.kind).value, path + "/constant"));
    return fill_constant(desc, one);
}

}  // namespace dmltool
