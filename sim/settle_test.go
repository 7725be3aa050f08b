package sim

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// change is a limit that holds from at, ns, until the next change.
type change struct {
	at    int64
	limit int
}

// settle feeds a stretch [start, stop) a limit that is first before the
// first change, and returns when it settled (rule 38).
func settle(start, stop int64, first int, changes []change) *float64 {
	s := newStretch(start, stop)
	from, v := int64(-1), first
	for _, c := range changes {
		s.hold(from, c.at, v)
		from, v = c.at, c.limit
	}
	s.hold(from, stop, v)
	return s.settledMS()
}

// TestStretchSettles feeds a stretch hand-built limits and checks when
// rule 38 says they settled: the limit sampled every 100 ms, a median over
// each second, settled from the first second after the last whose median
// is not within 10% (and 1 request) of the last second's, and not settled
// when that is in the stretch's last tenth.
func TestStretchSettles(t *testing.T) {
	const step, sec = int64(settleStepNS), int64(1e9)
	ms := func(x float64) *float64 { return &x }
	for _, tc := range []struct {
		reason      string
		start, stop int64
		first       int // the limit from before the start
		changes     []change
		want        *float64
	}{
		{"a limit that never moves settled at once", 0, 10 * sec, 20, nil, ms(0)},
		{"a climb: five of second 2's samples see 10, five 20; its median, the lower, is 10", 0, 10 * sec, 10, []change{
			{2*sec + 45*step/10, 20}, // samples 20 to 24 see 10 (a sample sees the limit as it was before its own time)
		}, ms(3000)},
		{"the same a sample sooner: six of second 2's see 20, its median", 0, 10 * sec, 10, []change{
			{2*sec + 35*step/10, 20},
		}, ms(2000)},
		{"a change at a sample's own time is not seen by it", 0, 10 * sec, 10, []change{
			{2*sec + 4*step, 20}, // samples 20 to 24 see 10
		}, ms(3000)},
		{"a spike of three samples leaves its second's median alone", 0, 10 * sec, 50, []change{
			{5*sec + step/2, 100}, {5*sec + 35*step/10, 50},
		}, ms(0)},
		{"a spike of six samples moves it: settled after it", 0, 10 * sec, 50, []change{
			{5*sec + step/2, 100}, {5*sec + 65*step/10, 50},
		}, ms(6000)},
		{"a dip in the last second: settled only in the last tenth, so not settled", 0, 10 * sec, 50, []change{
			{9*sec + step/2, 3},
		}, nil},
		{"the band is at least 1 request: 4 against 3 is near, 1 is not", 0, 5 * sec, 1, []change{
			{sec - 1, 3}, {2*sec - 1, 4}, {4*sec - 1, 3},
		}, ms(1000)},
		{"a high, then a low, far from the end: the later decides", 0, 10 * sec, 50, []change{
			{sec - 1, 90}, {2*sec - 1, 50}, {3*sec - 1, 20}, {4*sec - 1, 50},
		}, ms(4000)},
		{"within 10%: 45 and 55 are near 50, 44 is not", 0, 10 * sec, 50, []change{
			{sec - 1, 55}, {2*sec - 1, 45}, {3*sec - 1, 44}, {4*sec - 1, 50},
		}, ms(4000)},
		{"a stretch off the run's grid has its own, from its start", 3 * step, 3*step + 10*sec, 10, []change{
			{3*step + sec, 50}, // samples 0 to 10 see 10; second 1's median is 50
		}, ms(1000)},
		{"a short last second has its own median", 0, 10*sec + 25*step/10, 50, []change{
			{10*sec + step/2, 100}, // samples 101 and 102 of 100 to 102
		}, nil},
		{"a change before the stretch, then steady: settled at once", 10 * sec, 20 * sec, 50, []change{
			{5 * sec, 30},
		}, ms(0)},
		{"a stretch shorter than a second settles at once", 0, 5 * step, 50, []change{
			{2 * step, 90},
		}, ms(0)},
		{"an empty stretch has no answer", 5 * sec, 5 * sec, 50, nil, nil},
	} {
		got := settle(tc.start, tc.stop, tc.first, tc.changes)
		if tc.want == nil {
			assert.Nil(t, got, tc.reason)
			continue
		}
		if assert.NotNil(t, got, tc.reason) {
			assert.Equal(t, *tc.want, *got, tc.reason)
		}
	}
}

// TestStretchAgainstSamples: for random limits, the stretch's answer is
// the one rule 38 gives from every sample kept in a slice.
func TestStretchAgainstSamples(t *testing.T) {
	r := newStream(7, streamLimiter)
	for trial := range 2000 {
		start := int64(r.Uint64() % 3e9)
		stop := start + int64(r.Uint64()%40e9)
		spread := 1 + int(r.Uint64()%40)
		var changes []change
		at := int64(0)
		for at < stop {
			at += 1 + int64(r.Uint64()%uint64(1+r.Uint64()%3e9))
			changes = append(changes, change{at, 20 + int(r.Uint64()%uint64(spread))})
		}
		if r.Uint64()%2 == 0 { // a calm end, often, so that some settle
			calm := start + int64(r.Uint64()%uint64(stop-start+1))
			k := 0
			for k < len(changes) && changes[k].at < calm {
				k++
			}
			changes = append(changes[:k], change{calm, 30})
		}
		want := settleFromSamples(start, stop, 25, changes)
		got := settle(start, stop, 25, changes)
		if want == nil {
			require.Nil(t, got, "trial %d", trial)
			continue
		}
		require.NotNil(t, got, "trial %d", trial)
		require.Equal(t, *want, *got, "trial %d", trial)
	}
}

