package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuantileIsNearestRank holds the histogram's quantiles, low ones
// found from the bottom and high ones from the top, to the nearest rank
// of the sorted waits: the bucket that holds the ceil(q x n)-th wait.
func TestQuantileIsNearestRank(t *testing.T) {
	tests := []struct {
		reason string
		n      int
		wait   func(r *rand.Rand) int64 // ns
	}{
		{"one wait", 1, func(*rand.Rand) int64 { return 80e6 }},
		{"all the same", 1000, func(*rand.Rand) int64 { return 3e6 }},
		{"exact buckets only, under 2 ms", 5000, func(r *rand.Rand) int64 { return r.Int64N(2e6) }},
		{"the shop's: exponential around 80 ms", 20000, func(r *rand.Rand) int64 { return int64(80e6 * r.ExpFloat64()) }},
		{"a long tail: a few waits of an hour", 20000, func(r *rand.Rand) int64 {
			if r.IntN(1000) == 0 {
				return 3600e9
			}
			return int64(80e6 * r.ExpFloat64())
		}},
		{"two clusters far apart", 999, func(r *rand.Rand) int64 { return []int64{1e6, 2e9}[r.IntN(2)] }},
	}
	r := rand.New(rand.NewPCG(5, 99))
	for _, tt := range tests {
		var h waitHistogram
		waits := make([]int64, tt.n)
		for i := range waits {
			waits[i] = tt.wait(r)
			h.add(waits[i])
		}
		slices.Sort(waits)
		for _, q := range []float64{0.001, 0.25, 0.5, 0.5001, 0.9, 0.99, 0.999, 1} {
			rank := max(1, int(math.Ceil(q*float64(tt.n))))
			want := float64(bucketValue(waitBucket(uint64(waits[rank-1])/1000))) / 1000
			got := h.quantileMS(q)
			require.NotNil(t, got, tt.reason)
			assert.Equal(t, want, *got, "%s: the %g quantile", tt.reason, q)
		}
	}
	var empty waitHistogram
	assert.Nil(t, empty.quantileMS(0.99), "no waits, no quantile")
}
