// sin, cos and tan in double precision for the element-wise reference, the same on every platform. Beyond pi/4 the
// argument is reduced modulo pi/2 exactly (Payne-Hanek, 2/pi to 1280 bits) before the C library sees it: a C
// library's own reduction need not be exact, and MinGW-w64's is not (its sin is the x87 fsin, whose 66-bit pi gave
// sin(5.36e19) = 0.97 for 0.46 in the Windows build; CI under Wine, 2026-11-29).
#pragma once

namespace dmltool::ops::element_wise {

// Within a few double ulps (relative) of the exact value for every finite x; NaN for NaN and infinities.
double reference_sin(double x);
double reference_cos(double x);
double reference_tan(double x);

}  // namespace dmltool::ops::element_wise
