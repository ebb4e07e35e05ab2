// Internal to ops/resample: the DXBC generator of the resample kernels. One Emitter emits one KernelConfig's
// program; its members are defined in emitter.cpp (setup, addressing, the row, flat-word and element paths),
// emit_window.cpp (the row path with a window, and its short-weight variant) and blend.cpp (the blend
// arithmetic). kernel.cpp's build_resample_kernel is the entry point.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ops/resample/kernel.h"
#include "ops/resample/kernel_internal.h"
#include "shaders/elements.h"
#include "shaders/kernels.h"

namespace dmltool::ops::resample {

using shaders::Extend;
using shaders::imm;
using shaders::imm_f;
using shaders::Operand;
using shaders::ProgramBuilder;
using shaders::Resource;
using shaders::TensorViews;
using shaders::UintArray;

inline uint32_t log2_of(uint32_t power_of_two) { return uint32_t(std::countr_zero(power_of_two)); }

// One dimension's contribution to the source address of one output coordinate.
struct Term {
    DimKind kind = DimKind::kIdentity;
    Operand offset;  // identity / gather: element offset (scalar)
    Operand tap;     // blend: x = x0 * stride, y = x1 * stride, z = w0, w = w1
};

// A blended (or loaded) value as a float32 scalar.
struct Value {
    Operand hi;
};

class Emitter {
public:
    Emitter(ProgramBuilder& b, const KernelConfig& config);
    void emit();

private:
    Operand rc(uint32_t index) { return b_.root_constant(index); }

    // emitter.cpp: addressing, corner loads, packing.
    Term dim_term(uint32_t d, Operand coord);
    Operand fold_offsets(Operand base, const std::vector<const Term*>& terms, std::vector<const Term*>& blends);
    Value load_corner(Operand source);
    Value corners(const std::vector<const Term*>& blends, size_t k, Operand base);
    Operand element_bits(Operand base, const std::vector<const Term*>& blends);
    void pack(Operand words, uint32_t lane, Operand bits);
    Operand word_operand(Operand words, uint32_t count);

    // emitter.cpp: the row path (RowStart and begin_row also serve the windowed variants).

    // What both row variants start with: the row and group a thread owns, the outer dimensions folded into one
    // input base (blended ones kept apart), and the output row offset. Not copyable: outer_blends points into
    // outer.
    struct RowStart {
        RowStart() = default;
        RowStart(const RowStart&) = delete;
        RowStart(RowStart&&) = default;
        Operand row_group;  // x row, y group (chunk) within the row
        std::vector<Term> outer;
        std::vector<const Term*> outer_blends;
        Operand outer_base;
        Operand out_row;
    };
    RowStart begin_row(Operand thread);
    void emit_rows(Operand thread);

    // emit_window.cpp: the row path with a window, and its short-weight variant.
    Operand window_element(Operand window, Operand k);
    Operand selector(Operand entry_lo, Operand entry_hi, uint32_t lane, uint32_t which);
    Value window_value(Operand window, Operand k);
    void row_bases(const std::vector<const Term*>& blends, size_t k, Operand base, std::vector<Operand>& out);
    Value window_corners(const std::vector<const Term*>& blends, size_t k, uint32_t index,
                         const std::vector<Operand>& windows, Operand k0, Operand k1, const Term* last);
    Operand short_field(Operand entry_lo, Operand entry_hi, uint32_t lane, uint32_t which);
    void load_chunk_entry(const RowStart& row, Operand entry_lo, Operand entry_hi);
    std::vector<Operand> load_row_windows(const RowStart& row, Operand entry_lo);
    void emit_rows_window_short(Operand thread);
    void emit_rows_window(Operand thread);

    // blend.cpp: the blend arithmetic (the separable float32 blend, rounding and conversion).
    Value blend(const Value& a, const Value& c, const Term& term);
    Operand finish(const Value& v, bool clamp = true);

    // emitter.cpp: the flat-word and element paths.
    Operand element_source(Operand element, std::vector<Term>& terms, std::vector<const Term*>& blends,
                           std::vector<Operand>& coords);
    void emit_flat_words(Operand thread);
    void emit_elements(Operand thread);

    ProgramBuilder& b_;
    const KernelConfig& config_;
    uint32_t esize_;
    TensorViews input_;
    TensorViews output_;
    Resource table_;
    bool uses_table_ = false;
    UintArray sizes_;
    UintArray out_strides_;
    UintArray in_strides_;
};

}  // namespace dmltool::ops::resample
