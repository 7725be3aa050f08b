package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAIMDRule feeds AIMDLimit's rule (rule 34) sequences of samples whose
// limits follow by hand from AIMDLimit._update and its defaults (initial
// 20, min 20, max 200, backoff 0.9, timeout 5 s).
func TestAIMDRule(t *testing.T) {
	type step struct {
		rttMS    float64
		inflight int
		dropped  bool
		want     int
	}
	const ms5s = 5000
	for _, tc := range []struct {
		reason   string
		settings AIMDSettings
		steps    []step
	}{
		{"the defaults: +1 while half the limit is in flight, else unchanged", AIMDSettings{}, []step{
			{80, 10, false, 21}, // 2 x 10 >= 20
			{80, 10, false, 21}, // 20 < 21
			{80, 11, false, 22}, // 22 >= 21
			{80, 1, false, 22},
		}},
		{"a drop cuts by 0.9, truncated, and the min holds it at 20", AIMDSettings{}, []step{
			{80, 20, true, 20},  // trunc(20 x 0.9) = 18, clamped to 20
			{80, 15, false, 21}, // 30 >= 20
			{80, 0, true, 20},   // trunc(18.9) = 18, clamped to 20
		}},
		{"with a min of 1 the cuts show: 20, 18, 16, 14, 12", AIMDSettings{AIMDMinLimit: 1}, []step{
			{80, 1, true, 18},  // trunc(18.0)
			{80, 1, true, 16},  // trunc(16.2)
			{80, 1, true, 14},  // trunc(14.4)
			{80, 1, true, 12},  // trunc(12.6)
			{80, 6, false, 13}, // 12 >= 12
		}},
		{"a request over the timeout is a drop; one at it is not", AIMDSettings{AIMDMinLimit: 1}, []step{
			{ms5s, 1, false, 20},            // 5,000 ms is not over 5,000 ms; 2 < 20, unchanged
			{ms5s + 0.000001, 1, false, 18}, // one nanosecond over
		}},
		{"the max holds it", AIMDSettings{AIMDInitialLimit: 199}, []step{
			{80, 150, false, 200},
			{80, 150, false, 200},
		}},
		{"an initial limit outside the bounds stands until the first sample", AIMDSettings{AIMDInitialLimit: 300}, []step{
			{80, 1, false, 200}, // unchanged by the rule, then clamped to the max
		}},
		{"its own backoff and timeout", AIMDSettings{AIMDMinLimit: 1, AIMDBackoff: 0.5, AIMDTimeoutMS: 100}, []step{
			{100.000001, 1, false, 10}, // trunc(20 x 0.5)
			{99, 5, false, 11},         // 10 >= 10
			{80, 1, true, 5},           // trunc(5.5)
		}},
	} {
		c := DefaultConfig()
		c.Policy, c.AIMDSettings = AIMD, tc.settings
		require.NoError(t, c.Validate(), tc.reason)
		l := AIMD.spec().limiter(c)
		if tc.settings.AIMDInitialLimit != 0 {
			assert.Equal(t, tc.settings.AIMDInitialLimit, l.limit(), "%s: the initial limit", tc.reason)
		} else {
			assert.Equal(t, 20, l.limit(), "%s: the initial limit", tc.reason)
		}
		now := int64(1e12)
		for k, s := range tc.steps {
			l.sample(now, now-ms(s.rttMS), s.inflight, s.dropped)
			assert.Equal(t, s.want, l.limit(), "%s: after sample %d (%+v)", tc.reason, k+1, s)
		}
	}
}

