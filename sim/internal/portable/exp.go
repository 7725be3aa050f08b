// The algorithm and the constants below are those of the Go standard
// library's pure-Go math.exp (src/math/exp.go), which came from FreeBSD's
// /usr/src/lib/msun/src/e_exp.c with this notice:
//
// ====================================================
// Copyright (C) 2004 by Sun Microsystems, Inc. All rights reserved.
//
// Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice
// is preserved.
// ====================================================

package portable

import "math"

// Exp returns e**x, the base-e exponential of x, within one ulp of the true
// value and with the same bits on every platform.
//
// Special cases are:
//
//	Exp(+Inf) = +Inf
//	Exp(-Inf) = 0
//	Exp(NaN) = NaN
//
// Values above about 709.78 overflow to +Inf; values below about -745.13
// underflow to 0; values within 2**-28 of zero return 1 + x.
//
// Method: reduce x to r with x = k*ln2 + r and |r| <= ln2/2, approximate
// exp(r) by a rational function of degree 5 in r*r, and scale by 2**k.
func Exp(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
		log2e = 1.44269504088896338700e+00

		overflow  = 7.09782712893383973096e+02
		underflow = -7.45133219101941108420e+02
		nearZero  = 1.0 / (1 << 28) // 2**-28
	)

	switch {
	case math.IsNaN(x):
		return x
	case x > overflow: // also +Inf
		return math.Inf(1)
	case x < underflow: // also -Inf
		return 0
	case -nearZero < x && x < nearZero:
		return 1 + x
	}

	// Reduce; r is kept as hi - lo for extra precision. |x| < 746 here, so
	// the conversion to int cannot overflow.
	var k int
	switch {
	case x < 0:
		k = int(float64(log2e*x) - 0.5)
	case x > 0:
		k = int(float64(log2e*x) + 0.5)
	}
	hi := x - float64(float64(k)*ln2Hi)
	lo := float64(float64(k) * ln2Lo)
	return expmulti(hi, lo, k)
}

// expmulti returns e**r * 2**k where r = hi - lo and |r| <= ln2/2.
func expmulti(hi, lo float64, k int) float64 {
	const (
		p1 = 1.66666666666666657415e-01  // 0x3FC55555; 0x55555555
		p2 = -2.77777777770155933842e-03 // 0xBF66C16C; 0x16BEBD93
		p3 = 6.61375632143793436117e-05  // 0x3F11566A; 0xAF25DE2C
		p4 = -1.65339022054652515390e-06 // 0xBEBBBD41; 0xC5D26BF1
		p5 = 4.13813679705723846039e-08  // 0x3E663769; 0x72BEA4D0
	)

	r := hi - lo
	t := float64(r * r)
	// c = r - t*(p1 + t*(p2 + t*(p3 + t*(p4 + t*p5)))), one rounding per step.
	c := p4 + float64(t*p5)
	c = p3 + float64(t*c)
	c = p2 + float64(t*c)
	c = p1 + float64(t*c)
	c = r - float64(t*c)
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	// math.Ldexp is pure Go except on s390x, and exact but for one
	// rounding when the result is subnormal.
	return math.Ldexp(y, k)
}
