// The reference's sin, cos and tan against values from glibc's correctly rounded double functions (Python's math
// module on Debian 12), over float32 arguments of every magnitude, the failures MinGW-w64's x87 sin gave (CI under
// Wine, 2026-11-29), float32's largest, values next to multiples of pi/2, and doubles up to DBL_MAX.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ops/element_wise/reference_trig.h"

namespace dmltool::ops::element_wise {
namespace {

struct Golden {
    double x, sin, cos, tan;
};

constexpr Golden kGolden[] = {
    {0x1.0000000000000p-1, 0x1.eaee8744b05f0p-2, 0x1.c1528065b7d50p-1, 0x1.17b4f5bf3474ap-1},
    {0x1.921fafc8b007ap-1, 0x1.6a09e28779cb0p-1, 0x1.6a09ea486da3fp-1, 0x1.fffff508da8a4p-1},
    {0x1.921fb67eacae5p+0, 0x1.fffffffffffe8p-1, -0x1.3a69dccb96762p-24, -0x1.a0e0b39908b69p+23},
    {-0x1.921fb5a7ed197p+1, 0x1.8ea91fae59d9ap-25, -0x1.ffffffffffff6p-1, -0x1.8ea91fae59da2p-25},
    {0x1.4000000000000p+3, -0x1.1689ef5f34f52p-1, -0x1.ad9ac890c6b1fp-1, 0x1.4bf5f34be3782p-1},
    {0x1.0000000000000p+13, -0x1.e98f87098c8e4p-1, 0x1.2bd43d0eb2c92p-2, -0x1.a1ff2171ec9fbp+1},
    {0x1.000c000000000p+13, 0x1.cba2a6dfdfea5p-3, 0x1.f2f05753572aap-1, 0x1.d7aaeabaa1745p-3},
    {0x1.c67ee80000000p+24, 0x1.34f1beb1c7658p-1, -0x1.9849336d91c28p-1, -0x1.836c5de722ca4p-1},
    {-0x1.525bea0000000p+60, 0x1.fe5ffeefaa387p-1, -0x1.4614703b337cfp-4, -0x1.90afe812c7885p+3},
    {0x1.740c980000000p+65, 0x1.f210b69c9962ap-1, 0x1.da8d4acbd8077p-3, 0x1.0caf36e004927p+2},
    {-0x1.9e0ab00000000p+65, 0x1.fd8d8fbdb6582p-1, 0x1.8ffb35ba08bd2p-4, 0x1.4621109a5d4a3p+3},
    {0x1.0f0cf064dd592p+73, -0x1.b453ab76bf397p-1, 0x1.0be2cef01c8f4p-1, -0x1.a0f79c1b6b257p+0},
    {0x1.fffffe0000000p+127, -0x1.0b33665089575p-1, 0x1.b4bf2c79bdfcep-1, -0x1.393d94b4988c2p-1},
    {-0x1.fffffe0000000p+127, 0x1.0b33665089575p-1, 0x1.b4bf2c79bdfcep-1, 0x1.393d94b4988c2p-1},
    {0x1.ac05040000000p+4, 0x1.ff6aff0feda7fp-1, -0x1.8680e8ca459efp-5, -0x1.4f446126634e5p+4},
    {-0x1.6510120000000p+39, 0x1.b0388c83fbf2cp-1, -0x1.127622ebb59aap-1, -0x1.9325d8d4d9fb0p+0},
    {-0x1.a02c000000000p+39, 0x1.fcdd8b6ee4d2dp-1, 0x1.c48c4c0e89accp-4, 0x1.1fdba1de7ba09p+3},
    {0x1.25318c0000000p+19, 0x1.fe3e46f87fe2cp-1, 0x1.5303f8bfbf26cp-4, 0x1.814c7f63286f9p+3},
    {0x1.87a1520000000p+60, -0x1.a2cb6538f6527p-1, 0x1.268ad2f75d795p-1, -0x1.6bfe44169be7ep+0},
    {0x1.9d46160000000p+21, 0x1.fab491e9730d7p-1, 0x1.25c4534b57079p-3, 0x1.b9901be0ec51ap+2},
    {-0x1.9bd7f40000000p+12, 0x1.fffd3fa631293p-1, 0x1.a8a1aa5806176p-8, 0x1.34aa75c54fa6ep+7},
    {-0x1.7def580000000p+0, -0x1.fe689e5bab24cp-1, 0x1.42b0237917696p-4, -0x1.94ecee0017790p+3},
    {-0x1.05dbb60000000p+99, -0x1.d89d53e6a2ed4p-1, -0x1.89d9a0795adafp-2, 0x1.3332462b10cafp+1},
    {-0x1.f094ce0000000p+110, -0x1.e2ff070474697p-1, 0x1.53c1bd56118bdp-2, -0x1.6bed94930561cp+1},
    {-0x1.9a1dfa0000000p+73, -0x1.79922dea608fep-1, 0x1.59cf33ca0348ep-1, -0x1.17834c9434e3dp+0},
    {0x1.79631a0000000p+9, 0x1.6c6b33f748481p-1, 0x1.67a4909825fffp-1, 0x1.03664b879ec92p+0},
    {-0x1.9940900000000p+110, -0x1.e2bf20fd3717ap-1, -0x1.552c3dcfd43dep-2, 0x1.6a3af448e780dp+1},
    {-0x1.ea20d60000000p+8, -0x1.460c8c42038a9p-5, 0x1.ff982479f2138p-1, -0x1.464ebd0126990p-5},
    {0x1.55cc5e0000000p+39, 0x1.45db9d7afd233p-2, 0x1.e56271e6bfc65p-1, 0x1.57b9d313b40ddp-2},
    {0x1.bb28900000000p+22, -0x1.ab853499bc262p-2, -0x1.d13e14fd2974ep-1, 0x1.d67c98326e960p-2},
    {0x1.ba42300000000p+70, 0x1.53db709e98ce3p-1, -0x1.7eeffcde7a613p-1, -0x1.c66677c770dedp-1},
    {0x1.b93f540000000p+11, -0x1.d7a6c6bef38e9p-1, 0x1.8e7100b771ac2p-2, -0x1.2f09a7a52dc9bp+1},
    {0x1.7e43c8800759cp+996, -0x1.a2c16b010e385p-1, -0x1.2699022adc4c1p-1, 0x1.6be411f37ac77p+0},
    {-0x1.3c083126e978dp+1000, 0x1.cbd4af0761a98p-1, 0x1.c254e443b9586p-2, 0x1.056666993cd7ap+1},
    {0x1.ffbe76c8b4396p+1023, -0x1.cf127b4eeea4dp-1, 0x1.b4d8084a78b8cp-2, -0x1.0f5ed028be76dp+1},
};

// A few double ulps: the reduction's remainder is rounded twice, then the library's sin/cos/tan of it.
::testing::AssertionResult close(double got, double want) {
    if (std::fabs(got - want) <= 2e-15 * std::fabs(want)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << std::hexfloat << got << " want " << want << std::defaultfloat
                                         << " (relative error " << std::fabs(got - want) / std::fabs(want) << ")";
}

TEST(ReferenceTrig, MatchesCorrectlyRoundedValuesAtEveryMagnitude) {
    for (const Golden& g : kGolden) {
        SCOPED_TRACE(::testing::Message() << std::hexfloat << "x = " << g.x);
        EXPECT_TRUE(close(reference_sin(g.x), g.sin));
        EXPECT_TRUE(close(reference_cos(g.x), g.cos));
        EXPECT_TRUE(close(reference_tan(g.x), g.tan));
    }
}

TEST(ReferenceTrig, SymmetriesAndSpecialValues) {
    for (double x : {0.0, 1e-300, 0.5, 2.0, 1e5, 3e7, 1e20, 3.4e38, 1e300}) {
        EXPECT_EQ(reference_sin(-x), -reference_sin(x)) << x;
        EXPECT_EQ(reference_cos(-x), reference_cos(x)) << x;
        EXPECT_EQ(reference_tan(-x), -reference_tan(x)) << x;
        EXPECT_LE(std::fabs(reference_sin(x)), 1.0) << x;
        EXPECT_LE(std::fabs(reference_cos(x)), 1.0) << x;
    }
    EXPECT_TRUE(std::signbit(reference_sin(-0.0)));
    EXPECT_EQ(reference_cos(0.0), 1.0);
    for (double x : {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN()}) {
        EXPECT_TRUE(std::isnan(reference_sin(x)));
        EXPECT_TRUE(std::isnan(reference_cos(x)));
        EXPECT_TRUE(std::isnan(reference_tan(x)));
    }
}

// Across pi/4 the two paths meet: the reduced path's values next to the library's own.
TEST(ReferenceTrig, ReducedPathMeetsTheDirectOneAtPiOverFour) {
    double x = 0.78539816339744828;
    for (int step = 0; step < 64; ++step, x = std::nextafter(x, 1.0)) {
        EXPECT_TRUE(close(reference_sin(x), std::sin(x))) << step;
        EXPECT_TRUE(close(reference_cos(x), std::cos(x))) << step;
        EXPECT_TRUE(close(reference_tan(x), std::tan(x))) << step;
    }
}

}  // namespace
}  // namespace dmltool::ops::element_wise