// settleFromSamples is rule 38 written out: every sample, every second's
// median, the last second's as the reference.
func settleFromSamples(start, stop int64, first int, changes []change) *float64 {
	var samples []int
	for t := start; t < stop; t += settleStepNS {
		v := first
		for _, c := range changes {
			if c.at < t {
				v = c.limit
			}
		}
		samples = append(samples, v)
	}
	var medians []int
	for k := 0; k < len(samples); k += settleBlock {
		x := slices.Clone(samples[k:min(k+settleBlock, len(samples))])
		slices.Sort(x)
		medians = append(medians, x[(len(x)-1)/2])
	}
	if len(medians) == 0 {
		return nil
	}
	ref := medians[len(medians)-1]
	j := 0
	for k, m := range medians {
		if !near(m, ref) {
			j = k + 1
		}
	}
	at := int64(j) * 1e9
	if 10*at >= 9*(stop-start) {
		return nil
	}
	x := float64(at) / 1e6
	return &x
}

// TestStretchMemory: the lists keep one second per distinct median at
// most, however long an hour's saw-tooth runs.
func TestStretchMemory(t *testing.T) {
	s := newStretch(0, 3600e9)
	from := int64(-1)
	for k := int64(0); k < 3600; k++ {
		v := 20 + int(k%50) // a saw-tooth between 20 and 69, a second a step
		s.hold(from, k*1e9+1, v)
		from = k*1e9 + 1
	}
	s.hold(from, 3600e9, 45)
	assert.LessOrEqual(t, len(s.highs), 50, "the highs: one per median")
	assert.LessOrEqual(t, len(s.lows), 50, "the lows: one per median")
	assert.Nil(t, s.settledMS(), "a saw-tooth to the end never settles")
}

func TestNear(t *testing.T) {
	for _, tc := range []struct {
		v, ref int
		want   bool
		reason string
	}{
		{10, 10, true, "equal"},
		{11, 10, true, "1 request off is always near"},
		{12, 10, false, "2 off 10 is 20%"},
		{0, 1, true, "1 off"},
		{110, 100, true, "10% exactly"},
		{111, 100, false, "over 10%"},
		{89, 100, false, "under 10% below"},
		{90, 100, true, "10% below"},
	} {
		assert.Equal(t, tc.want, near(tc.v, tc.ref), "%s: %d against %d", tc.reason, tc.v, tc.ref)
	}
}

// TestSettledAsTheSeriesShowsIt: the engine's settle times are rule 38
// applied to the limit its series records every 100 ms, for every limit:
// the series' point k holds the limit at (k+1) x 100 ms, as a sample sees
// it.
func TestSettledAsTheSeriesShowsIt(t *testing.T) {
	for _, p := range Policies {
		if p.spec().limiter == nil {
			continue
		}
		for seed := uint64(1); seed <= 3; seed++ {
			c := DefaultConfig()
			c.Policy, c.Seed, c.SeriesStepS = p, seed, 0.1
			r, err := Run(c)
			require.NoError(t, err)
			first := p.spec().limiter(c).limit()
			var changes []change // the limit as each point shows it, from the point's time
			for k, pt := range r.Series.Points {
				changes = append(changes, change{int64(k+1)*settleStepNS - 1, pt.Limit})
			}
			for _, s := range []struct {
				name        string
				start, stop float64
				got         *float64
			}{
				{"in the sale", c.SaleStartS, c.SaleEndS(), r.Limit.SettledInSaleMS},
				{"after the sale", c.SaleEndS(), c.DurationS, r.Limit.SettledAfterSaleMS},
			} {
				want := settleFromSamples(int64(s.start*1e9), int64(s.stop*1e9), first, changes)
				assert.Equal(t, want, s.got, "%s, seed %d: settled %s", p, seed, s.name)
			}
		}
	}
}

// TestAIMDSettles: in the post's sale AIMD's limit climbs by one for each
// request that leaves with half of it in flight, from 20 to 200, and
// nothing takes its 5 s timeout to cut it. It is near 200 (180 or more)
// after 160 answers, 1.6 s at the workers' 100 a second, so the second
// whose median first reaches it is the second or the third; after the
// sale it stays at 200, settled at once. Over seeds 1..10.
func TestAIMDSettles(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		c := DefaultConfig()
		c.Policy, c.Seed = AIMD, seed
		r, err := Run(c)
		require.NoError(t, err)
		l := r.Limit
		require.NotNil(t, l.SettledInSaleMS, "seed %d: settled in the sale", seed)
		assert.Contains(t, []float64{2000, 3000}, *l.SettledInSaleMS, "seed %d: in the second or third second", seed)
		require.NotNil(t, l.SettledAfterSaleMS, "seed %d: settled after the sale", seed)
		assert.Zero(t, *l.SettledAfterSaleMS, "seed %d: at once", seed)
		assert.Equal(t, 200, l.AtEnd, "seed %d", seed)
	}
}
