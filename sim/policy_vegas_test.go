package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVegasRule feeds VegasLimit's rule (rule 35) sequences whose limits
// follow by hand from _update and updateEstimatedLimit, with the probe's
// jitter fixed so that it does not probe unless a case asks it to.
func TestVegasRule(t *testing.T) {
	type step struct {
		rttMS    float64
		inflight int
		dropped  bool
		want     int
	}
	for _, tc := range []struct {
		reason    string
		l         vegasLimit
		steps     []step
		wantNoMS  float64 // the least round trip at the end, ms
		wantCount int
	}{
		{"the defaults at 20: alpha 3, beta 6, threshold 1", vegasLimit{estimate: 20, max: 1000, smoothing: 1, probe: 30, jitterNow: 1}, []step{
			{100, 10, false, 20},    // the first sample is the least round trip
			{100, 10, false, 26},    // queue ceil(20 x 0) = 0 <= 1: +beta
			{200, 13, false, 25},    // queue ceil(26 x 0.5) = 13 > 6: -1
			{120, 13, false, 25},    // queue ceil(25 x 1/6) = 5: between alpha and beta, unchanged
			{104, 13, false, 31},    // queue ceil(25 x 4/104) = 1 <= 1: +6
			{104, 10, false, 31},    // 20 < 31: no drift far from the limit
			{150, 1, true, 30},      // a drop: -1, whatever is in flight
			{50, 1, false, 30},      // a shorter round trip is the new least
			{100, 15, false, 29},    // queue ceil(30 x 0.5) = 15 > 6: -1
			{51, 15, false, 29 + 6}, // queue ceil(29 x 1/51) = 1: +6
		}, 50, 10},
		{"past 100 the steps are a power of ten larger: alpha 6, beta 12, threshold 2", vegasLimit{estimate: 150, max: 1000, smoothing: 1, probe: 30, jitterNow: 1}, []step{
			{100, 75, false, 150},
			{101, 75, false, 162}, // queue ceil(150 x 1/101) = 2 <= 2: +12
			{110, 81, false, 160}, // queue ceil(162 x 10/110) = ceil(14.7) = 15 > 12: -2
		}, 100, 3},
		{"the max holds it, and smoothing takes a share", vegasLimit{estimate: 998, max: 1000, smoothing: 0.5, probe: 30, jitterNow: 1}, []step{
			{100, 999, false, 998},
			{100, 999, false, 999}, // next min(1000, 998 + 12) = 1000; 0.5 x 998 + 0.5 x 1000 = 999
		}, 100, 2},
		{"a probe takes the round trip as the least, whatever it is", vegasLimit{estimate: 20, max: 1000, smoothing: 1, probe: 1, jitterNow: 0.5}, []step{
			{100, 10, false, 20}, // 0.5 x 1 x 20 = 10 > 1
			{100, 10, false, 26},
			{300, 1, false, 26},
			{300, 1, false, 26},
			{300, 1, false, 26},
			{300, 1, false, 26},
			{300, 1, false, 26},
			{300, 1, false, 26},
			{300, 1, false, 26},
			{300, 1, false, 26},
			{300, 1, false, 26},
			{300, 1, false, 26},
			{300, 1, false, 26}, // the 13th: 0.5 x 1 x 26 = 13 <= 13, a probe: the least is now 300 ms
		}, 300, 0},
	} {
		l := tc.l
		l.jitter = newStream(1, streamLimiter)
		now := int64(1e12)
		for k, s := range tc.steps {
			l.sample(now, now-ms(s.rttMS), s.inflight, s.dropped)
			assert.Equal(t, s.want, l.limit(), "%s: after sample %d (%+v)", tc.reason, k+1, s)
		}
		assert.Equal(t, ms(tc.wantNoMS), l.noLoad, "%s: the least round trip", tc.reason)
		assert.Equal(t, tc.wantCount, l.count, "%s: samples since the last probe", tc.reason)
	}
}

// TestLog10Root is Netflix's Log10RootIntFunction: at least 1, then the
// whole part of log10.
func TestLog10Root(t *testing.T) {
	for n, want := range map[int]int{0: 1, 1: 1, 9: 1, 10: 1, 99: 1, 100: 2, 999: 2, 1000: 3, 9999: 3, 10_000: 4} {
		assert.Equal(t, want, log10Root(n), "log10Root(%d)", n)
	}
}

// TestVegasBelowCapacity: at the post's 70/s with no sale, with a constant
// service time the Vegas limit refuses almost nothing, over seeds, and
// under the sale it refuses and its limit moves. With the post's
// exponential service times it refuses a fifth of normal traffic: its
// least round trip is the least of thousands of draws, far below the
// mean, so it reads the service times' own spread as a queue (rule 35).
func TestVegasBelowCapacity(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		c := DefaultConfig()
		c.Policy, c.SaleRPS, c.Seed, c.Service = Vegas, c.NormalRPS, seed, ConstantService
		r, err := Run(c)
		require.NoError(t, err)
		require.NotNil(t, r.Limit)
		assert.Less(t, r.Limit.NormalRefusedShare, 0.002, "seed %d: a constant service time: almost nothing refused below capacity", seed)
		c.Service = ExponentialService
		r, err = Run(c)
		require.NoError(t, err)
		assert.Greater(t, r.Limit.NormalRefusedShare, 0.1, "seed %d: exponential service times read as a queue", seed)
		c.SaleRPS = 150
		r, err = Run(c)
		require.NoError(t, err)
		checkInvariants(t, c, r)
		assert.Positive(t, r.Limit.Refused, "seed %d: the sale is refused in part", seed)
		assert.Less(t, r.Limit.Lowest, r.Limit.Highest, "seed %d: the limit moves", seed)
	}
}
