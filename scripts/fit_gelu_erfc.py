#!/usr/bin/env python3
"""Fits the polynomial of GELU's kernel body (ops/element_wise/kernel_math.cpp, gelu): Q(t) ~ log2(erfc(4 t) / 2)
for t in [0, 1] (t = |x| / (4 sqrt 2)), weighted by h = erfc(4 t) / 2 so that the absolute error of h = 2^Q is what
is minimised (Lawson's iteration: weighted least squares over Chebyshev points, each weight multiplied by its
point's error until the largest error stops falling). Then rounds the coefficients to float32, forces Q(0) = -1,
and measures h's absolute error, in u = 2^-24, of a float32 Horner evaluation (fused and unfused multiply-adds)
including t's own rounding, against mpmath's erfc, over x in [0, 5.66].
    python3 scripts/fit_gelu_erfc.py [DEGREE]      (default 8; needs python3-mpmath; about a minute)
"""
import struct
import sys

from mpmath import chebyt, cos, erfc, fabs, log, lu_solve, matrix, mp, mpf, pi, sqrt, taylor

mp.dps = 40


def f32(v):
    return struct.unpack("f", struct.pack("f", float(v)))[0]


def fit(degree, points=200, iterations=60):
    nodes = [cos(pi * (k + mpf(1) / 2) / points) for k in range(points)]  # s in [-1, 1], t = (s + 1) / 2
    target = [log(erfc(2 * (s + 1)) / 2, 2) for s in nodes]
    weight = [erfc(2 * (s + 1)) / 2 for s in nodes]
    basis = [[chebyt(j, s) for j in range(degree + 1)] for s in nodes]
    lam = [mpf(1) / points] * points
    best = None
    for _ in range(iterations):
        a = matrix(degree + 1, degree + 1)
        b = matrix(degree + 1, 1)
        for i in range(points):
            wi = lam[i] * weight[i] ** 2
            for j in range(degree + 1):
                b[j] += wi * basis[i][j] * target[i]
                for k in range(degree + 1):
                    a[j, k] += wi * basis[i][j] * basis[i][k]
        c = lu_solve(a, b)
        err = [weight[i] * (sum(c[j] * basis[i][j] for j in range(degree + 1)) - target[i]) for i in range(points)]
        largest = max(fabs(e) for e in err)
        if best is None or largest < best[0]:
            best = (largest, c)
        total = sum(lam[i] * fabs(err[i]) for i in range(points))
        lam = [lam[i] * fabs(err[i]) / total for i in range(points)]
    largest, c = best
    monomial = [mpf(0)] * (degree + 1)  # in t
    for j in range(degree + 1):
        tj = taylor(lambda t, j=j: chebyt(j, 2 * t - 1), 0, degree)
        for k in range(degree + 1):
            monomial[k] += c[j] * tj[k]
    coefficients = [f32(v) for v in reversed(monomial)]  # highest first
    coefficients[-1] = -1.0
    return float(largest * log(2) / mpf(2) ** -24), coefficients


def evaluation_error(coefficients, fused, samples=40000):
    scale = f32(1 / (4 * sqrt(2)))
    worst, at = 0.0, 0.0
    for i in range(samples + 1):
        x = f32(5.66 * i / samples)
        t = min(f32(x * scale), 1.0)
        q = coefficients[0]
        for c in coefficients[1:]:
            q = f32(mpf(q) * mpf(t) + mpf(c)) if fused else f32(f32(mpf(q) * mpf(t)) + mpf(c))
        e = float(fabs(mpf(2) ** mpf(q) - erfc(mpf(x) / sqrt(2)) / 2) / mpf(2) ** -24)
        if e > worst:
            worst, at = e, x
    return worst, at


def main():
    degree = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    fit_error, coefficients = fit(degree)
    print(f"degree {degree}: fit {fit_error:.3f} u in h before rounding")
    print("coefficients (highest first):", ", ".join(float.hex(c) for c in coefficients))
    for fused in (True, False):
        worst, at = evaluation_error(coefficients, fused)
        print(f"float32 Horner, {'fused' if fused else 'unfused'}: |h - erfc/2| <= {worst:.3f} u (at x = {at:.6g})")


if __name__ == "__main__":
    main()
