#include "tools/pipeline_stats/spirv_interface.h"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>

namespace dmltool::pipeline_stats {
namespace {

// SPIR-V opcodes, decorations and enumerants the reader needs (SPIR-V specification, section 3).
constexpr uint32_t kMagic = 0x07230203;
enum Op : uint32_t {
    kOpEntryPoint = 15,
    kOpExecutionMode = 16,
    kOpTypeInt = 21,
    kOpTypeFloat = 22,
    kOpTypeVector = 23,
    kOpTypeMatrix = 24,
    kOpTypeImage = 25,
    kOpTypeSampler = 26,
    kOpTypeSampledImage = 27,
    kOpTypeArray = 28,
    kOpTypeRuntimeArray = 29,
    kOpTypeStruct = 30,
    kOpTypePointer = 32,
    kOpConstant = 43,
    kOpVariable = 59,
    kOpDecorate = 71,
    kOpMemberDecorate = 72,
};
enum Decoration : uint32_t {
    kBlock = 2,
    kBufferBlock = 3,
    kArrayStride = 6,
    kBinding = 33,
    kDescriptorSet = 34,
    kOffset = 35,
};
enum StorageClass : uint32_t {
    kUniformConstant = 0,
    kUniform = 2,
    kPushConstant = 9,
    kStorageBuffer = 12,
};
constexpr uint32_t kExecutionModeLocalSize = 17;
constexpr uint32_t kDimBuffer = 5;

// One type declaration: its opcode and operands (result id excluded).
struct TypeDecl {
    uint32_t opcode = 0;
    std::vector<uint32_t> operands;
};

class Reader {
public:
    explicit Reader(std::span<const uint32_t> words) : words_(words) {}

    Result<SpirvInterface> read() {
        if (words_.size() < 5 || words_[0] != kMagic)
            return invalid_input("SPIR-V: expected the magic number 0x07230203 in a header of 5 words, found " +
                                 std::to_string(words_.size()) + " words");
        std::vector<std::pair<uint32_t, uint32_t>> variables;  // (result id, storage class) of module variables
        for (size_t at = 5; at < words_.size();) {
            const uint32_t count = words_[at] >> 16, opcode = words_[at] & 0xffff;
            if (count == 0 || at + count > words_.size())
                return invalid_input("SPIR-V: truncated instruction (opcode " + std::to_string(opcode) + ", " +
                                     std::to_string(count) + " words) at word " + std::to_string(at));
            const std::span<const uint32_t> ops = words_.subspan(at + 1, count - 1);  // operands
            record(opcode, ops, variables);
            at += count;
        }
        SpirvInterface out;
        out.local_size = local_size_;
        for (const auto& [id, storage] : variables) {
            const auto pointer = types_.find(pointer_type_of_.at(id));
            if (pointer == types_.end() || pointer->second.opcode != kOpTypePointer ||
                pointer->second.operands.size() < 2)
                return invalid_input("SPIR-V: variable %" + std::to_string(id) + " has no pointer type");
            const uint32_t pointee = pointer->second.operands[1];
            if (storage == kPushConstant) {
                DMLTOOL_ASSIGN_OR_RETURN(uint32_t bytes, byte_size(pointee));
                out.push_constant_bytes = std::max(out.push_constant_bytes, bytes);
                continue;
            }
            if (storage != kUniformConstant && storage != kUniform && storage != kStorageBuffer) continue;
            const auto set = decoration(id, kDescriptorSet), binding = decoration(id, kBinding);
            if (!set || !binding)
                return invalid_input("SPIR-V: resource variable %" + std::to_string(id) +
                                     " lacks a DescriptorSet or Binding decoration");
            // A descriptor array (T[n]) is n descriptors of T's kind at one binding.
            uint32_t element = pointee, array_size = 1;
            if (type(element).opcode == kOpTypeArray) {
                DMLTOOL_ASSIGN_OR_RETURN(array_size, constant_value(type(element).operands.at(1)));
                element = type(element).operands.at(0);
            }
            DMLTOOL_ASSIGN_OR_RETURN(DescriptorKind kind, classify(id, storage, element));
            out.bindings.push_back({*set, *binding, kind, array_size});
        }
        std::sort(out.bindings.begin(), out.bindings.end(), [](const SpirvBinding& a, const SpirvBinding& b) {
            return std::pair{a.set, a.binding} < std::pair{b.set, b.binding};
        });
        return out;
    }

private:
    void record(uint32_t opcode, std::span<const uint32_t> ops, std::vector<std::pair<uint32_t, uint32_t>>& variables) {
        switch (opcode) {
            case kOpExecutionMode:  // entry, mode, literals...
                if (ops.size() >= 5 && ops[1] == kExecutionModeLocalSize) local_size_ = {ops[2], ops[3], ops[4]};
                break;
            case kOpDecorate:  // target, decoration, literal?
                if (ops.size() >= 2) decorations_[{ops[0], ops[1]}] = ops.size() >= 3 ? ops[2] : 0;
                break;
            case kOpMemberDecorate:  // struct, member, decoration, literal?
                if (ops.size() >= 4 && ops[2] == kOffset) member_offsets_[{ops[0], ops[1]}] = ops[3];
                break;
            case kOpConstant:  // result type, result id, value (low word first)
                if (ops.size() >= 3) constants_[ops[1]] = ops[2];
                break;
            case kOpVariable:  // result type, result id, storage class
                if (ops.size() >= 3) {
                    pointer_type_of_[ops[1]] = ops[0];
                    variables.emplace_back(ops[1], ops[2]);
                }
                break;
            default:
                // Every OpType* has its result id first.
                if (opcode >= kOpTypeInt && opcode <= kOpTypePointer && !ops.empty())
                    types_[ops[0]] = {opcode, std::vector<uint32_t>(ops.begin() + 1, ops.end())};
                break;
        }
    }

