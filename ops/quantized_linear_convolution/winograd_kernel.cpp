// The Winograd conv kernel F(2x2, 3x3) and its weight transform (see WinogradConvKernelOptions in kernel.h).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "ops/quantized_linear_convolution/kernel.h"
#include "ops/quantized_linear_convolution/kernel_internal.h"

namespace dmltool::ops::quantized_linear_convolution {
using namespace internal;
namespace {

constexpr uint32_t kPositions = 16;  // the 4x4 transformed tile
uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
uint32_t float_bits(float f) { return std::bit_cast<uint32_t>(f); }

// The transforms' rows: B^T (inputs) and G~ (weights).
constexpr int kInputRows[4][4] = {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
constexpr int kWeightRows[4][3] = {{1, 0, 0}, {1, 1, 1}, {1, -1, 1}, {0, 0, 1}};

// max |sum of c_k v_k| over values v_k in one window [lo, lo + 255] with |v| <= 255 (8-bit data minus an 8-bit
// zero point): 255 * max(#positive, #negative) coefficients (all +-1 or 0). With `centred` the values also lie in
// [-128, 127] (the kernel's centred inputs), so |sum| <= 128 * (#positive + #negative) holds too: it is what bounds
// position (1, 1), whose 4 coefficients are all +1 (512 instead of 1020).
template <size_t R, size_t C>
uint64_t transformed_bound(const int (&rows)[4][C], uint32_t i, uint32_t j, bool centred) {
    uint64_t positive = 0, negative = 0;
    for (size_t a = 0; a < C; ++a)
        for (size_t b = 0; b < C; ++b) {
            const int c = rows[i][a] * rows[j][b];
            positive += c > 0;
            negative += c < 0;
        }
    const uint64_t window = 255 * std::max(positive, negative);
    return centred ? std::min(window, 128 * (positive + negative)) : window;
}

// The floats between positions of a staged channel: BT + p, the p in 0..31 whose GEMM reads (thread (tg, kg, xi)
// reading floats xi * stride + tg * NT + k) hit the fewest distinct addresses in one bank within a warp (threads
// reading the same address share it), ties to the smallest p.
uint32_t conflict_free_position_stride(const WinogradConvKernelOptions& o, uint32_t block_tiles) {
    const uint32_t threads = kPositions * o.channel_groups * o.tile_groups;
    uint32_t best_stride = block_tiles, best_degree = ~0u;
    for (uint32_t pad = 0; pad < 32; ++pad) {
        const uint32_t stride = block_tiles + pad;
        uint32_t degree = 0;
        for (uint32_t warp = 0; warp < threads; warp += 32)
            for (uint32_t k = 0; k < o.tiles_per_thread; ++k) {
                std::array<std::set<uint32_t>, 32> banks;
                for (uint32_t t = warp; t < std::min(threads, warp + 32); ++t) {
                    const uint32_t tg = t % o.tile_groups, xi = t / (o.tile_groups * o.channel_groups);
                    const uint32_t address = xi * stride + tg * o.tiles_per_thread + k;
                    banks[address % 32].insert(address);
                }
                for (const auto& bank : banks) degree = std::max(degree, uint32_t(bank.size()));
            }
        if (degree < best_degree) best_degree = degree, best_stride = stride;
    }
    return best_stride;
}

// dst = the byte address of output channel m's filter sum in the scratch buffer (kSumRegion: after the shifted
// filter, one int32 per padded channel; the prep kernel zeroes them).
void filter_sum_address(ProgramBuilder& b, Operand dst, Operand m) { b.imad(dst, m, imm(4), b.root_constant(kSumRegion)); }

}  // namespace

uint32_t internal::winograd_run_channels(uint32_t position) {
    const uint32_t i = position / 4, j = position % 4;
    const uint64_t product =
        transformed_bound<4, 4>(kInputRows, i, j, true) * transformed_bound<4, 3>(kWeightRows, i, j, false);
    return uint32_t((uint64_t{1} << 24) / product);
}

Result<WinogradLayout> internal::winograd_layout(const WinogradConvKernelOptions& o) {
    const auto bad = [](const std::string& what) { return invalid_input("winograd conv kernel: " + what); };
    if (o.channels_per_thread != 4 && o.channels_per_thread != 8) return bad("channels_per_thread must be 4 or 8");
    if (o.tiles_per_thread != 4 && o.tiles_per_thread != 8) return bad("tiles_per_thread must be 4 or 8");
    if (o.channel_groups < 1 || o.tile_groups < 1) return bad("empty thread group");
    if (o.channels_per_step != 1 && o.channels_per_step != 2 && o.channels_per_step != 4)
        return bad("channels_per_step must be 1, 2 or 4");  // a step never exceeds the shortest run (14)
    if (o.max_chunk_channels < 1 || o.max_chunk_channels > 64) return bad("max_chunk_channels must be 1..64");
    WinogradLayout l;
    l.threads = kPositions * o.channel_groups * o.tile_groups;
    if (l.threads > 1024) return bad("more than 1024 threads per group");
    l.block_channels = o.channels_per_thread * o.channel_groups;
    l.block_units = o.tile_groups * o.tiles_per_thread / 2;
    l.block_tiles = 2 * l.block_units;
    l.position_stride = conflict_free_position_stride(o, l.block_tiles);
    const uint32_t per_channel = kPositions * l.position_stride;
    // At most 2 staging jobs per thread: each holds its addresses and masks in registers for the whole kernel.
    l.chunk_channels = std::min({o.max_chunk_channels, kSharedFloats / per_channel, 2 * l.threads / l.block_units});
    if (l.chunk_channels < 1) return bad("one staged input channel exceeds 32 KiB of groupshared memory");
    l.staging_jobs = ceil_div(l.chunk_channels * l.block_units, l.threads);
    const uint32_t per_pass_channel = o.channel_groups * l.block_tiles * kWinogradExchangeStride;
    for (l.pass_channels = o.channels_per_thread; l.pass_channels > 1; l.pass_channels /= 2)
        if (l.pass_channels * per_pass_channel <= kSharedFloats) break;
    if (per_pass_channel > kSharedFloats) return bad("one exchange pass exceeds 32 KiB of groupshared memory");
    l.shared_floats = std::max(l.chunk_channels * per_channel, l.pass_channels * per_pass_channel);
    return l;
}

Result<std::vector<uint8_t>> build_winograd_weights_kernel() {
    ProgramBuilder b;
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    // The scratch buffer is read and (its filter sums) added to through one UAV: a buffer bound as SRV and UAV in
    // one dispatch would need two resource states at once.
    const Resource transformed = b.uav_raw(0);
    const Resource scratch = b.uav_raw(1);
    Operand thread = shaders::linear_thread_index(b, rc(kThreadsPerRow));
    Operand t = b.temp();  // x in range, y Mp, z c, w m
    b.ult(t.x(), thread, rc(kThreads));
    b.if_nz(t.x());
    b.ushr(t.y(), rc(kTapBytes), imm(2));
    b.udiv(t.z(), t.w(), thread, t.y());
    Operand a = b.temp();  // x source byte (tap 0), y tap bytes, z destination byte (position 0)
    b.imul(a.x(), t.z(), imm(9));
    b.imad(a.x(), a.x(), t.y(), t.w());
    b.ishl(a.x(), a.x(), imm(2));
    b.iadd(a.x(), a.x(), rc(kFilterRegion));
    b.mov(a.y(), rc(kTapBytes));
    b.imul(a.z(), t.z(), imm(kPositions));
    b.imad(a.z(), a.z(), t.y(), t.w());
    b.ishl(a.z(), a.z(), imm(2));
    // g rows (lanes kw), then G~ g: T0 = g0, T1 = g0 + g1 + g2, T2 = g0 - g1 + g2, T3 = g2 (exact float integers).
    std::vector<Operand> g, rows;
    Operand addr = b.temp();
    for (uint32_t kh = 0; kh < 3; ++kh) {
        g.push_back(b.temp());
        for (uint32_t kw = 0; kw < 3; ++kw) {
            b.imad(addr.x(), a.y(), imm(kh * 3 + kw), a.x());
            b.ld_raw(g.back().component(kw), addr.x(), scratch);
        }
    }
    for (uint32_t i = 0; i < 4; ++i) rows.push_back(b.temp());
    b.mov(rows[0].xyz(), g[0].xyz());
    b.add(rows[1].xyz(), g[0].xyz(), g[1].xyz());
    b.add(rows[1].xyz(), rows[1].xyz(), g[2].xyz());
    b.sub(rows[2].xyz(), g[0].xyz(), g[1].xyz());
    b.add(rows[2].xyz(), rows[2].xyz(), g[2].xyz());
    b.mov(rows[3].xyz(), g[2].xyz());
    // (G~ g) G~^T per row: (x, x + y + z, x - y + z, z); position 4i + j at destination + (4i + j) * Mp floats.
    Operand u = b.temp();
    for (uint32_t i = 0; i < 4; ++i) {
        const Operand r = rows[i];
        b.mov(u.x(), r.x());
        b.add(u.y(), r.x(), r.y());
        b.add(u.y(), u.y(), r.z());
        b.sub(u.z(), r.x(), r.y());
        b.add(u.z(), u.z(), r.z());
        b.mov(u.w(), r.z());
        for (uint32_t j = 0; j < 4; ++j) {
            b.imad(addr.x(), a.y(), imm(4 * i + j), a.z());
            b.store_raw(transformed, addr.x(), u.component(j));
        }
        if (i == 1) {
            // Position (1, 1) is the sum of the channel's 9 taps: added into m's filter sum S[m] = sum over c and
            // taps of (w - wz), the conv kernel's centring correction (WinogradConvKernelOptions).
            b.ftoi(addr.y(), u.y());
            filter_sum_address(b, addr.z(), t.w());
            b.atomic_iadd(scratch, addr.z(), addr.y());
        }
    }
    b.endif();
    b.ret();
    return b.build_dxbc();
}

Result<std::vector<uint8_t>> build_winograd_conv_kernel(const WinogradConvKernelOptions& o) {
    DMLTOOL_ASSIGN_OR_RETURN(const WinogradLayout l, winograd_layout(o));
    const uint32_t mt = o.channels_per_thread, nt = o.tiles_per_thread, nq = nt / 4, kg = o.channel_groups;
    const uint32_t tg = o.tile_groups, bu = l.block_units, bt = l.block_tiles, vs = l.position_stride;
    const uint32_t xs = kWinogradExchangeStride, pc = l.pass_channels;
    ProgramBuilder b({.thread_group = {tg, kg, kPositions}});
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    const ConvResources resources = bind_conv_resources(b, 1, 1, shaders::kMaxViewBytesLog2, o.has_input_zero_point);
    const Resource input = resources.input.views[0];
    const Resource weights = b.srv_typed_uint4(2 + (o.has_input_zero_point ? 1 : 0));
    const Resource shared = b.groupshared_raw(l.shared_floats * 4);
    const Operand tid = b.thread_id_in_group();  // x tile group, y channel group, z position
    const Operand gid = b.thread_group_id();     // x unit block, y channel block

    Operand th = b.temp();  // x linear thread, y the block's first channel, z the thread's first channel, w group
    b.imad(th.x(), tid.z(), imm(kg), tid.y());
    b.imad(th.x(), th.x(), imm(tg), tid.x());
    b.imul(th.y(), gid.y(), imm(l.block_channels));
    b.imad(th.z(), tid.y(), imm(mt), th.y());
    b.udiv(th.w(), shaders::null_operand(), th.y(), rc(kChannelsPerGroup));
    Operand xz = b.temp();
    if (o.has_input_zero_point)
        shaders::load_element(b, TensorViews::single(resources.input_zero_point), 1, imm(0), xz.x(),
                              o.input_signed ? Extend::kSign : Extend::kZero);
    // Centring (WinogradConvKernelOptions): staged values d - k = x - centre (padding: xz - centre), with
    // k = centre - xz; xz.y = -k, xz.z = k. Signed inputs without a zero point have k = 0: nothing to do.
    const int32_t centre = o.input_signed ? 0 : 128;
    const bool centring = !o.input_signed || o.has_input_zero_point;
    if (centring) {
        if (o.has_input_zero_point) b.iadd(xz.y(), xz.x(), imm_i(-centre));
        else b.mov(xz.y(), imm_i(-centre));
        b.ineg(xz.z(), xz.y());
    }
    // Channels per float run at this thread's position (winograd_run_channels: 14 at (1, 1), 21 to 129 elsewhere),
    // shortened to the shortest among the positions that share its 32-thread warp (KG * TG < 32): a warp executes a
    // flush whenever any of its threads takes one, so the partners' flushes then coincide instead of adding up.
    // (Shorter runs stay exact; a device with other warps only loses this saving.)
    const uint32_t positions_per_warp = std::max(1u, 32 / (kg * tg));
    const auto warp_run = [&](uint32_t position) {
        const uint32_t first = position / positions_per_warp * positions_per_warp;
        uint32_t run = winograd_run_channels(first);
        for (uint32_t p = first + 1; p < std::min(kPositions, first + positions_per_warp); ++p)
            run = std::min(run, winograd_run_channels(p));
        return run;
    };
    Operand lim = b.temp();  // x run length, y/z/w scratch
    b.mov(lim.x(), imm(warp_run(0)));
    for (uint32_t position = 1; position < kPositions; ++position) {
        b.ieq(lim.y(), tid.z(), imm(position));
        b.movc(lim.x(), lim.y(), imm(warp_run(position)), lim.x());
    }

    // Staging jobs, fixed per thread: job e = thread + k * T is unit e % BU of chunk channel e / BU.
    // Per job: rowaddr (4 rows' input byte address of column c0 in the group's channel 0), rowmask (rows inside the
    // input, unit and job valid), colmask (columns c0 .. c0 + 3) and (columns c0 + 4, c0 + 5, shared byte of the
    // job's first tile at position 0, chunk channel), and the job's own validity.
    // The job's loaded words (3 per row) and their bit shift, from issue_loads to convert_and_store.
    struct Job {
        Operand rowaddr, rowmask, colmask, rest, valid;
        Operand words[3], shift;
    };
    std::vector<Job> jobs;
    for (uint32_t k = 0; k < l.staging_jobs; ++k) {
        Job j{b.temp(), b.temp(), b.temp(), b.temp(), b.temp(), {b.temp(), b.temp(), b.temp()}, b.temp()};
        Operand e = b.temp(), u = b.temp(), q = b.temp();
        b.iadd(e.x(), th.x(), imm(k * l.threads));
        b.ult(j.valid.x(), e.x(), imm(l.chunk_channels * bu));
        b.udiv(j.rest.w(), u.x(), e.x(), imm(bu));  // chunk channel, unit in the block
        b.imad(q.x(), j.rest.w(), imm(kPositions * vs), u.x());
        b.iadd(q.x(), q.x(), u.x());  // tile 2u
        b.ishl(j.rest.z(), q.x(), imm(2));
        b.imad(u.y(), gid.x(), imm(bu), u.x());  // global unit
        b.ult(u.z(), u.y(), rc(kSpatialUnits));
        b.and_(u.z(), u.z(), j.valid.x());
        b.udiv(q.x(), q.y(), u.y(), rc(kUnitsPerImage));   // n, rest
        b.udiv(q.z(), q.w(), q.y(), rc(kColumnGroups));    // tile row, unit column
        b.ishl(q.z(), q.z(), imm(1));
        b.isub(q.z(), q.z(), rc(kPadH));                   // r0
        b.ishl(q.w(), q.w(), imm(2));
        b.isub(q.w(), q.w(), rc(kPadW));                   // c0
        Operand r = b.temp();
        b.iadd(r.xyzw(), q.z(), imm4(0, 1, 2, 3));
        b.ult(j.rowmask.xyzw(), r.xyzw(), rc(kInH));
        b.and_(j.rowmask.xyzw(), j.rowmask.xyzw(), u.z());
        b.imul(j.rowaddr.xyzw(), r.xyzw(), rc(kInStrideH));
        b.imad(j.rowaddr.xyzw(), q.x(), rc(kInStrideN), j.rowaddr.xyzw());
        b.imad(j.rowaddr.xyzw(), th.w(), rc(kGroupInStride), j.rowaddr.xyzw());
        b.iadd(j.rowaddr.xyzw(), j.rowaddr.xyzw(), q.w());
        b.iadd(r.xyzw(), q.w(), imm4(0, 1, 2, 3));
        b.ult(j.colmask.xyzw(), r.xyzw(), rc(kInW));
        b.iadd(r.xy(), q.w(), imm4(4, 5, 0, 0));
        b.ult(j.rest.xy(), r.xy(), rc(kInW));
        jobs.push_back(j);
    }

    // Accumulators fa[j * NQ + q] (float, the current run) and ia (int32): channel m0 + j, tiles 4q .. 4q + 3 of
    // the thread's NT. 0.0f and 0 share their bits.
    std::vector<Operand> fa, ia;
    for (uint32_t i = 0; i < mt * nq; ++i) {
        fa.push_back(b.temp());
        ia.push_back(b.temp());
        b.mov(fa.back().xyzw(), imm(0));
        b.mov(ia.back().xyzw(), imm(0));
    }
    const auto flush = [&]() {
        Operand t = b.temp();
        for (uint32_t i = 0; i < mt * nq; ++i) {
            b.ftoi(t.xyzw(), fa[i].xyzw());
            b.iadd(ia[i].xyzw(), ia[i].xyzw(), t.xyzw());
            b.mov(fa[i].xyzw(), imm(0));
        }
    };
    // The thread's reads: its NT tiles at its position (groupshared byte of chunk channel 0), and its MT weights'
    // texel of input channel 0 (per channel: 16 * Mp / 4 texels further).
    Operand rd = b.temp();  // x shared byte, y texel, z texels per channel, w Mp / 4
    b.imad(rd.x(), tid.z(), imm(vs), imm(0));
    b.imad(rd.x(), tid.x(), imm(nt), rd.x());
    b.ishl(rd.x(), rd.x(), imm(2));
    b.ushr(rd.w(), rc(kTapBytes), imm(4));
    b.imul(rd.z(), rd.w(), imm(kPositions));
    b.imul(rd.y(), tid.z(), rd.w());
    b.ushr(lim.y(), th.z(), imm(2));
    b.iadd(rd.y(), rd.y(), lim.y());

    Operand cur = b.temp();  // x chunk start, y channels in the chunk, z channel, w flag
    Operand walk = b.temp();  // x shared byte, y texel, z run length so far
    b.mov(cur.x(), imm(0));
    b.mov(walk.z(), imm(0));
    // Staging a job: its 4 rows' 3 words of channel start + min(chunk channel, count - 1) (channels past the chunk
    // stage a real channel nobody reads), loaded into the job's registers ...
    const auto issue_loads = [&](Job& j, Operand start, Operand count) {
        Operand a = b.temp(), t = b.temp();
        b.iadd(t.x(), count, imm_i(-1));
        b.umin(t.x(), j.rest.w(), t.x());
        b.iadd(t.x(), t.x(), start);
        b.imul(t.x(), t.x(), rc(kInStrideC));
        b.iadd(a.xyzw(), j.rowaddr.xyzw(), t.x());
        b.and_(j.shift.xyzw(), a.xyzw(), imm(3));
        b.ishl(j.shift.xyzw(), j.shift.xyzw(), imm(3));
        b.and_(a.xyzw(), a.xyzw(), imm(~3u));
        // Each word's address clamped into the buffer on its own: a clamped word only holds padding columns,
        // which are masked.
        for (uint32_t w = 0; w < 3; ++w) {
            b.iadd(t.xyzw(), a.xyzw(), imm(4 * w));
            clamp_input_addresses(b, t.xyzw(), false);
            for (uint32_t r = 0; r < 4; ++r) b.ld_raw(j.words[w].component(r), t.component(r), input);
        }
    };
    // ... then converted, transformed and stored.
    const auto convert_and_store = [&](const Job& j) {
        Operand t = b.temp();
        const Operand sh = j.shift, w0 = j.words[0], w1 = j.words[1], w2 = j.words[2];
        // Funnel: x0 = bytes c0 .. c0 + 3 of each row, x1 = c0 + 4 .. (shift 0: (w << 1) << 31 is 0).
        Operand x0 = b.temp(), x1 = b.temp(), inv = b.temp();
        b.iadd(inv.xyzw(), -sh.xyzw(), imm(31));
        b.ushr(x0.xyzw(), w0.xyzw(), sh.xyzw());
        b.ishl(t.xyzw(), w1.xyzw(), imm(1));
        b.ishl(t.xyzw(), t.xyzw(), inv.xyzw());
        b.or_(x0.xyzw(), x0.xyzw(), t.xyzw());
        b.ushr(x1.xyzw(), w1.xyzw(), sh.xyzw());
        b.ishl(t.xyzw(), w2.xyzw(), imm(1));
        b.ishl(t.xyzw(), t.xyzw(), inv.xyzw());
        b.or_(x1.xyzw(), x1.xyzw(), t.xyzw());
        // Columns D_k (lanes: the 4 rows) as float x - xz, padding 0.
        std::vector<Operand> d;
        for (uint32_t k = 0; k < 6; ++k) {
            d.push_back(b.temp());
            const Operand src = k < 4 ? x0 : x1;
            if (o.input_signed) b.ibfe(d[k].xyzw(), imm(8), imm(8 * (k % 4)), src.xyzw());
            else b.ubfe(d[k].xyzw(), imm(8), imm(8 * (k % 4)), src.xyzw());
            if (o.has_input_zero_point) b.isub(d[k].xyzw(), d[k].xyzw(), xz.x());
            b.and_(d[k].xyzw(), d[k].xyzw(), j.rowmask.xyzw());
            b.and_(d[k].xyzw(), d[k].xyzw(), k < 4 ? j.colmask.component(k) : j.rest.component(k - 4));
            if (centring) b.iadd(d[k].xyzw(), d[k].xyzw(), xz.y());
            b.itof(d[k].xyzw(), d[k].xyzw());
        }
        // Per tile s (columns 2s .. 2s + 3): E = d B by columns, then V_j = B^T E_j by lanes; V_j lane i is position
        // 4i + j, stored at the job's shared byte + ((4i + j) * VS + s) * 4.
        Operand e[4], v = b.temp();
        for (auto& x : e) x = b.temp();
        for (uint32_t s = 0; s < 2; ++s) {
            const uint32_t c = 2 * s;
            b.sub(e[0].xyzw(), d[c].xyzw(), d[c + 2].xyzw());
            b.add(e[1].xyzw(), d[c + 1].xyzw(), d[c + 2].xyzw());
            b.sub(e[2].xyzw(), d[c + 2].xyzw(), d[c + 1].xyzw());
            b.sub(e[3].xyzw(), d[c + 1].xyzw(), d[c + 3].xyzw());
            for (uint32_t jj = 0; jj < 4; ++jj) {
                // (x - z, y + z, z - y, y - w)
                b.mad(v.xyzw(), e[jj].select({2, 2, 1, 3}),
                      imm4(float_bits(-1.0f), float_bits(1.0f), float_bits(-1.0f), float_bits(-1.0f)),
                      e[jj].select({0, 1, 2, 1}));
                for (uint32_t i = 0; i < 4; ++i) {
                    b.iadd(t.x(), j.rest.z(), imm(((4 * i + jj) * vs + s) * 4));
                    b.store_raw(shared, t.x(), v.component(i));
                }
            }
        }
    };
    const auto channels_from = [&](Operand dst, Operand start) {
        b.isub(dst, rc(kInChannelsPerGroup), start);
        b.umin(dst, dst, imm(l.chunk_channels));
    };
    b.loop();  // chunks
    b.uge(cur.w(), cur.x(), rc(kInChannelsPerGroup));
    b.breakc_nz(cur.w());
    channels_from(cur.y(), cur.x());
    b.sync(shaders::kSyncThreadsInGroup | shaders::kSyncGroupsharedMemory);  // the last chunk's reads are done
    for (Job& j : jobs) {
        b.if_nz(j.valid.x());
        issue_loads(j, cur.x(), cur.y());
        convert_and_store(j);
        b.endif();
    }
    b.sync(shaders::kSyncThreadsInGroup | shaders::kSyncGroupsharedMemory);
    // The chunk's GEMM steps: per channel NT inputs and MT weights, MT * NT multiply-adds. A step takes `steps`
    // channels with all their loads issued before the multiply-adds (so their latencies overlap), then the chunk's
    // last channels go one at a time. A run that would pass the position's length is flushed into the int32
    // accumulators first.
    const uint32_t step_max = o.channels_per_step;
    std::vector<Operand> vin(step_max * nq), win(step_max * mt / 4);
    for (auto& x : vin) x = b.temp();
    for (auto& x : win) x = b.temp();
    Operand a = b.temp();
    b.mov(cur.z(), imm(0));
    b.mov(walk.x(), rd.x());
    b.imad(walk.y(), cur.x(), rd.z(), rd.y());
    const std::vector<uint32_t> step_loops =
        step_max > 1 ? std::vector<uint32_t>{step_max, 1} : std::vector<uint32_t>{1};
    for (const uint32_t loop_steps : step_loops) {
        b.loop();
        b.iadd(cur.w(), cur.z(), imm(loop_steps));
        b.ult(cur.w(), cur.y(), cur.w());
        b.breakc_nz(cur.w());
        b.iadd(cur.w(), walk.z(), imm(loop_steps));
        b.ult(cur.w(), lim.x(), cur.w());
        b.if_nz(cur.w());
        flush();
        b.mov(walk.z(), imm(0));
        b.endif();
        for (uint32_t u = 0; u < loop_steps; ++u) {
            for (uint32_t q = 0; q < nq; ++q) {
                b.iadd(a.x(), walk.x(), imm(u * kPositions * vs * 4 + 16 * q));
                b.ld_raw(vin[u * nq + q].xyzw(), a.x(), shared);
            }
            if (u > 0) b.iadd(a.z(), a.z(), rd.z());
            else b.mov(a.z(), walk.y());
            for (uint32_t h = 0; h < mt / 4; ++h) {
                b.iadd(a.y(), a.z(), imm(h));
                b.ld_typed(win[u * (mt / 4) + h].xyzw(), a.y(), weights);
            }
        }
        for (uint32_t u = 0; u < loop_steps; ++u)
            for (uint32_t jj = 0; jj < mt; ++jj)
                for (uint32_t q = 0; q < nq; ++q)
                    b.mad(fa[jj * nq + q].xyzw(), vin[u * nq + q].xyzw(),
                          win[u * (mt / 4) + jj / 4].component(jj % 4), fa[jj * nq + q].xyzw());
        b.iadd(cur.z(), cur.z(), imm(loop_steps));
        b.iadd(walk.x(), walk.x(), imm(loop_steps * kPositions * vs * 4));
        b.imad(walk.y(), rd.z(), imm(loop_steps), walk.y());
        b.iadd(walk.z(), walk.z(), imm(loop_steps));
        b.endloop();
    }
    b.iadd(cur.x(), cur.x(), imm(l.chunk_channels));
    b.endloop();  // chunks
    flush();

    // Exchange in passes of PC channels per thread: (chunk-local channel kg * PC + jj, block tile t) at
    // ((channel * BT + t) * 17 + position) * 4 bytes; then one thread per (channel, unit) transforms and stores.
    Operand xw = b.temp();  // x the thread's write base, y/z/w scratch
    b.imul(xw.x(), tid.y(), imm(pc * bt));
    b.imad(xw.x(), tid.x(), imm(nt), xw.x());
    b.imad(xw.x(), xw.x(), imm(xs), tid.z());
    b.ishl(xw.x(), xw.x(), imm(2));
    const uint32_t pairs = kg * pc * bu;
    for (uint32_t pass = 0; pass < mt / pc; ++pass) {
        b.sync(shaders::kSyncThreadsInGroup | shaders::kSyncGroupsharedMemory);
        for (uint32_t jj = 0; jj < pc; ++jj)
            for (uint32_t t = 0; t < nt; ++t) {
                b.iadd(xw.y(), xw.x(), imm((jj * bt + t) * xs * 4));
                b.store_raw(shared, xw.y(), ia[(pass * pc + jj) * nq + t / 4].component(t % 4));
            }
        b.sync(shaders::kSyncThreadsInGroup | shaders::kSyncGroupsharedMemory);
        for (uint32_t k = 0; k < ceil_div(pairs, l.threads); ++k) {
            Operand e = b.temp(), f = b.temp(), p = b.temp();
            b.iadd(e.x(), th.x(), imm(k * l.threads));
            b.ult(e.y(), e.x(), imm(pairs));
            b.if_nz(e.y());
            b.udiv(e.z(), e.w(), e.x(), imm(bu));        // exchange channel, unit in the block
            b.udiv(f.x(), f.y(), e.z(), imm(pc));        // channel group, jj
            b.imad(p.x(), f.x(), imm(mt), th.y());
            b.iadd(p.x(), p.x(), f.y());
            b.iadd(p.x(), p.x(), imm(pass * pc));        // output channel m
            b.imad(f.z(), gid.x(), imm(bu), e.w());      // global unit
            b.ult(f.w(), f.z(), rc(kSpatialUnits));
            b.if_nz(f.w());
            Operand n = b.temp();  // x n, y tile row, z unit column, w the unit in its image
            b.udiv(n.x(), n.w(), f.z(), rc(kUnitsPerImage));
            b.udiv(n.y(), n.z(), n.w(), rc(kColumnGroups));
            b.ishl(p.z(), n.z(), imm(2));                // ow0
            Operand out[2] = {b.temp(), b.temp()};
            Operand m[4], r[2];
            for (auto& x : m) x = b.temp();
            for (auto& x : r) x = b.temp();
            Operand t = b.temp();
            for (uint32_t s = 0; s < 2; ++s) {
                // Byte of (channel, tile 2u + s, position 0).
                b.imad(t.x(), e.z(), imm(bt), e.w());
                b.imad(t.x(), e.w(), imm(1), t.x());
                b.iadd(t.x(), t.x(), imm(s));
                b.imul(t.x(), t.x(), imm(xs * 4));
                for (uint32_t i = 0; i < 4; ++i)
                    for (uint32_t jj = 0; jj < 4; ++jj) {
                        b.iadd(t.y(), t.x(), imm((4 * i + jj) * 4));
                        b.ld_raw(m[i].component(jj), t.y(), shared);
                    }
                // A^T rows: R0 = 2 M0 + M1 + M2, R1 = M1 - M2 - 2 M3 (wrapping int32).
                b.ishl(r[0].xyzw(), m[0].xyzw(), imm(1));
                b.iadd(r[0].xyzw(), r[0].xyzw(), m[1].xyzw());
                b.iadd(r[0].xyzw(), r[0].xyzw(), m[2].xyzw());
                b.ishl(r[1].xyzw(), m[3].xyzw(), imm(1));
                b.iadd(r[1].xyzw(), -r[1].xyzw(), m[1].xyzw());
                b.isub(r[1].xyzw(), r[1].xyzw(), m[2].xyzw());
                for (uint32_t row = 0; row < 2; ++row) {
                    const Operand rr = r[row];
                    const Operand y0 = out[row].component(2 * s), y1 = out[row].component(2 * s + 1);
                    b.ishl(y0, rr.x(), imm(1));
                    b.iadd(y0, y0, rr.y());
                    b.iadd(y0, y0, rr.z());
                    b.ishl(y1, rr.w(), imm(1));
                    b.iadd(y1, -y1, rr.y());
                    b.isub(y1, y1, rr.z());
                }
            }
            if (centring) {  // the outputs' sums of (x - xz) * (w - wz) are those of the centred inputs + k * S[m]
                filter_sum_address(b, t.x(), p.x());
                b.ld_raw(t.y(), t.x(), resources.scratch);
                b.imul(t.y(), t.y(), xz.z());
            }
            for (uint32_t row = 0; row < 2; ++row) {
                b.ishr(out[row].xyzw(), out[row].xyzw(), imm(2));  // 4 * acc -> acc, exact
                if (centring) b.iadd(out[row].xyzw(), out[row].xyzw(), t.y());
                Operand oh = b.temp();
                b.imad(oh.x(), n.y(), imm(2), imm(row));
                b.ult(oh.y(), oh.x(), rc(kOutH));
                b.if_nz(oh.y());
                emit_store_tile(b, o.output_signed, {out[row]}, 1, 1, n.x(), oh.x(), p, resources.scratch,
                                resources.output);
                b.endif();
            }
            b.endif();
            b.endif();
        }
    }
    b.ret();
    return b.build_dxbc();
}

}  // namespace dmltool::ops::quantized_linear_convolution
