package sim

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGradient2Update feeds Gradient2Limit._update (rule 36) windows whose
// limits follow by hand from its defaults: initial 20, min 20, max 200,
// smoothing 0.2, queue 4, tolerance 1.5, long window 600.
func TestGradient2Update(t *testing.T) {
	l := gradient2Limit{estimate: 20, min: 20, max: 200, smoothing: 0.2, queue: 4, tolerance: 1.5, long: expAvg{window: 600, warmup: 10}}
	for k, s := range []struct {
		rttMS    float64
		inflight int
		want     float64 // the estimate after
		reason   string
	}{
		{100, 10, 20.8, "g = min(1, 1.5 x 1) = 1: 20 x 0.8 + (20 + 4) x 0.2"},
		{100, 10, 20.8, "10 < 20.8 / 2: app limited, no change"},
		{100, 11, 21.6, "20.8 x 0.8 + 24.8 x 0.2"},
		{300, 11, 21.32, "long (100 x 3 + 300) / 4 = 150: g = 1.5 x 150 / 300 = 0.75: 21.6 x 0.8 + (21.6 x 0.75 + 4) x 0.2"},
		{10, 11, 22.12, "long 122: g = 1: 21.32 x 0.8 + 25.32 x 0.2; and long / short > 2 cuts the kept average to 115.9"},
	} {
		l.update(ms(s.rttMS), s.inflight)
		assert.InDelta(t, s.want, l.estimate, 1e-9, "update %d: %s", k+1, s.reason)
	}
	assert.InDelta(t, 115.9e6, l.long.value, 1, "the long average, cut by 0.95")

	// After the 10 of the warm-up, the average is exponential, f = 2/601.
	a := expAvg{window: 600, warmup: 10}
	for range 10 {
		a.add(100)
	}
	assert.Equal(t, 100.0, a.value)
	assert.InDelta(t, 100*(1-2.0/601)+700*2.0/601, a.add(700), 1e-12, "the first sample past the warm-up")

	// The min and max hold it.
	l = gradient2Limit{estimate: 199, min: 20, max: 200, smoothing: 1, queue: 4, tolerance: 1.5, long: expAvg{window: 600, warmup: 10}}
	l.update(ms(100), 150)
	assert.Equal(t, 200.0, l.estimate, "199 + 4 is held to 200")
	l = gradient2Limit{estimate: 21, min: 20, max: 200, smoothing: 1, queue: 4, tolerance: 1, long: expAvg{window: 600, warmup: 10}}
	l.update(ms(100), 20)
	l.update(ms(1000), 20) // long 550: g = max(0.5, 0.55) = 0.55: 24 x 0.55 + 4 = 17.2, held to 20
	assert.Equal(t, 20.0, l.estimate, "held to the min")
}

// TestGradient2Window checks WindowedLimit's windows (rule 36): the first
// sample closes an empty window; a window of ten samples or more, closed
// by a sample after its end, is one update with its mean round trip (in
// whole ns) and its most in flight; a round trip under the threshold is
// no sample.
func TestGradient2Window(t *testing.T) {
	l := gradient2Limit{estimate: 100, min: 20, max: 200, smoothing: 1, queue: 4, tolerance: 1.5, long: expAvg{window: 600, warmup: 10},
		windowNS: 1e9, windowSize: 10, minRTT: ms(0.1), w: sampleWindow{least: math.MaxInt64}}
	sec := int64(1e9)
	l.sample(sec, sec-ms(100), 60, false)
	assert.Equal(t, 2*sec, l.next, "the first sample closes the first window; the next ends a second later")
	assert.Zero(t, l.w.count)
	for k := int64(1); k <= 9; k++ {
		l.sample(sec+k*sec/10, sec+k*sec/10-ms(100), 60, false)
	}
	l.sample(2*sec, 2*sec-ms(100), 60, false)
	assert.Equal(t, 10, l.w.count, "a sample at the window's end is in it")
	assert.Equal(t, 100, l.limit(), "no update yet")
	l.sample(2*sec+sec/10, 2*sec+sec/10-ms(200), 70, false)
	assert.Equal(t, 3*sec+sec/10, l.next)
	assert.Zero(t, l.w.count, "closed")
	assert.Equal(t, float64((10*ms(100)+ms(200))/11), l.long.value, "the window's mean round trip, 1.2 s / 11 in whole ns")
	assert.Equal(t, 104, l.limit(), "g = 1: 100 + 4")
	l.sample(3*sec, 3*sec-ms(0.05), 70, false)
	assert.Zero(t, l.w.count, "50 us is under the 100 us threshold: no sample")
}

// TestGradient2Drift: under modest overload (110/s against 100/s for 40
// minutes, the sample) the limit climbs to its most over seeds, as
// concurrency-limits PR #134 reports; and at 70/s with no sale it refuses
// almost nothing.
func TestGradient2Drift(t *testing.T) {
	s, ok := SampleByKey("gradient2")
	require.True(t, ok)
	for seed := uint64(1); seed <= 3; seed++ {
		c := s.Config
		c.Seed = seed
		r, err := Run(c)
		require.NoError(t, err)
		require.NotNil(t, r.Limit)
		assert.GreaterOrEqual(t, r.Limit.Highest, 180, "seed %d: the limit climbs towards its most, 200", seed)
		assert.Greater(t, *r.Sale.MedianWaitMS, 500.0, "seed %d: and the waits with it", seed)

		c = DefaultConfig()
		c.Policy, c.SaleRPS, c.Seed = Gradient2, c.NormalRPS, seed
		r, err = Run(c)
		require.NoError(t, err)
		assert.Less(t, r.Limit.NormalRefusedShare, 0.001, "seed %d: almost nothing refused below capacity", seed)
	}
}
