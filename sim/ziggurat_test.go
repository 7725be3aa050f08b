package sim

import (
	"math"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestExpFloat64IsExponential checks the ziggurat's draws against the
// exponential distribution: the Kolmogorov-Smirnov distance of 200,000 draws
// from 1 - exp(-x) must be under the 0.1% critical value, 1.95/sqrt(n), and
// the mean and variance must be 1 within 5 standard errors.
func TestExpFloat64IsExponential(t *testing.T) {
	const n = 200_000
	for _, seed := range []uint64{1, 2, 3} {
		s := newStream(seed, streamService)
		xs := make([]float64, n)
		var sum, sumSq float64
		for i := range xs {
			x := s.ExpFloat64()
			xs[i] = x
			sum += x
			sumSq += x * x
		}
		sort.Float64s(xs)
		var d float64
		for i, x := range xs {
			cdf := 1 - math.Exp(-x)
			d = math.Max(d, math.Max(math.Abs(float64(i+1)/n-cdf), math.Abs(cdf-float64(i)/n)))
		}
		assert.Less(t, d, 1.95/math.Sqrt(n), "seed %d: KS distance from Exp(1)", seed)
		mean := sum / n
		variance := sumSq/n - mean*mean
		assert.InDelta(t, 1, mean, 5/math.Sqrt(n), "seed %d: mean of Exp(1) is 1, standard error 1/sqrt(n)", seed)
		assert.InDelta(t, 1, variance, 5*math.Sqrt(8.0/n), "seed %d: variance of Exp(1) is 1, standard error sqrt(8/n)", seed)
		assert.Greater(t, xs[n-1], 9.0, "seed %d: the tail past the ziggurat's base (7.7) is reached", seed)
	}
}

// TestFloat64InUnitInterval checks the uniform draws stay in [0, 1) and
// have mean 1/2.
func TestFloat64InUnitInterval(t *testing.T) {
	s := newStream(1, streamArrivals)
	var sum float64
	const n = 100_000
	for i := 0; i < n; i++ {
		u := s.Float64()
		if u < 0 || u >= 1 {
			t.Fatalf("draw %d: %v outside [0, 1)", i, u)
		}
		sum += u
	}
	assert.InDelta(t, 0.5, sum/n, 5*math.Sqrt(1.0/12/n), "mean of U(0,1) is 1/2")
}
