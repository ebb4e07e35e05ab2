// Turns a case's tensor source (hdf5, values, random, sequence, constant) into a logical HostTensor of the
// desc's type and shape. Generated sources are deterministic functions of (parameters, element index), which
// README documents so that other tools can reproduce them.
#pragma once

#include <filesystem>
#include <string_view>
#include <utility>

#include "core/case_spec.h"
#include "core/tensor.h"

namespace dmltool {

struct SourceOptions {
    // Case files may only read HDF5 files inside their own directory tree unless the user allows it.
    bool allow_outside_paths = false;
};

Result<HostTensor> materialize_source(const TensorSource& source, const TensorDesc& desc,
                                      const std::filesystem::path& base_dir, const SourceOptions& options);

// The checks materialize_source makes on an inline source (values, random, sequence, constant) without
// allocating the tensor: count, integrality and range for the desc's data type. Case loading runs them, so
// `dmltool validate` refuses such data too. HDF5 sources pass (their file is checked when read).
Status check_inline_source(const TensorSource& source, const TensorDesc& desc);

// Every check materialize_source makes, without reading or allocating the data: the inline checks above, and
// for HDF5 sources the file-access rule and the file's metadata (dataset, element type, shape).
Status check_source(const TensorSource& source, const TensorDesc& desc, const std::filesystem::path& base_dir,
                    const SourceOptions& options);

// The value of element `index` of a {"random": ...} source, before conversion to the data type: an integer
// in [min, max] for integer types, a double in [min, max) for float types.
double random_float_element(uint64_t seed, uint64_t index, double min, double max);
uint64_t random_bits(uint64_t seed, uint64_t index);  // SplitMix64 of seed + (index + 1) * golden gamma

// The seed of a {"random": ...} source that omits "seed": the 64-bit FNV-1a hash of the UTF-8 text
// "<case name>/<tensor slot>" (e.g. "perf/d2s/x/InputTensor", "s/OutputTensors[1]"): deterministic on every
// platform, distinct per case and per tensor, and unchanged when other cases are added or removed.
uint64_t derived_random_seed(std::string_view case_name, std::string_view slot);
// The [min, max] of a {"random": ...} source that omits them: [-1, 1] for float types; the full range for 8- and
// 16-bit integers; [-32768, 32767] for INT32/INT64 and [0, 65535] for UINT32/UINT64 (sums of many products stay
// far from overflow, and every value is exact in FLOAT32).
std::pair<ScalarValue, ScalarValue> default_random_range(DataType type);

}  // namespace dmltool