    const TypeDecl& type(uint32_t id) const {
        static const TypeDecl kUnknown;
        const auto found = types_.find(id);
        return found == types_.end() ? kUnknown : found->second;
    }
    std::optional<uint32_t> decoration(uint32_t id, uint32_t which) const {
        const auto found = decorations_.find({id, which});
        return found == decorations_.end() ? std::nullopt : std::optional(found->second);
    }
    Result<uint32_t> constant_value(uint32_t id) const {
        const auto found = constants_.find(id);
        if (found == constants_.end())
            return invalid_input("SPIR-V: array length %" + std::to_string(id) + " is not an OpConstant");
        return found->second;
    }

    // The descriptor kind of a resource variable whose (array element) type is `element`.
    Result<DescriptorKind> classify(uint32_t variable, uint32_t storage, uint32_t element) const {
        const TypeDecl& t = type(element);
        if (storage == kStorageBuffer) return DescriptorKind::kStorageBuffer;
        if (storage == kUniform) {
            // SPIR-V 1.0 marks storage buffers as Uniform + BufferBlock; a Block struct is a uniform buffer.
            if (decoration(element, kBufferBlock)) return DescriptorKind::kStorageBuffer;
            if (decoration(element, kBlock)) return DescriptorKind::kUniformBuffer;
        } else if (t.opcode == kOpTypeImage && t.operands.size() >= 6) {
            // OpTypeImage operands: sampled type, Dim, Depth, Arrayed, MS, Sampled (1: with a sampler, 2: storage).
            const bool buffer = t.operands[1] == kDimBuffer, storage_image = t.operands[5] == 2;
            if (buffer)
                return storage_image ? DescriptorKind::kStorageTexelBuffer : DescriptorKind::kUniformTexelBuffer;
            return storage_image ? DescriptorKind::kStorageImage : DescriptorKind::kSampledImage;
        } else if (t.opcode == kOpTypeSampler) {
            return DescriptorKind::kSampler;
        } else if (t.opcode == kOpTypeSampledImage) {
            return DescriptorKind::kCombinedImageSampler;
        }
        return invalid_input("SPIR-V: cannot tell the descriptor type of variable %" + std::to_string(variable) +
                             " (storage class " + std::to_string(storage) + ", type opcode " +
                             std::to_string(t.opcode) + ")");
    }

    // Bytes a push-constant type occupies: scalars and vectors by width, arrays by ArrayStride (or element size),
    // structs up to their last member's end (Offset decorations).
    Result<uint32_t> byte_size(uint32_t id, int depth = 0) const {
        if (depth > 16) return invalid_input("SPIR-V: push-constant type nesting too deep");
        const TypeDecl& t = type(id);
        switch (t.opcode) {
            case kOpTypeInt:
            case kOpTypeFloat: return t.operands.at(0) / 8;
            case kOpTypeVector:
            case kOpTypeMatrix: {
                DMLTOOL_ASSIGN_OR_RETURN(uint32_t element, byte_size(t.operands.at(0), depth + 1));
                return element * t.operands.at(1);
            }
            case kOpTypeArray: {
                DMLTOOL_ASSIGN_OR_RETURN(uint32_t length, constant_value(t.operands.at(1)));
                std::optional<uint32_t> stride = decoration(id, kArrayStride);
                if (!stride) {
                    DMLTOOL_ASSIGN_OR_RETURN(uint32_t element, byte_size(t.operands.at(0), depth + 1));
                    stride = element;
                }
                return length * *stride;
            }
            case kOpTypeStruct: {
                uint32_t end = 0, offset = 0;
                for (uint32_t member = 0; member < t.operands.size(); ++member) {
                    const auto given = member_offsets_.find({id, member});
                    offset = given == member_offsets_.end() ? offset : given->second;
                    DMLTOOL_ASSIGN_OR_RETURN(uint32_t size, byte_size(t.operands[member], depth + 1));
                    offset += size;
                    end = std::max(end, offset);
                }
                return end;
            }
            default:
                return invalid_input("SPIR-V: cannot size push-constant type %" + std::to_string(id) + " (opcode " +
                                     std::to_string(t.opcode) + ")");
        }
    }

    std::span<const uint32_t> words_;
    std::map<uint32_t, TypeDecl> types_;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> decorations_;     // (id, decoration) -> first literal
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> member_offsets_;  // (struct, member) -> Offset
    std::map<uint32_t, uint32_t> constants_;                            // id -> low 32 bits
    std::map<uint32_t, uint32_t> pointer_type_of_;                      // variable id -> its pointer type
    std::array<uint32_t, 3> local_size_{0, 0, 0};
};

}  // namespace

std::string_view descriptor_kind_name(DescriptorKind kind) {
    switch (kind) {
        case DescriptorKind::kUniformBuffer: return "uniform_buffer";
        case DescriptorKind::kStorageBuffer: return "storage_buffer";
        case DescriptorKind::kUniformTexelBuffer: return "uniform_texel_buffer";
        case DescriptorKind::kStorageTexelBuffer: return "storage_texel_buffer";
        case DescriptorKind::kSampledImage: return "sampled_image";
        case DescriptorKind::kStorageImage: return "storage_image";
        case DescriptorKind::kSampler: return "sampler";
        case DescriptorKind::kCombinedImageSampler: return "combined_image_sampler";
    }
    return "unknown";
}

Result<SpirvInterface> read_spirv_interface(std::span<const uint32_t> words) {
    try {
        return Reader(words).read();
    } catch (const std::out_of_range&) {  // a type declaration with fewer operands than its opcode has
        return invalid_input("SPIR-V: a type declaration lacks operands its opcode requires");
    }
}

}  // namespace dmltool::pipeline_stats
