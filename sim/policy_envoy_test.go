package sim

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEnvoyRule drives GradientController's rule (rule 37) at its defaults
// through a measurement of the minimum round trip and windows whose limits
// follow by hand from calculateNewLimit.
func TestEnvoyRule(t *testing.T) {
	c := DefaultConfig()
	c.Policy = Envoy
	l := Envoy.spec().limiter(c).(*envoyLimit)
	msNS := int64(1e6)
	assert.Equal(t, 3, l.limit(), "it starts measuring, the limit pinned at min_concurrency 3")
	assert.True(t, l.measuring())
	assert.Equal(t, 100*msNS, l.due(), "the window's timer at 100 ms")

	// The measurement: 50 requests of 80 ms; the 50th ends it at p50.
	now := int64(100) * msNS // a request admitted before the measurement began (at 0) would be disregarded
	for k := 1; k <= 50; k++ {
		now += 10 * msNS
		lat := int64(80) * msNS
		if k%2 == 0 {
			lat = 90 * msNS // p50 of 25 at 80 ms and 25 at 90 ms: the 25th smallest, 80 ms
		}
		l.sample(now, now-lat, 1, false)
		if k == 40 {
			l.tick(100 * msNS) // the window's timer while measuring: not re-armed
			assert.Equal(t, int64(math.MaxInt64), l.resetAt, "not re-armed while measuring")
		}
	}
	require.False(t, l.measuring(), "50 samples end the measurement")
	assert.Equal(t, int64(80_000), l.minRTT, "minRTT is the p50, µs")
	assert.Equal(t, 3, l.limit(), "back to the limit before the measurement")
	jitterStream := newStream(1, streamLimiter)
	jitter := jitterStream.Uint64() % 9000 // ceil(60,000 ms x 15%)
	assert.Equal(t, now+(60_000+int64(jitter))*msNS, l.calcAt, "the next measurement in 60 s plus up to 15%")
	assert.Equal(t, now+100*msNS, l.resetAt)

	window := func(latMS float64, n int) {
		for range n {
			l.sample(l.resetAt-1, l.resetAt-1-ms(latMS), 1, false)
		}
		l.tick(l.resetAt)
	}
	window(100, 10)
	assert.Equal(t, 4, l.limit(), "g = 80 x 1.25 / 100 = 1: 3 + sqrt(3) = 4.73, truncated")
	window(50, 10)
	assert.Equal(t, 10, l.limit(), "g = 100 / 50 = 2: 4 x 2 = 8, + sqrt(8) = 10.83")
	window(400, 10)
	assert.Equal(t, 7, l.limit(), "g = 0.25, held to 0.5: 10 x 0.5 = 5, + sqrt(5) = 7.24")
	window(20, 10)
	assert.Equal(t, 17, l.limit(), "g = 5, held to 2: 7 x 2 = 14, + sqrt(14) = 17.74")
	before := l.resetAt
	l.tick(l.resetAt)
	assert.Equal(t, 17, l.limit(), "an empty window changes nothing")
	assert.Equal(t, before+100*msNS, l.resetAt, "and the timer goes on")

	// Five windows in a row at the least limit start a measurement at once:
	// g = 0.5 each window takes 17 to 11 (8.5 + 2.9), 7, 5, 4 and 3 (2 +
	// 1.4), then 3 (1.5 + 1.2, held to 3) five times.
	var limits []int
	var at int64
	for range 12 {
		window(1000, 10) // g = 100 / 1000, held to 0.5
		limits = append(limits, l.limit())
		if at = l.resetAt - 100*msNS; l.calcAt == at {
			break
		}
	}
	assert.Equal(t, []int{11, 7, 5, 4, 3, 3, 3, 3, 3, 3}, limits, "the fifth window that sets 3 over 3 asks for a measurement now")
	assert.Equal(t, at, l.calcAt)
	l.tick(at)
	assert.True(t, l.measuring(), "measuring again")
	l.sample(at+msNS, at-msNS, 1, false) // admitted before the measurement began
	assert.Empty(t, l.window, "a request from before the measurement is disregarded")
}

// TestEnvoyFixedPoint: under sustained overload the limit settles where
// the gradient's pull down equals the headroom's push up, L (1 - g) =
// sqrt(L g), so that the window's p50 is about 1.25 minRTT / g(L). Over
// seeds, the settled limit and the p50 the windows saw agree with it.
func TestEnvoyFixedPoint(t *testing.T) {
	for L := 4.0; L <= 200; L *= 1.7 {
		g := gFixed(L)
		assert.InDelta(t, L*(1-g), math.Sqrt(L*g), 1e-9, "L = %v: g solves L (1 - g) = sqrt(L g)", L)
	}
	for seed := uint64(1); seed <= 3; seed++ {
		c := DefaultConfig()
		c.Policy, c.Seed = Envoy, seed
		c.SaleStartS, c.SaleS, c.SaleRPS, c.DurationS = 10, 280, 200, 300 // twice capacity, all run
		e := newEngine(c, nil)
		l := e.lim.rule.(*envoyLimit)
		var limits []int
		var p50s []float64
		rec := &envoyRecorder{envoyLimit: l, limits: &limits, p50s: &p50s}
		e.lim.setRule(rec)
		e.loop()
		r := e.result()
		checkInvariants(t, c, r)
		require.NotEmpty(t, limits)
		// The windows of the last three quarters of the run, outside
		// measurements: the gradient they gave, clamped, against the one
		// the fixed point gives at their mean limit. (The mean of
		// p50 / minRTT itself is not 1.25 / g: ten-sample windows scatter
		// it, and the mean of a ratio is not the ratio of the means.)
		var sumL, sumG float64
		n := 0
		for k := len(limits) / 4; k < len(limits); k++ {
			if limits[k] <= l.min {
				continue
			}
			sumL += float64(limits[k])
			sumG += max(0.5, min(2, 1.25/p50s[k]))
			n++
		}
		require.Greater(t, n, 1000, "seed %d: over a thousand windows", seed)
		meanL := sumL / float64(n)
		assert.InDelta(t, gFixed(meanL), sumG/float64(n), 0.07, "seed %d: at L = %.1f the windows' gradient is about g(L), where L (1 - g) = sqrt(L g)", seed, meanL)
	}
}

