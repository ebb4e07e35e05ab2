// RESAMPLE's dedicated path for linear half-pixel upsampling of H and W by exactly 2 on packed FLOAT32 NCHW
// (F.interpolate(mode="bilinear", align_corners=False) x2). The short-weight row kernel (emit_window.cpp) is
// ALU-bound: per output it splits 4 values and forms 4 compensated products before its Sum2. At x2 every
// interior 2x4 output block reads one 2x4 input window, and its 32 corner products are only 20 distinct
// (value, weight) pairs (an input column feeds up to 3 output columns, an input row 2 output rows), with 8
// distinct values to split. This path computes each pair once, then runs exactly the same per-output
// sequence as blend.cpp's short_sum + finish (same operations, same order, same opaque() guards), so the
// results are bit-identical to the row kernel's. Border outputs (first/last output row, first/last 4 output
// columns: clamped taps) go through a second, per-output kernel with the same arithmetic.
//
// The taps are not assumed: plan_linear_x2 checks every one against coordinates.h's linear_tap.
#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>
#include <vector>

#include "ops/resample/coordinates.h"
#include "ops/resample/kernel_internal.h"

namespace dmltool::ops::resample {
namespace {

using shaders::imm;
using shaders::imm_f;
using shaders::Operand;
using shaders::ProgramBuilder;
using shaders::Resource;
using shaders::TensorViews;

constexpr uint32_t kX2Threads = 0;
constexpr uint32_t kX2ThreadsPerRow = 1;
constexpr uint32_t kX2Zero = 2;          // always 0 (opaque guards, as kRuntimeZero)
constexpr uint32_t kX2InH = 3;
constexpr uint32_t kX2InW = 4;
constexpr uint32_t kX2Blocks = 5;        // interior: blocks per plane row (W / 2 - 2); border: outputs per plane
constexpr uint32_t kX2BlockRows = 6;     // interior: H - 1
constexpr uint32_t kX2ConstantCount = 8;

// The tap of output index o for x2 half-pixel upsampling of n_in (>= 2) elements, in closed form.
LinearTap x2_tap(uint32_t o, uint32_t n_in) {
    LinearTap tap;
    if (o == 0) {
        tap.x1 = 1;
        return tap;  // x0 0, w0 1, w1 0
    }
    tap.x0 = (o - 1) / 2;
    tap.x1 = std::min(tap.x0 + 1, n_in - 1);
    // The last output's coordinate n - 0.75 is clamped to n - 1 (coordinates.h): weight 0 on the clamped x1.
    tap.w1 = o == 2 * n_in - 1 ? 0.0f : o % 2 == 1 ? 0.25f : 0.75f;
    tap.w0 = 1.0f - tap.w1;
    return tap;
}

bool same_tap(const LinearTap& a, const LinearTap& b) {
    return a.x0 == b.x0 && a.x1 == b.x1 && std::bit_cast<uint32_t>(a.w0) == std::bit_cast<uint32_t>(b.w0) &&
           std::bit_cast<uint32_t>(a.w1) == std::bit_cast<uint32_t>(b.w1);
}

bool is_identity_dim(const ResampleDesc& desc, uint32_t d) {
    const uint32_t n = desc.input.sizes[d];
    if (desc.output.sizes[d] != n) return false;
    const float inv = inverse_scale(desc.scales[d]);
    for (uint32_t o = 0; o < n; ++o) {
        const LinearTap t = linear_tap(o, n, inv);
        if (t.x0 != o || t.w0 != 1.0f || t.w1 != 0.0f) return false;
    }
    return true;
}

bool is_x2_dim(const ResampleDesc& desc, uint32_t d) {
    const uint32_t n = desc.input.sizes[d];
    if (n < 2 || uint64_t(desc.output.sizes[d]) != uint64_t(n) * 2) return false;
    const float inv = inverse_scale(desc.scales[d]);
    for (uint32_t o = 0; o < 2 * n; ++o)
        if (!same_tap(linear_tap(o, n, inv), x2_tap(o, n))) return false;
    return true;
}

bool is_packed(const TensorDesc& tensor) {
    const Dims strides = tensor.effective_strides();
    uint64_t expected = 1;
    for (uint32_t d = tensor.rank(); d-- > 0;) {
        if (strides[d] != expected) return false;
        expected *= tensor.sizes[d];
    }
    return true;
}

// The compensated arithmetic of blend.cpp's short_sum/finish for FLOAT32, as free functions.
struct Product {
    Operand p, e;  // p = fl(v * W), e = v * W - p exactly
};

class X2Arithmetic {
public:
    explicit X2Arithmetic(ProgramBuilder& b) : b_(b) {}

