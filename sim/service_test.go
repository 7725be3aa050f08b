package sim

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lognormal returns the default Config with a log-normal service of mean
// meanMS and p99 p99MS.
func lognormal(meanMS, p99MS float64) Config {
	c := DefaultConfig()
	c.ServiceMS, c.Service, c.ServiceP99MS = meanMS, LognormalService, p99MS
	return c
}

// TestServiceDrawsMatchTheirNumbers draws a million service times from
// the engine's own stream and function for each shape and holds their
// median, mean and p99 to the numbers the shape was given (and those
// ServiceStats shows). The mean's standard error is sd / sqrt(n); a
// quantile's is sqrt(p(1-p)/n) / f(x_p), f the density there. Each is
// allowed 4 of them.
func TestServiceDrawsMatchTheirNumbers(t *testing.T) {
	const n = 1_000_000
	tests := []struct {
		reason string
		c      Config
		// sd is the service time's standard deviation, ms; density(x) its
		// density at x ms
		sd      float64
		density func(x float64) float64
	}{
		{"the post's exponential, mean 80 ms", DefaultConfig(), 80,
			func(x float64) float64 { return math.Exp(-x/80) / 80 }},
		{"a dashboard's p50 40 ms and p99 600 ms: a mean of 78.8 ms", lognormal(78.8, 600), 0, nil},
		{"a mild tail: mean 80 ms, p99 200 ms", lognormal(80, 200), 0, nil},
		{"the heaviest tail a log-normal allows for its mean", lognormal(10, 10*MaxLognormalTail), 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			require.NoError(t, tt.c.Validate())
			want := tt.c.ServiceStats()
			sd, density := tt.sd, tt.density
			if tt.c.Service == LognormalService {
				sigma, ok := lognormalSigma(tt.c.ServiceMS, tt.c.ServiceP99MS)
				require.True(t, ok)
				mu := math.Log(tt.c.ServiceMS) - sigma*sigma/2
				sd = tt.c.ServiceMS * math.Sqrt(math.Expm1(sigma*sigma))
				density = func(x float64) float64 {
					z := (math.Log(x) - mu) / sigma
					return math.Exp(-z*z/2) / (x * sigma * math.Sqrt(2*math.Pi))
				}
				assert.InDelta(t, tt.c.ServiceP99MS, math.Exp(mu+normalP99*sigma), 1e-9*tt.c.ServiceP99MS, "sigma gives the p99")
			}
			e := newEngine(tt.c, nil)
			xs := make([]float64, n)
			var sum float64
			for i := range xs {
				xs[i] = e.serviceNS() / 1e6
				sum += xs[i]
			}
			slices.Sort(xs)
			mean := sum / n
			assert.InDelta(t, want.MeanMS, mean, 4*sd/math.Sqrt(n), "the mean")
			for _, q := range []struct {
				p    float64
				want float64
			}{{0.5, want.MedianMS}, {0.99, want.P99MS}} {
				got := xs[int(q.p*n)]
				se := math.Sqrt(q.p*(1-q.p)/n) / density(q.want)
				t.Logf("p%g: drew %.4g ms, want %.4g ms (se %.2g)", 100*q.p, got, q.want, se)
				assert.InDelta(t, q.want, got, 4*se, "the %g quantile", q.p)
			}
		})
	}

	c := DefaultConfig()
	c.Service = ConstantService
	e := newEngine(c, nil)
	for range 100 {
		require.Equal(t, 80e6, e.serviceNS(), "a constant service takes its mean, exactly")
	}
	assert.Equal(t, ServiceStats{MedianMS: 80, MeanMS: 80, P99MS: 80, CapacityRPS: 100}, c.ServiceStats())
}

// TestNormalDraws: the polar method's draws have mean 0, variance 1 and the
// normal's tail, P(Z > 2.3263) = 1%.
func TestNormalDraws(t *testing.T) {
	const n = 1_000_000
	s := newStream(7, streamService)
	var sum, sq float64
	over := 0
	for range n {
		z := s.NormFloat64()
		sum += z
		sq += z * z
		if z > normalP99 {
			over++
		}
	}
	assert.InDelta(t, 0, sum/n, 4/math.Sqrt(n), "mean 0")
	assert.InDelta(t, 1, sq/n, 4*math.Sqrt(2.0/n), "variance 1")
	assert.InDelta(t, 0.01, float64(over)/n, 4*math.Sqrt(0.01*0.99/n), "1% above z_0.99")
}

