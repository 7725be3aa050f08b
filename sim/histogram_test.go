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
		h.size(3600e9)
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
	empty.size(300e9)
	assert.Nil(t, empty.quantileMS(0.99), "sized, still no waits")
	assert.Panics(t, func() { empty.add(301e9) }, "a wait longer than the run is the engine's bug, not a count")
	assert.Panics(t, func() { empty.add(-1) }, "so is a negative wait")
	h := waitHistogram{}
	h.size(3600e9)
	h.add(1e9)
	h.size(2e9)
	assert.Equal(t, 0, h.count(), "sizing again empties it")
	assert.Nil(t, h.quantileMS(0.5))
	h.add(2e9)
	assert.Equal(t, 2000.384, *h.quantileMS(0.5), "2 s falls in the bucket [1,953, 1,954) x 1,024 µs: its midpoint, 1,953 x 1,024 + 512 µs")
}

// TestWaitBuckets checks the buckets' edges, worked by hand: exact to
// 2,047 µs; then 1,024 buckets for each power of two, [2,048, 4,096) µs in
// steps of 2, [4,096, 8,192) in steps of 4, and so on.
func TestWaitBuckets(t *testing.T) {
	for _, tt := range []struct {
		us     uint64
		bucket int
	}{
		{0, 0}, {1, 1}, {2047, 2047},
		{2048, 2048}, {2049, 2048}, {2050, 2049}, {4095, 3071},
		{4096, 3072}, {4099, 3072}, {4100, 3073}, {8191, 4095},
		{8192, 4096},
		{2_000_000, 10*1024 + 1953}, // 2 s: 2,000,000 >> 10 = 1,953
	} {
		assert.Equal(t, tt.bucket, waitBucket(tt.us), "%d µs", tt.us)
	}
	// Every bucket from 0 to a day's holds a run of waits that starts where
	// the one before it ends, and its midpoint lies in it.
	for i := 1; i <= waitBucket(86_400e6); i++ {
		lo := bucketStart(i)
		require.Equal(t, i-1, waitBucket(lo-1), "bucket %d starts where %d ends", i, i-1)
		require.Equal(t, i, waitBucket(lo), "bucket %d starts at %d µs", i, lo)
		require.Equal(t, i, waitBucket(bucketValue(i)), "bucket %d holds its midpoint", i)
	}
}

// bucketStart is the least wait in µs that falls in bucket i.
func bucketStart(i int) uint64 {
	if i < exactBelow {
		return uint64(i)
	}
	e := uint(i>>10 - 1)
	return uint64(i-int(e)<<10) << e
}