// TestAIMDBadInput: out of range, the field is named.
func TestAIMDBadInput(t *testing.T) {
	for _, tc := range []struct {
		reason string
		set    func(*AIMDSettings)
		field  string
	}{
		{"a backoff of 1 cuts nothing", func(s *AIMDSettings) { s.AIMDBackoff = 1 }, "aimd_backoff"},
		{"a backoff under 0.5", func(s *AIMDSettings) { s.AIMDBackoff = 0.4 }, "aimd_backoff"},
		{"a min above the max", func(s *AIMDSettings) { s.AIMDMinLimit, s.AIMDMaxLimit = 50, 40 }, "aimd_min_limit"},
		{"a min above the default max", func(s *AIMDSettings) { s.AIMDMinLimit = 201 }, "aimd_min_limit"},
		{"a negative limit", func(s *AIMDSettings) { s.AIMDInitialLimit = -1 }, "aimd_initial_limit"},
		{"a timeout under a nanosecond", func(s *AIMDSettings) { s.AIMDTimeoutMS = 1e-9 }, "aimd_timeout_ms"},
	} {
		c := DefaultConfig()
		c.Policy = AIMD
		tc.set(&c.AIMDSettings)
		var fields []string
		for _, fe := range FieldErrors(c.Validate()) {
			fields = append(fields, fe.Field)
		}
		assert.Contains(t, fields, tc.field, tc.reason)
	}
}

// recordingLimiter passes samples to a limiter and keeps each limit.
type recordingLimiter struct {
	limiter
	steps [][3]int // the limit before, inflight, the limit after
}

func (r *recordingLimiter) sample(now, start int64, inflight int, dropped bool) {
	before := r.limit()
	r.limiter.sample(now, start, inflight, dropped)
	r.steps = append(r.steps, [3]int{before, inflight, r.limit()})
}

// TestAIMDSawTooth runs the saw-tooth sample over seeds and checks, at
// every sample, that the limit moved by AIMD's rule alone: x0.9 after a
// drop, +1 when in flight was at least half the limit, else not at all,
// within its bounds; and that it both fell and climbed.
func TestAIMDSawTooth(t *testing.T) {
	s, ok := SampleByKey("aimd")
	require.True(t, ok)
	for seed := uint64(1); seed <= 3; seed++ {
		c := s.Config
		c.Seed = seed
		require.NoError(t, c.Validate())
		e := newEngine(c, nil)
		rec := &recordingLimiter{limiter: e.lim.rule}
		e.lim.setRule(rec)
		e.loop()
		r := e.result()
		checkInvariants(t, c, r)
		falls, climbs := 0, 0
		for k, st := range rec.steps {
			before, inflight, after := st[0], st[1], st[2]
			switch {
			case after < before:
				falls++
				assert.Equal(t, max(c.AIMDMinLimit, int(float64(before)*0.9)), after, "seed %d, sample %d: a fall is x0.9", seed, k)
			case after > before:
				climbs++
				assert.Equal(t, before+1, after, "seed %d, sample %d: a climb is +1", seed, k)
				assert.GreaterOrEqual(t, 2*inflight, before, "seed %d, sample %d: it climbs only with half the limit in flight", seed, k)
			}
		}
		assert.Positive(t, falls, "seed %d: the limit fell", seed)
		assert.Positive(t, climbs, "seed %d: the limit climbed", seed)
		require.NotNil(t, r.Limit)
		assert.Less(t, r.Limit.Lowest, 20, "seed %d: it fell below its start", seed)
		assert.Positive(t, r.Limit.Refused, "seed %d: it refused in the sale", seed)
		assert.Equal(t, r.Limit.Refused, r.Sale.Refused+countRefusedOutsideSale(r), fmt.Sprintf("seed %d: every refusal is the limit's", seed))
	}
}

// countRefusedOutsideSale is the people refused in the windows outside the
// sale: with no retries, a refused person is one refused attempt.
func countRefusedOutsideSale(r Result) int {
	n := 0
	for _, w := range r.Windows {
		if w.StartS < r.Config.SaleStartS || w.StartS >= r.Config.SaleEndS() {
			n += w.Refused
		}
	}
	return n
}

// TestAIMDBelowCapacity: at the post's 70/s with no sale, far below
// capacity, the AIMD limit refuses nothing, over seeds.
func TestAIMDBelowCapacity(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		c := DefaultConfig()
		c.Policy, c.SaleRPS, c.Seed = AIMD, c.NormalRPS, seed
		r, err := Run(c)
		require.NoError(t, err)
		require.NotNil(t, r.Limit)
		assert.Zero(t, r.Limit.Refused, "seed %d: nothing refused below capacity", seed)
		assert.Zero(t, r.Limit.NormalRefusedShare, "seed %d: no false sheds", seed)
	}
}