// TestServiceAndPatienceValidate: shapes that cannot exist, and numbers
// for a shape that does not use them, are refused with the fix.
func TestServiceAndPatienceValidate(t *testing.T) {
	tests := []struct {
		reason string
		change func(*Config)
		field  string
		msg    string // a part of the message: the fix
	}{
		{"a lognormal needs its p99", func(c *Config) { c.Service = LognormalService }, "service_p99_ms", "needs its 99th percentile"},
		{"a p99 below the mean", func(c *Config) { c.Service, c.ServiceP99MS = LognormalService, 50 }, "service_p99_ms", "use a p99 above 80 ms"},
		{"a p99 equal to the mean", func(c *Config) { c.Service, c.ServiceP99MS = LognormalService, 80 }, "service_p99_ms", "or service constant"},
		{"a tail too heavy for the mean", func(c *Config) { c.Service, c.ServiceP99MS = LognormalService, 2000 }, "service_p99_ms",
			"use a p99 of at most 1197.4 ms, or a larger mean service_ms"},
		{"a NaN p99", func(c *Config) { c.Service, c.ServiceP99MS = LognormalService, math.NaN() }, "service_p99_ms", "not a number"},
		{"a p99 for the exponential", func(c *Config) { c.ServiceP99MS = 600 }, "service_p99_ms", "set service to lognormal"},
		{"a p99 for the constant", func(c *Config) { c.Service, c.ServiceP99MS = ConstantService, 600 }, "service_p99_ms", "leave service_p99_ms out"},
		{"a shape past the last", func(c *Config) { c.Service = HistogramService + 1 }, "service", "exponential, lognormal, constant, histogram"},
		{"exponential patience needs its mean", func(c *Config) { c.Patience = ExponentialPatience }, "patience_ms", "needs its mean"},
		{"a negative patience", func(c *Config) { c.Patience, c.PatienceMS = ExponentialPatience, -3 }, "patience_ms", "too small"},
		{"an infinite patience", func(c *Config) { c.Patience, c.PatienceMS = ExponentialPatience, math.Inf(1) }, "patience_ms", "not a finite"},
		{"a mean patience with none", func(c *Config) { c.PatienceMS = 3000 }, "patience_ms", "set patience to exponential"},
		{"a patience past the last", func(c *Config) { c.Patience = 2 }, "patience", "none, exponential"},
	}
	for _, tt := range tests {
		c := DefaultConfig()
		tt.change(&c)
		fes := FieldErrors(c.Validate())
		if assert.Len(t, fes, 1, tt.reason) {
			assert.Equal(t, tt.field, fes[0].Field, tt.reason)
			assert.Contains(t, fes[0].Msg, tt.msg, tt.reason)
		}
	}
	ok := []struct {
		reason string
		change func(*Config)
	}{
		{"a constant service", func(c *Config) { c.Service = ConstantService }},
		{"a p99 just above the mean", func(c *Config) { c.Service, c.ServiceP99MS = LognormalService, 80.001 }},
		{"the heaviest tail", func(c *Config) { c.Service, c.ServiceP99MS = LognormalService, 1197.4 }},
		{"patience longer than the timeout", func(c *Config) { c.Patience, c.PatienceMS = ExponentialPatience, maxMS }},
	}
	for _, tt := range ok {
		c := DefaultConfig()
		tt.change(&c)
		assert.NoError(t, c.Validate(), tt.reason)
	}
}

// TestShapeText: the shapes' keys round-trip, and a wrong one says what
// to use.
func TestShapeText(t *testing.T) {
	for _, s := range ServiceShapes {
		b, err := s.MarshalText()
		require.NoError(t, err)
		var back ServiceShape
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, s, back)
	}
	for _, p := range PatienceShapes {
		b, err := p.MarshalText()
		require.NoError(t, err)
		var back PatienceShape
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, p, back)
	}
	_, err := ParseServiceShape("pareto")
	assert.ErrorContains(t, err, "use one of exponential, lognormal, constant, histogram")
	s, err := ParseServiceShape(" LogNormal ")
	require.NoError(t, err)
	assert.Equal(t, LognormalService, s)
}

// TestPatience: with patience, people give up before the timeout and do
// not retry; a worker still serves what the policy keeps; with a patience
// far longer than the timeout nothing changes but the draws.
func TestPatience(t *testing.T) {
	c := DefaultConfig()
	c.Retries = 3
	c.Patience, c.PatienceMS = ExponentialPatience, 500
	r, err := Run(c)
	require.NoError(t, err)
	checkInvariants(t, c, r)
	assert.Positive(t, r.Sale.GaveUp, "people give up at a mean of 0.5 s against a 2 s timeout")
	assert.LessOrEqual(t, r.Sale.GaveUp, r.Sale.TimedOut, "giving up is timing out")
	base := DefaultConfig()
	base.Retries = 3
	rb, err := Run(base)
	require.NoError(t, err)
	assert.Less(t, float64(r.Client.Retries), 0.5*float64(rb.Client.Retries), "a person who gives up does not retry")
	assert.Positive(t, r.Wasted, "a worker still serves the unbounded queue's abandoned requests")

	// No patience at all: everyone gives up as they arrive, and skip
	// serves nobody.
	c = DefaultConfig()
	c.Patience, c.PatienceMS = ExponentialPatience, 1e-9
	c.Policy = Skip
	r, err = Run(c)
	require.NoError(t, err)
	assert.Equal(t, r.Sale.People, r.Sale.GaveUp, "a nanosecond's patience: everyone gives up")
	assert.Zero(t, r.Sale.Answered)

	// Every sale person who gave up is in a window's count.
	c = DefaultConfig()
	c.SaleStartS, c.SaleS = 60, 60
	c.Patience, c.PatienceMS = ExponentialPatience, 1000
	r, err = Run(c)
	require.NoError(t, err)
	var sum int
	for _, w := range r.Windows {
		if w.StartS >= 60 && w.StartS < 120 {
			sum += w.GaveUp
		}
	}
	assert.Equal(t, r.Sale.GaveUp, sum)
}

// TestDefaultsLeaveTheJSONAlone: a default Config's JSON carries none of
// the new keys, so every Result, golden file and parity line stays the
// same.
func TestDefaultsLeaveTheJSONAlone(t *testing.T) {
	r, err := Run(DefaultConfig())
	require.NoError(t, err)
	b, err := json.Marshal(r)
	require.NoError(t, err)
	for _, key := range []string{`"service"`, "service_p99_ms", `"patience"`, "patience_ms", "gave_up"} {
		assert.False(t, strings.Contains(string(b), key), "%s is left out at its zero", key)
	}
}
