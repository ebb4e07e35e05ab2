// Shared by the two CPU reference files of RESAMPLE: reference.cpp (nearest, the per-element LINEAR form with
// the error-bound data, the entry point) and linear_rows.cpp (the timed LINEAR form).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/thread_pool.h"
#include "ops/resample/coordinates.h"
#include "ops/resample/desc.h"

namespace dmltool::ops::resample {

// The output as rows along the last dimension: row r's leading coordinates (all but the last), unravelled.
inline void leading_coordinates(uint64_t row, const Dims& out_sizes, uint32_t* coord) {
    for (uint32_t d = out_sizes.size() - 1; d-- > 0;) {
        coord[d] = uint32_t(row % out_sizes[d]);
        row /= out_sizes[d];
    }
}

// The vector instruction sets the LINEAR row form's loops are compiled for (linear_rows.cpp). Every level runs the
// same IEEE double operations in the same order (the build has -ffp-contract=off), so all give the same bits; the
// tests run each level this CPU has against the per-element form.
enum class SimdLevel { kBaseline, kAvx2, kAvx512 };
// The widest level this CPU runs: AVX-512 needs F, VL, BW and DQ.
SimdLevel cpu_simd_level();

// Whether the row form converts FLOAT16 inputs with F16C at AVX2 and above: where the CPU has it and it gives
// every half's value (checked once against the table; otherwise the table converts).
bool halves_convert_by_f16c();

// linear_tap of every output index, per dimension: the LINEAR forms' column and leading-dimension taps.
std::vector<std::vector<LinearTap>> linear_taps(const ResampleDesc& desc);

// Rounds the double blends sums[0, count) once to `type` (FLOAT32, FLOAT16: to nearest even; INT8, UINT8: clamped
// to the type's range, rounded to a multiple of 2^-10, then truncated toward zero) into output elements
// [first, first + count).
void store_blend(DataType type, std::byte* output, uint64_t first, const double* sums, uint64_t count);

// RESAMPLE LINEAR without the error-bound data: every output element's corners summed in double in the documented
// order (see linear_rows.cpp), then store_blend. `taps` holds linear_tap of every output index, per dimension;
// the output is not empty. `level`: the loops' instruction set (at most cpu_simd_level()).
void run_linear_rows(const ResampleDesc& desc, const std::vector<std::vector<LinearTap>>& taps,
                     const HostTensor& input, HostTensor& output, ThreadPool& pool,
                     SimdLevel level = cpu_simd_level());

}  // namespace dmltool::ops::resample