    void opaque(Operand d) { b_.or_(d, d, b_.root_constant(kX2Zero)); }

    Operand split(Operand v) {  // x: top 12 significant bits, y: the rest
        Operand s = b_.temp();
        b_.and_(s.x(), v, imm(kSplitMask));
        b_.sub(s.y(), v, s.x());
        return s;
    }

    Product product(Operand v, Operand s, Operand w) {
        Operand t = b_.temp();
        shaders::unfused_mul(b_, t.x(), v, w, b_.root_constant(kX2Zero));
        b_.mad(t.y(), s.x(), w, -t.x());
        opaque(t.y());
        b_.mad(t.y(), s.y(), w, t.y());
        return {t.x(), t.y()};
    }

    // Sum2 of four products in corner order, rounded to float32 (inf/NaN: the plain sum).
    Operand sum4(const Product* const* products) {
        Operand hi = products[0]->p, lo = products[0]->e;
        for (int i = 1; i < 4; ++i) {
            Operand r = b_.temp();
            emit_two_sum(b_, b_.root_constant(kX2Zero), hi, products[i]->p, r.x(), r.y());
            b_.add(r.y(), r.y(), lo);
            b_.add(r.y(), r.y(), products[i]->e);
            hi = r.x();
            lo = r.y();
        }
        Operand f = b_.temp();
        b_.add(f.x(), hi, lo);
        b_.and_(f.y(), hi, imm(0x7fffffffu));
        b_.ult(f.y(), f.y(), imm(0x7f800000u));
        b_.movc(f.x(), f.y(), f.x(), hi);
        return f.x();
    }

private:
    ProgramBuilder& b_;
};

// Interior blocks: input rows i, i + 1 (i = 0 .. H - 2) -> output rows 2i + 1, 2i + 2; input columns
// 2g - 1 .. 2g + 2 (g = 1 .. W/2 - 2) -> output columns 4g .. 4g + 3 (one 16-byte store per row).
Result<std::vector<uint8_t>> build_interior_kernel() {
    ProgramBuilder b({.thread_group = {kThreadsPerGroup, 1, 1}});
    const Resource input = b.srv_raw(0);
    const TensorViews output = TensorViews::single(b.uav_typed_uint4(0));
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    X2Arithmetic math(b);

    Operand thread = shaders::linear_thread_index(b, rc(kX2ThreadsPerRow));
    Operand t = b.temp(), u = b.temp();
    b.ult(t.x(), thread, rc(kX2Threads));
    b.if_nz(t.x());
    b.udiv(t.y(), t.z(), thread, rc(kX2Blocks));   // t.y: plane * (H - 1) + i, t.z: g - 1
    b.udiv(t.w(), u.x(), t.y(), rc(kX2BlockRows)); // t.w: plane, u.x: i
    b.imul(u.y(), rc(kX2InH), rc(kX2InW));         // H * W
    b.imul(u.z(), t.w(), u.y());                   // plane base (input elements)
    b.imad(u.z(), u.x(), rc(kX2InW), u.z());       // + i * W
    b.imad(u.z(), t.z(), imm(2), u.z());
    b.iadd(u.z(), u.z(), imm(1));                  // + 2g - 1
    b.ishl(u.w(), u.z(), imm(2));
    Operand rows[2] = {b.temp(), b.temp()};
    b.ld_raw(rows[0].xyzw(), u.w(), input);
    b.imad(u.w(), rc(kX2InW), imm(4), u.w());
    b.ld_raw(rows[1].xyzw(), u.w(), input);

    Operand splits[2][4];
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 4; ++c) splits[r][c] = math.split(rows[r].component(c));
    // Tap (first column, its weight, second column's weight) of output lanes 0..3; rows likewise.
    struct ColumnTap {
        int c0;
        float w0, w1;
    };
    static constexpr ColumnTap kColumns[4] = {{0, 0.25f, 0.75f}, {1, 0.75f, 0.25f}, {1, 0.25f, 0.75f}, {2, 0.75f, 0.25f}};
    static constexpr float kRowWeights[2][2] = {{0.75f, 0.25f}, {0.25f, 0.75f}};
    std::map<std::tuple<int, int, uint32_t>, Product> products;
    auto product = [&](int r, int c, float w) -> const Product* {
        const auto key = std::make_tuple(r, c, std::bit_cast<uint32_t>(w));
        auto it = products.find(key);
        if (it == products.end())
            it = products.emplace(key, math.product(rows[r].component(c), splits[r][c], imm_f(w))).first;
        return &it->second;
    };
    // Output row 2i + 1 + r starts at ((plane * 2H + 2i + 1 + r) * 2W + 4g) elements.
    Operand out = b.temp();
    b.imul(out.x(), rc(kX2InH), imm(2));
    b.imul(out.x(), t.w(), out.x());
    b.imad(out.x(), u.x(), imm(2), out.x());  // plane * 2H + 2i
    b.iadd(out.x(), out.x(), imm(1));
    b.imul(out.y(), rc(kX2InW), imm(2));      // 2W
    b.imul(out.x(), out.x(), out.y());
    b.imad(out.x(), t.z(), imm(4), out.x());
    b.iadd(out.x(), out.x(), imm(4));
    b.ishl(out.x(), out.x(), imm(2));
    for (int r = 0; r < 2; ++r) {
        Operand words = b.temp();
        for (int lane = 0; lane < 4; ++lane) {
            const ColumnTap& col = kColumns[lane];
            const Product* corners[4] = {product(0, col.c0, kRowWeights[r][0] * col.w0),
                                         product(0, col.c0 + 1, kRowWeights[r][0] * col.w1),
                                         product(1, col.c0, kRowWeights[r][1] * col.w0),
                                         product(1, col.c0 + 1, kRowWeights[r][1] * col.w1)};
            b.mov(words.component(lane), math.sum4(corners));
        }
        if (r == 1) b.imad(out.x(), out.y(), imm(4), out.x());  // + 2W elements
        shaders::store_words(b, output, out.x(), words.xyzw());
    }
    b.endif();
    b.ret();
    return b.build_dxbc();
}

// Border outputs, one per thread: per plane the output rows 0 and 2H - 1 (2 * 2W elements), then output
// columns 0..3 and 2W - 4 .. 2W - 1 of rows 1 .. 2H - 2 (8 per row). Taps in closed form (x2_tap).
Result<std::vector<uint8_t>> build_border_kernel() {
    ProgramBuilder b({.thread_group = {kThreadsPerGroup, 1, 1}});
    const Resource input = b.srv_raw(0);
    const Resource output = b.uav_raw(0);
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    X2Arithmetic math(b);

    Operand thread = shaders::linear_thread_index(b, rc(kX2ThreadsPerRow));
    Operand t = b.temp(), u = b.temp(), v = b.temp();
    b.ult(t.x(), thread, rc(kX2Threads));
    b.if_nz(t.x());
    b.udiv(t.y(), t.z(), thread, rc(kX2Blocks));  // t.y: plane, t.z: border index e
    b.imul(u.x(), rc(kX2InW), imm(2));            // 2W
    b.imul(u.y(), rc(kX2InH), imm(2));            // 2H
    // Rows 0 / 2H - 1 (e < 4W).
    b.ult(v.x(), t.z(), u.x());                   // e < 2W: row 0
    b.isub(v.y(), t.z(), u.x());
    b.movc(v.y(), v.x(), t.z(), v.y());           // column
    b.iadd(v.z(), u.y(), imm(0xffffffffu));
    b.movc(v.z(), v.x(), imm(0), v.z());          // row
    // The strips (e >= 4W): e' = e - 4W, row 1 + e' / 8, column k < 4 ? k : 2W - 8 + k.
    Operand s = b.temp();
    b.imad(s.x(), u.x(), imm(0xfffffffeu), t.z()); // e - 4W
    b.ushr(s.y(), s.x(), imm(3));
    b.iadd(s.y(), s.y(), imm(1));
    b.and_(s.z(), s.x(), imm(7));
    b.iadd(s.w(), u.x(), imm(0xfffffff8u));
    b.iadd(s.w(), s.w(), s.z());
    b.ult(s.x(), s.z(), imm(4));
    b.movc(s.z(), s.x(), s.z(), s.w());
    b.imul(s.x(), u.x(), imm(2));
    b.ult(s.x(), t.z(), s.x());                   // in the full rows
    b.movc(v.y(), s.x(), v.y(), s.z());           // column
    b.movc(v.z(), s.x(), v.z(), s.y());           // row
    // Taps: x0, x1 (element offsets) and weights w0, w1 of an output index o over n inputs.
    struct Tap {
        Operand x0, x1, w0, w1;
    };
    auto tap = [&](Operand o, Operand n) {
        Operand q = b.temp(), w = b.temp();
        b.iadd(q.x(), o, imm(0xffffffffu));
        b.ushr(q.x(), q.x(), imm(1));
        b.ieq(q.w(), o, imm(0));
        b.movc(q.x(), q.w(), imm(0), q.x());      // x0
        b.iadd(q.y(), q.x(), imm(1));
        b.iadd(q.z(), n, imm(0xffffffffu));
        b.umin(q.y(), q.y(), q.z());              // x1
        b.and_(w.x(), o, imm(1));
        b.movc(w.y(), w.x(), imm_f(0.25f), imm_f(0.75f));
        b.movc(w.y(), q.w(), imm_f(0.0f), w.y());
        b.imad(q.z(), n, imm(2), imm(0xffffffffu));
        b.ieq(q.z(), o, q.z());                   // the last output (clamped coordinate)
        b.movc(w.y(), q.z(), imm_f(0.0f), w.y()); // w1
        b.sub(w.x(), imm_f(1.0f), w.y());         // w0 (exact)
        return Tap{q.x(), q.y(), w.x(), w.y()};
    };
    const Tap row = tap(v.z(), rc(kX2InH));
    const Tap col = tap(v.y(), rc(kX2InW));
    Operand a = b.temp();
    b.imul(a.x(), rc(kX2InH), rc(kX2InW));
    b.imul(a.x(), a.x(), t.y());                 // plane base
    Operand values = b.temp();
    const Operand row_x[2] = {row.x0, row.x1}, col_x[2] = {col.x0, col.x1};
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 2; ++c) {
            b.imad(a.y(), row_x[r], rc(kX2InW), a.x());
            b.iadd(a.y(), a.y(), col_x[c]);
            b.ishl(a.y(), a.y(), imm(2));
            b.ld_raw(values.component(2 * r + c), a.y(), input);
        }
    const Operand row_w[2] = {row.w0, row.w1}, col_w[2] = {col.w0, col.w1};
    Product products[4];
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 2; ++c) {
            Operand w = b.temp();
            b.mul(w.x(), row_w[r], col_w[c]);
            const Operand value = values.component(2 * r + c);
            products[2 * r + c] = math.product(value, math.split(value), w.x());
        }
    const Product* corners[4] = {&products[0], &products[1], &products[2], &products[3]};
    const Operand result = math.sum4(corners);
    b.imul(a.z(), u.y(), t.y());
    b.iadd(a.z(), a.z(), v.z());
    b.imad(a.z(), a.z(), u.x(), v.y());          // (plane * 2H + row) * 2W + column
    b.ishl(a.z(), a.z(), imm(2));
    b.store_raw(output, a.z(), result);
    b.endif();
    b.ret();
    return b.build_dxbc();
}

