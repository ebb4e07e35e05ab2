// Where each member of a DML_*_OPERATOR_DESC lies in memory, from core/dml_desc.h's field list: the rules of a C
// struct on 64-bit Windows, which DirectML.dll was compiled with: each member at the next multiple of its
// alignment (its natural one: pointers 8 bytes, UINT/INT/FLOAT/BOOL/enums 4, UINT64 and DML_SCALAR_UNION 8,
// DML_SIZE_2D two UINTs), the struct's size rounded up to its largest member alignment. Pointers are this
// process's, so the layout is the one DirectML reads only in a 64-bit process (the only kind dmltool builds for
// Windows). Checked against the compiler's own layout of dml_api.h's structs (tests/dml_struct_layout_test.cpp).
#pragma once

#include <cstddef>
#include <vector>

#include "core/dml_desc.h"

namespace dmltool::gpu::dml {

struct DmlMemberLayout {
    size_t offset = 0;
    size_t size = 0;
    size_t alignment = 1;
};

struct DmlStructLayout {
    std::vector<DmlMemberLayout> members;  // one per DmlDesc field, in order
    size_t size = 0;
    size_t alignment = 1;
};

// Size and alignment of one member of this kind.
DmlMemberLayout member_layout(DmlField::Kind kind);

DmlStructLayout struct_layout(const DmlDesc& desc);

}  // namespace dmltool::gpu::dml
