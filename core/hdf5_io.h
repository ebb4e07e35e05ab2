// HDF5 datasets <-> logical HostTensors. Reading checks the element type and shape against the tensor desc
// before reading a byte; float16 datasets are IEEE binary16 as h5py/numpy write them.
#pragma once

#include <filesystem>
#include <string>

#include "core/status.h"
#include "core/tensor.h"

namespace dmltool {

// The dataset's shape must equal desc.sizes, or be 1-D with the same element count. Errors are kIo (file
// missing or unreadable) or kInvalidInput (wrong dataset, type or shape), naming the file and dataset.
struct Hdf5ReadOptions {
    // An HDF5 file can send a read to other files: external links, external raw-data files and virtual
    // datasets. They are refused unless the user lets case files read outside their tree (--allow-outside-paths).
    bool allow_other_files = false;
};

Result<HostTensor> read_hdf5_tensor(const std::filesystem::path& file, const std::string& dataset,
                                    const TensorDesc& desc, const Hdf5ReadOptions& options = {});

// The same checks (file, HDF5, dataset, element type, shape, other-file references) without reading the data:
// for `dmltool validate`.
Status check_hdf5_tensor(const std::filesystem::path& file, const std::string& dataset, const TensorDesc& desc,
                         const Hdf5ReadOptions& options = {});

// Writes (creating the file if needed, replacing an existing dataset) a logical tensor with its Sizes as shape.
// Intermediate groups of `dataset` are created.
Status write_hdf5_tensor(const std::filesystem::path& file, const std::string& dataset, const HostTensor& tensor);

}  // namespace dmltool
