package portable

import (
	"math"
	"math/big"
)

// refPrec is the precision, in bits, of the reference computations: far more
// than the 53 of a float64, so rounding the reference to a float64 gives the
// correctly rounded value.
const refPrec = 300

// refExp returns e**x correctly rounded to a float64, computed with big.Float
// as exp(x/2**m)**(2**m) with a Taylor series for the small argument. It is
// slow and independent of the code under test.
func refExp(x float64) float64 {
	const m = 24
	z := new(big.Float).SetPrec(refPrec).SetFloat64(x)
	z.SetMantExp(z, -m) // exact: z = x / 2**m
	sum := new(big.Float).SetPrec(refPrec).SetInt64(1)
	term := new(big.Float).SetPrec(refPrec).SetInt64(1)
	for n := int64(1); n < 60; n++ {
		term.Mul(term, z)
		term.Quo(term, new(big.Float).SetPrec(refPrec).SetInt64(n))
		sum.Add(sum, term)
	}
	for range m {
		sum.Mul(sum, sum)
	}
	f, _ := sum.Float64()
	return f
}

// refLog returns the natural logarithm of x > 0 correctly rounded to a
// float64, computed with big.Float as ln(mant) + exp*ln(2), where
// ln(y) = 2*atanh((y-1)/(y+1)) by its series.
func refLog(x float64) float64 {
	v := new(big.Float).SetPrec(refPrec).SetFloat64(x)
	mant := new(big.Float).SetPrec(refPrec)
	e := v.MantExp(mant) // x = mant * 2**e, mant in [0.5, 1)
	ln2 := bigLog(new(big.Float).SetPrec(refPrec).SetInt64(2))
	sum := bigLog(mant)
	sum.Add(sum, new(big.Float).SetPrec(refPrec).Mul(ln2, new(big.Float).SetPrec(refPrec).SetInt64(int64(e))))
	f, _ := sum.Float64()
	return f
}

// bigLog returns ln(y) for y in [0.5, 2] by 2*atanh((y-1)/(y+1)).
func bigLog(y *big.Float) *big.Float {
	one := new(big.Float).SetPrec(refPrec).SetInt64(1)
	num := new(big.Float).SetPrec(refPrec).Sub(y, one)
	den := new(big.Float).SetPrec(refPrec).Add(y, one)
	z := new(big.Float).SetPrec(refPrec).Quo(num, den) // |z| <= 1/3
	z2 := new(big.Float).SetPrec(refPrec).Mul(z, z)
	sum := new(big.Float).SetPrec(refPrec)
	pow := new(big.Float).SetPrec(refPrec).Set(z)
	for n := int64(1); n < 400; n += 2 {
		t := new(big.Float).SetPrec(refPrec).Quo(pow, new(big.Float).SetPrec(refPrec).SetInt64(n))
		sum.Add(sum, t)
		pow.Mul(pow, z2)
	}
	return sum.Mul(sum, new(big.Float).SetPrec(refPrec).SetInt64(2))
}

// ulps returns how many float64 values lie between a and b, counting one of
// the ends; both must have the same sign and neither be NaN.
func ulps(a, b float64) uint64 {
	x, y := math.Float64bits(a), math.Float64bits(b)
	if x > y {
		return x - y
	}
	return y - x
}
