#include "core/hdf5_io.h"

#include <hdf5.h>

#include <vector>

namespace dmltool {
namespace {

// One HDF5 handle, closed by the matching H5?close when it leaves scope.
class H5Handle {
public:
    H5Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
    ~H5Handle() {
        if (id_ >= 0) close_(id_);
    }
    H5Handle(const H5Handle&) = delete;
    H5Handle& operator=(const H5Handle&) = delete;
    hid_t get() const { return id_; }
    bool valid() const { return id_ >= 0; }

private:
    hid_t id_;
    herr_t (*close_)(hid_t);
};

// HDF5 prints its own error stack to stderr by default; our messages say it better, on one line.
void silence_hdf5_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

// A little-endian IEEE binary16 type (h5py writes numpy float16 this way).
hid_t make_half_type() {
    hid_t t = H5Tcopy(H5T_IEEE_F32LE);
    H5Tset_fields(t, 15, 10, 5, 0, 10);
    H5Tset_precision(t, 16);
    H5Tset_size(t, 2);
    H5Tset_ebias(t, 15);
    return t;
}

// The in-memory HDF5 type for a DataType; the caller closes it.
hid_t memory_type(DataType type) {
    switch (type) {
        case DataType::kFloat32: return H5Tcopy(H5T_NATIVE_FLOAT);
        case DataType::kFloat64: return H5Tcopy(H5T_NATIVE_DOUBLE);
        case DataType::kFloat16: return make_half_type();
        case DataType::kInt8: return H5Tcopy(H5T_NATIVE_INT8);
        case DataType::kInt16: return H5Tcopy(H5T_NATIVE_INT16);
        case DataType::kInt32: return H5Tcopy(H5T_NATIVE_INT32);
        case DataType::kInt64: return H5Tcopy(H5T_NATIVE_INT64);
        case DataType::kUint8: return H5Tcopy(H5T_NATIVE_UINT8);
        case DataType::kUint16: return H5Tcopy(H5T_NATIVE_UINT16);
        case DataType::kUint32: return H5Tcopy(H5T_NATIVE_UINT32);
        case DataType::kUint64: return H5Tcopy(H5T_NATIVE_UINT64);
        default: return -1;
    }
}

// Which DataType a dataset's file type holds, or a description of what it is instead.
std::string describe_file_type(hid_t type, DataType* matched) {
    *matched = DataType::kUnknown;
    const H5T_class_t cls = H5Tget_class(type);
    const size_t size = H5Tget_size(type);
    if (cls == H5T_INTEGER) {
        const bool is_signed = H5Tget_sign(type) == H5T_SGN_2;
        const DataType candidates[][2] = {{DataType::kUint8, DataType::kInt8}, {DataType::kUint16, DataType::kInt16},
                                          {DataType::kUint32, DataType::kInt32}, {DataType::kUint64, DataType::kInt64}};
        for (const auto& pair : candidates)
            if (element_size(pair[0]) == size) *matched = pair[is_signed ? 1 : 0];
        return std::string(is_signed ? "int" : "uint") + std::to_string(size * 8);
    }
    if (cls == H5T_FLOAT) {
        if (size == 4) *matched = DataType::kFloat32;
        if (size == 8) *matched = DataType::kFloat64;
        if (size == 2) {
            size_t spos, epos, esize, mpos, msize;
            H5Tget_fields(type, &spos, &epos, &esize, &mpos, &msize);
            if (spos == 15 && epos == 10 && esize == 5 && mpos == 0 && msize == 10 && H5Tget_ebias(type) == 15)
                *matched = DataType::kFloat16;
            else
                return "a 16-bit float that is not IEEE binary16";
        }
        return "float" + std::to_string(size * 8);
    }
    switch (cls) {
        case H5T_STRING: return "strings";
        case H5T_COMPOUND: return "a compound type";
        case H5T_ENUM: return "an enum (e.g. numpy bool)";
        case H5T_BITFIELD: return "a bitfield";
        default: return "an unsupported HDF5 type class";
    }
}

// HDF5's C API takes narrow file names. On Windows it reads them as UTF-8 (and opens through the wide API);
// path::c_str() is wide there, so pass the UTF-8 form explicitly. Elsewhere the native form is already narrow.
std::string hdf5_file_name(const std::filesystem::path& file) {
#if defined(_WIN32)
    const std::u8string utf8 = file.u8string();
    return std::string(utf8.begin(), utf8.end());
#else
    return file.native();
#endif
}

constexpr const char* kAllowHint = " (pass --allow-outside-paths to permit it)";

std::string shape_text(const std::vector<hsize_t>& dims) {
    std::string out = "{";
    for (size_t i = 0; i < dims.size(); ++i) out += (i ? "," : "") + std::to_string(dims[i]);
    return out + "}";
}

}  // namespace

namespace {

// Every check of read_hdf5_tensor; the data itself is read only when `read` is set (else an empty tensor).
Result<HostTensor> open_hdf5_tensor(const std::filesystem::path& file, const std::string& dataset,
                                    const TensorDesc& desc, const Hdf5ReadOptions& options, bool read) {
    silence_hdf5_errors();
    // generic_string: "/" separators on every platform, so messages read the same on Windows (no "h5\\x.h5").
    const std::string where = "HDF5 file '" + file.generic_string() + "'";
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) return io_error(where + ": no such file");
    if (std::filesystem::is_directory(file, ec)) return io_error(where + ": expected a file, found a directory");
    const std::string name = hdf5_file_name(file);
    if (H5Fis_hdf5(name.c_str()) <= 0) return io_error(where + ": not an HDF5 file (corrupt or another format)");
    H5Handle f(H5Fopen(name.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!f.valid()) return io_error(where + ": cannot be opened (corrupt or unreadable)");
    const std::string what = where + ", dataset '" + dataset + "'";
    // H5Lexists must be asked for each component: it fails on a missing intermediate group.
    std::string partial;
    for (size_t start = dataset.front() == '/' ? 1 : 0; start <= dataset.size();) {
        const size_t slash = std::min(dataset.find('/', start), dataset.size());
        partial += "/" + dataset.substr(start, slash - start);
        if (H5Lexists(f.get(), partial.c_str(), H5P_DEFAULT) <= 0)
            return invalid_input(what + ": no such dataset (missing '" + partial + "')");
        H5L_info_t link;
        if (!options.allow_other_files && H5Lget_info(f.get(), partial.c_str(), &link, H5P_DEFAULT) >= 0 &&
            link.type == H5L_TYPE_EXTERNAL)
            return invalid_input(what + ": expected data inside this file, found an external link at '" + partial +
                                 "' to another file" + kAllowHint);
        start = slash + 1;
    }
    if (H5Oexists_by_name(f.get(), dataset.c_str(), H5P_DEFAULT) <= 0)
        return invalid_input(what + ": no such dataset (a link to nothing)");
    H5O_info_t object;
    if (H5Oget_info_by_name(f.get(), dataset.c_str(), &object, H5P_DEFAULT) < 0)
        return invalid_input(what + ": unreadable object header (corrupt file?)");
    if (object.type != H5O_TYPE_DATASET)
        return invalid_input(what + ": expected a dataset, found " +
                             (object.type == H5O_TYPE_GROUP ? "a group" : "another kind of HDF5 object"));
    H5Handle d(H5Dopen2(f.get(), dataset.c_str(), H5P_DEFAULT), H5Dclose);
    if (!d.valid()) return invalid_input(what + ": cannot open the dataset (corrupt file?)");
    if (!options.allow_other_files) {
        H5Handle create_props(H5Dget_create_plist(d.get()), H5Pclose);
        if (create_props.valid() && H5Pget_external_count(create_props.get()) > 0)
            return invalid_input(what + ": expected data inside this file, found raw data stored in external files" +
                                 kAllowHint);
        if (create_props.valid() && H5Pget_layout(create_props.get()) == H5D_VIRTUAL)
            return invalid_input(what + ": expected data inside this file, found a virtual dataset (its data lives "
                                 "in other files)" + kAllowHint);
    }
    H5Handle file_type(H5Dget_type(d.get()), H5Tclose);
    DataType stored;
    const std::string stored_text = describe_file_type(file_type.get(), &stored);
    if (stored != desc.data_type)
        return invalid_input(what + ": expected " + std::string(data_type_name(desc.data_type)) +
                             " elements (the tensor's DataType), found " + stored_text);
    H5Handle space(H5Dget_space(d.get()), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank < 0) return invalid_input(what + ": unreadable dataspace");
    std::vector<hsize_t> dims(size_t(rank), 0);
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    const uint64_t count = desc.element_count();
    bool shape_ok = false;
    if (dims.size() == desc.sizes.size()) {
        shape_ok = true;
        for (size_t i = 0; i < dims.size(); ++i) shape_ok = shape_ok && dims[i] == desc.sizes[i];
    }
    if (!shape_ok && dims.size() == 1 && dims[0] == count) shape_ok = true;
    if (!shape_ok && rank == 0 && count == 1) shape_ok = true;  // a scalar for a one-element tensor
    if (!shape_ok)
        return invalid_input(what + ": expected shape " + format_dims(desc.sizes) + " (or 1-D with " +
                             std::to_string(count) + " elements), found " + shape_text(dims));
    if (!read) return HostTensor();
    HostTensor tensor(desc);
    H5Handle mem_type(memory_type(desc.data_type), H5Tclose);
    if (H5Dread(d.get(), mem_type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, tensor.bytes().data()) < 0)
        return io_error(what + ": read failed (corrupt data?)");
    return tensor;
}

}  // namespace

Result<HostTensor> read_hdf5_tensor(const std::filesystem::path& file, const std::string& dataset,
                                    const TensorDesc& desc, const Hdf5ReadOptions& options) {
    return open_hdf5_tensor(file, dataset, desc, options, true);
}

Status check_hdf5_tensor(const std::filesystem::path& file, const std::string& dataset, const TensorDesc& desc,
                         const Hdf5ReadOptions& options) {
    return open_hdf5_tensor(file, dataset, desc, options, false).status();
}

Status write_hdf5_tensor(const std::filesystem::path& file, const std::string& dataset, const HostTensor& tensor) {
    silence_hdf5_errors();
    const std::string where = "HDF5 file '" + file.generic_string() + "'";
    std::error_code ec;
    const bool exists = std::filesystem::exists(file, ec);
    const std::string name = hdf5_file_name(file);
    H5Handle f(exists ? H5Fopen(name.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)
                      : H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
               H5Fclose);
    if (!f.valid()) return io_error(where + ": cannot be " + (exists ? "opened for writing" : "created"));
    H5Handle link_props(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
    H5Pset_create_intermediate_group(link_props.get(), 1);
    if (H5Lexists(f.get(), dataset.c_str(), H5P_DEFAULT) > 0) H5Ldelete(f.get(), dataset.c_str(), H5P_DEFAULT);
    std::vector<hsize_t> dims(tensor.desc().sizes.begin(), tensor.desc().sizes.end());
    H5Handle space(H5Screate_simple(int(dims.size()), dims.data(), nullptr), H5Sclose);
    H5Handle type(memory_type(tensor.data_type()), H5Tclose);
    H5Handle d(H5Dcreate2(f.get(), dataset.c_str(), type.get(), space.get(), link_props.get(), H5P_DEFAULT, H5P_DEFAULT),
               H5Dclose);
    if (!d.valid()) return io_error(where + ": cannot create dataset '" + dataset + "'");
    if (H5Dwrite(d.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, tensor.bytes().data()) < 0)
        return io_error(where + ": cannot write dataset '" + dataset + "'");
    return Status::ok();
}

}  // namespace dmltool