// gFixed solves L (1 - g) = sqrt(L g) for g in (0, 1): with x = sqrt(g),
// L x^2 + sqrt(L) x - L = 0.
func gFixed(L float64) float64 {
	x := (-math.Sqrt(L) + math.Sqrt(L+4*L*L)) / (2 * L)
	return x * x
}

// envoyRecorder keeps, at each window's update, the limit and the ratio of
// the window's p50 to the minimum round trip.
type envoyRecorder struct {
	*envoyLimit
	limits *[]int
	p50s   *[]float64
}

func (r *envoyRecorder) tick(now int64) {
	before := r.sampleRTT
	r.envoyLimit.tick(now)
	if r.sampleRTT != before && r.minRTT > 0 {
		*r.limits = append(*r.limits, r.limit())
		*r.p50s = append(*r.p50s, float64(r.sampleRTT)/float64(r.minRTT))
	}
}

// TestEnvoyBelowCapacity: at 70/s with no sale, Envoy refuses during its
// measurements of the minimum round trip (the limit pinned at 3 while 5.6
// requests are in flight on average), as its issues report (envoy #8337,
// #9007), and otherwise almost nothing.
func TestEnvoyBelowCapacity(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		c := DefaultConfig()
		c.Policy, c.SaleRPS, c.Seed = Envoy, c.NormalRPS, seed
		r, err := Run(c)
		require.NoError(t, err)
		require.NotNil(t, r.Limit)
		assert.Positive(t, r.Limit.Refused, "seed %d: the measurements refuse", seed)
		assert.Less(t, r.Limit.NormalRefusedShare, 0.05, "seed %d: a few percent at most", seed)
		assert.Equal(t, 3, r.Limit.Lowest, "seed %d: pinned at min_concurrency while measuring", seed)
	}
}

// TestEnvoyMeasurements: at 70/s with no sale, Envoy measures the minimum
// round trip at the run's start and every 60 s plus up to 9 s of jitter,
// five times in 300 s, each with the limit pinned at 3. Pinned, the limit
// is a loss system with three servers and no queue (M/M/3/3: nothing
// waits behind it, with 8 workers), offered 70/s x 80 ms = 5.6 erlangs:
// Erlang B refuses 0.568 of the attempts and keeps 2.42 workers busy, 30
// answers a second, so its 50 samples take 1.65 s. The requests in flight
// when a measurement begins (5.6 on average) count against its 3 until
// they leave, but give it no sample, so each refuses a little more and
// lasts a little longer, about their 80 ms: the pooled share over seeds
// 1..10 within 0.03 of Erlang B's, and the mean length within 0.15 s.
func TestEnvoyMeasurements(t *testing.T) {
	var attempts, refused, count int
	var ms float64
	for seed := uint64(1); seed <= 10; seed++ {
		c := DefaultConfig()
		c.Policy, c.SaleRPS, c.Seed = Envoy, c.NormalRPS, seed
		r, err := Run(c)
		require.NoError(t, err)
		m := r.Limit.Measurements
		require.NotNil(t, m, "seed %d: Envoy's measurements are reported", seed)
		assert.GreaterOrEqual(t, m.Count, 5, "seed %d: at 0 s and every 60 to 69 s", seed)
		assert.Equal(t, 3, m.Limit, "seed %d: pinned at min_concurrency", seed)
		assert.LessOrEqual(t, m.Refused, r.Limit.Refused, "seed %d: part of what the limit refused", seed)
		attempts, refused, count, ms = attempts+m.Attempts, refused+m.Refused, count+m.Count, ms+m.TimeMS
	}
	a := 70 * 0.080
	b := erlangB(3, a)
	assert.InDelta(t, 0.568, b, 0.001, "Erlang B(3, 5.6)")
	assert.InDelta(t, b, float64(refused)/float64(attempts), 0.03, "the share refused while measuring, pooled over seeds")
	busy := a * (1 - b)
	assert.InDelta(t, 50/(busy/0.080), ms/1000/float64(count), 0.15, "a measurement's mean length, s: 50 samples at the loss system's rate")
	for _, p := range Policies {
		if p.spec().limiter != nil && p != Envoy {
			c := DefaultConfig()
			c.Policy = p
			r, err := Run(c)
			require.NoError(t, err)
			assert.Nil(t, r.Limit.Measurements, "%s measures nothing", p)
		}
	}
}