Result<std::shared_ptr<const std::vector<uint8_t>>> cached(bool interior) {
    static std::mutex mutex;
    static std::shared_ptr<const std::vector<uint8_t>> blobs[2];
    std::lock_guard<std::mutex> lock(mutex);
    if (!blobs[interior]) {
        DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint8_t> blob,
                                 interior ? build_interior_kernel() : build_border_kernel());
        blobs[interior] = std::make_shared<const std::vector<uint8_t>>(std::move(blob));
    }
    return blobs[interior];
}

}  // namespace

Result<std::optional<DevicePlan>> plan_linear_x2(const ResampleDesc& desc) {
    const std::optional<DevicePlan> none;
    if (desc.mode != InterpolationMode::kLinear || desc.input.rank() != 4 ||
        desc.input.data_type != DataType::kFloat32 || !is_packed(desc.input) || !is_packed(desc.output))
        return none;
    const uint32_t h = desc.input.sizes[2], w = desc.input.sizes[3];
    if (w < 6 || w % 2 != 0 || !is_identity_dim(desc, 0) || !is_identity_dim(desc, 1) || !is_x2_dim(desc, 2) ||
        !is_x2_dim(desc, 3))
        return none;
    if (desc.input.total_size_in_bytes > kWindowBytes || desc.output.total_size_in_bytes > kWindowBytes) return none;
    const uint64_t planes = uint64_t(desc.input.sizes[0]) * desc.input.sizes[1];
    if (planes == 0) return none;
    const uint64_t blocks = w / 2 - 2, border = 4 * uint64_t(w) + (2 * uint64_t(h) - 2) * 8;
    const uint64_t interior_threads = planes * (h - 1) * blocks, border_threads = planes * border;
    if (border_threads >= (uint64_t{1} << 32)) return none;

    DevicePlan plan;
    for (bool interior : {true, false}) {
        KernelDispatch dispatch;
        DMLTOOL_ASSIGN_OR_RETURN(dispatch.dxbc, cached(interior));
        dispatch.label = interior ? "resample/FLOAT32/linear_x2/interior" : "resample/FLOAT32/linear_x2/border";
        const uint64_t threads = interior ? interior_threads : border_threads;
        const shaders::DispatchGrid grid = shaders::plan_dispatch(threads, kThreadsPerGroup);
        std::vector<uint32_t> constants(kX2ConstantCount, 0);
        constants[kX2Threads] = uint32_t(threads);
        constants[kX2ThreadsPerRow] = grid.threads_per_row;
        constants[kX2InH] = h;
        constants[kX2InW] = w;
        constants[kX2Blocks] = uint32_t(interior ? blocks : border);
        constants[kX2BlockRows] = h - 1;
        dispatch.root_constants = std::move(constants);
        dispatch.group_count = {grid.groups_x, grid.groups_y, 1};
        dispatch.srvs.push_back({BufferBinding::Source::kInput, 0, 0, 0});
        dispatch.uavs.push_back({BufferBinding::Source::kOutput, 0, 0, 0, interior});
        dispatch.barrier_after = !interior;  // the two write disjoint outputs and only read the input
        plan.dispatches.push_back(std::move(dispatch));
    }
    return std::optional<DevicePlan>(std::move(plan));
}

}  // namespace dmltool::ops::resample
