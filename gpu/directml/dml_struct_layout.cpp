#include "gpu/directml/dml_struct_layout.h"

#include <algorithm>
#include <cstdint>

namespace dmltool::gpu::dml {

namespace {

size_t round_up(size_t value, size_t alignment) { return (value + alignment - 1) / alignment * alignment; }

}  // namespace

DmlMemberLayout member_layout(DmlField::Kind kind) {
    using Kind = DmlField::Kind;
    constexpr size_t kPointer = sizeof(void*);
    switch (kind) {
        case Kind::kInputTensor:
        case Kind::kOutputTensor:
        case Kind::kInputTensorArray:
        case Kind::kOutputTensorArray:
        case Kind::kUintArray:
        case Kind::kIntArray:
        case Kind::kFloatArray:
        case Kind::kScaleBias:
        case Kind::kOperatorDesc: return {0, kPointer, alignof(void*)};
        case Kind::kUint:
        case Kind::kInt:
        case Kind::kFloat:
        case Kind::kBool: return {0, 4, 4};
        case Kind::kUint64: return {0, 8, alignof(uint64_t)};
        case Kind::kSize2D: return {0, 8, 4};  // two UINTs
        // A union of 1- to 8-byte members, UINT64 and DOUBLE among them: 8 bytes, 8-aligned.
        case Kind::kScalarUnion: return {0, 8, 8};
    }
    return {0, 0, 1};
}

DmlStructLayout struct_layout(const DmlDesc& desc) {
    DmlStructLayout layout;
    size_t offset = 0;
    for (const DmlField& field : desc.fields) {
        DmlMemberLayout member = member_layout(field.kind);
        member.offset = round_up(offset, member.alignment);
        offset = member.offset + member.size;
        layout.alignment = std::max(layout.alignment, member.alignment);
        layout.members.push_back(member);
    }
    layout.size = round_up(offset, layout.alignment);
    return layout;
}

}  // namespace dmltool::gpu::dml
