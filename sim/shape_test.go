package sim

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShapedArrivals holds the thinned arrivals to their rate: 50 waves of
// a sale that ramps from 50 to 200 a second over 10 s, holds 20 s and falls
// back over 10 s, every 60 s. Each 10 s phase of a wave (the ramp up, the
// two flat windows, the ramp down, two normal windows) gathers 50 windows,
// whose people are Poisson with mean 50 x the rate's integral over the
// phase: 1,250 a ramp window, 2,000 a flat one, 500 a normal one. Each
// phase's total is held within 4 standard deviations.
func TestShapedArrivals(t *testing.T) {
	c := DefaultConfig()
	c.Workers, c.NormalRPS, c.SaleRPS = 30, 50, 200
	c.SaleStartS, c.SaleS, c.SaleRampS, c.SaleWaves, c.SaleEveryS = 0, 40, 10, 50, 60
	c.DurationS = 3010
	require.NoError(t, c.Validate())
	r, err := Run(c)
	require.NoError(t, err)
	checkInvariants(t, c, r)
	want := []float64{1250, 2000, 2000, 1250, 500, 500}
	got := make([]float64, 6)
	for i, w := range r.Windows[:300] {
		got[i%6] += float64(w.People)
	}
	for k := range want {
		mean := 50 * want[k]
		assert.InDelta(t, mean, got[k], 4*math.Sqrt(mean), "phase %d of each wave (%d s in): 50 x %g people", k, 10*k, want[k])
	}
	sale := 50 * (want[0] + want[1] + want[2] + want[3])
	assert.InDelta(t, sale, float64(r.Sale.People), 4*math.Sqrt(sale), "the sale's people are those of its waves, not of the gaps between them")
	assert.Equal(t, int(got[0]+got[1]+got[2]+got[3]), r.Sale.People, "the waves' windows hold the sale's people")
}

// TestRateAt pins the shape's rate at the edges of its pieces.
func TestRateAt(t *testing.T) {
	c := DefaultConfig()
	c.SaleStartS, c.SaleS, c.SaleRampS, c.SaleWaves, c.SaleEveryS = 60, 40, 10, 2, 100
	tests := []struct {
		t, rate float64
		inSale  bool
	}{
		{59.9, 70, false}, {60, 70, true}, {65, 110, true}, {70, 150, true}, {89.99, 150, true},
		{95, 110, true}, {100, 70, false}, {130, 70, false}, {160, 70, true}, {175, 150, true}, {199.999, 70.008, true}, {200, 70, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.t), func(t *testing.T) {
			assert.InDelta(t, tt.rate, c.RateAt(tt.t), 1e-9)
			assert.Equal(t, tt.inSale, c.InSaleAt(tt.t))
			assert.Equal(t, tt.inSale, c.MeasuredAt(tt.t))
		})
	}
	assert.Equal(t, 200.0, c.SaleEndS(), "the sale ends with its last wave")
}

// TestShapeSeeds: back to normal counts from the last wave, and a bound
// keeps every wave's people answered at once, over seeds 1..20.
func TestShapeSeeds(t *testing.T) {
	for _, key := range []string{"ramp", "second-wave"} {
		s, ok := SampleByKey(key)
		require.True(t, ok)
		for _, p := range []Policy{FIFO, Bounded} {
			c := s.Config
			c.Policy = p
			for i, r := range runSeeds(t, c) {
				require.NotNil(t, r.BackToNormalS, "%s, %v, seed %d: back", key, p, i+1)
				if p == Bounded {
					assert.Zero(t, *r.BackToNormalS, "%s, bounded, seed %d: back at once", key, i+1)
				} else {
					assert.Positive(t, *r.BackToNormalS, "%s, fifo, seed %d: the queue takes a while to drain after the last wave", key, i+1)
				}
			}
		}
	}
}

// TestValidateShape: each shape field's bad values name the field.
func TestValidateShape(t *testing.T) {
	tests := []struct {
		reason string
		change func(*Config)
		fields []string
	}{
		{"ramps longer than the sale", func(c *Config) { c.SaleRampS = 31 }, []string{"sale_ramp_s"}},
		{"a negative ramp", func(c *Config) { c.SaleRampS = -1 }, []string{"sale_ramp_s"}},
		{"negative waves", func(c *Config) { c.SaleWaves = -1 }, []string{"sale_waves"}},
		{"waves that overlap", func(c *Config) { c.SaleWaves, c.SaleEveryS = 2, 50 }, []string{"sale_every_s"}},
		{"a spacing with one wave", func(c *Config) { c.SaleEveryS = 90 }, []string{"sale_every_s"}},
		{"waves past the run", func(c *Config) { c.SaleWaves, c.SaleEveryS = 3, 100 }, []string{"sale_waves"}},
		{"a ramp with no sale", func(c *Config) { c.SaleRPS, c.SaleRampS = 70, 10 }, []string{"sale_ramp_s"}},
		{"waves with no sale", func(c *Config) { c.SaleRPS, c.SaleWaves, c.SaleEveryS = 70, 2, 90 }, []string{"sale_waves"}},
		{"a spacing that is not a number", func(c *Config) { c.SaleWaves, c.SaleEveryS = 2, math.NaN() }, []string{"sale_every_s"}},
		{"waves of a sale that lasts 0 s", func(c *Config) { c.SaleS, c.SaleWaves, c.SaleEveryS = 0, 5, 20 }, []string{"sale_waves"}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			c := DefaultConfig()
			tt.change(&c)
			var got []string
			for _, fe := range FieldErrors(c.Validate()) {
				got = append(got, fe.Field)
				assert.Regexp(t, `use |set |give |end it`, fe.Msg, "the message says what to do instead")
			}
			assert.Equal(t, tt.fields, got, tt.reason)
		})
	}
}

// TestRampedSaleEndsOnItsNanosecond: a ramped sale whose end, rounded to
// the nanosecond from sale_start_s + sale_s, falls a nanosecond after its
// start plus its length (found by FuzzRun) ran its arrivals back to the
// sale's start and panicked ("time went backwards"); it runs, and its
// sale holds the people of its windows.
func TestRampedSaleEndsOnItsNanosecond(t *testing.T) {
	c := DefaultConfig()
	c.SaleStartS, c.SaleS, c.SaleRampS, c.DurationS = 205.71428571428572, 8.571428571428571, 1, 400
	start, length := int64(math.Round(c.SaleStartS*1e9)), int64(math.Round(c.SaleS*1e9))
	require.Equal(t, start+length+1, int64(math.Round(c.SaleEndS()*1e9)), "the case: the end rounds a nanosecond later")
	for seed := uint64(1); seed <= 5; seed++ {
		c.Seed = seed
		r, err := Run(c)
		require.NoError(t, err)
		checkInvariants(t, c, r)
	}
}

// TestLoadCollapseSeeds holds latency that grows with load (rule 26) over
// seeds 1..20: the sale into an unbounded queue whose heap holds 1,000
// waiting requests tips it past 300 waiting, where the capacity, 100/s x
// (1 - q/1,000), is under the 70/s of normal traffic. With no retries it
// stays down after the sale in every seed, stuck with its queue past the
// tipping point; the same config behind a bounded queue of 50 (5% slower
// at most) is back at once in every seed.
func TestLoadCollapseSeeds(t *testing.T) {
	s, ok := SampleByKey("gc-collapse")
	require.True(t, ok)
	require.Zero(t, s.Config.Retries, "no retries at all")
	require.Equal(t, 300, s.Config.TippingQueue(), "1,000 x (1 - 70/100)")
	for i, r := range runSeeds(t, s.Config) {
		assert.Equal(t, Stuck, r.Recovery, "seed %d: the collapse does not recover at normal traffic", i+1)
		assert.Greater(t, r.QueueAtEnd, 300, "seed %d: its queue is past the tipping point", i+1)
		for _, w := range r.Windows[int(s.Config.SaleEndS()/10)+1:] {
			assert.Less(t, w.AnsweredShare, 0.9, "seed %d: the window at %g s is not back", i+1, w.StartS)
		}
	}
	b, ok := SampleByKey("gc-collapse-bounded")
	require.True(t, ok)
	for i, r := range runSeeds(t, b.Config) {
		if assert.NotNil(t, r.BackToNormalS, "seed %d: the bounded queue recovers", i+1) {
			assert.Zero(t, *r.BackToNormalS, "seed %d: at once", i+1)
		}
		assert.LessOrEqual(t, b.Config.LoadFactor(r.LongestQueue), 1000.0/950, "seed %d: a bound of 50 keeps the service within 5%% of its speed", i+1)
	}
}

// TestLoadFactor pins rule 26's formula and its ceiling.
func TestLoadFactor(t *testing.T) {
	c := DefaultConfig()
	assert.Equal(t, 1.0, c.LoadFactor(5000), "no heap, no slowdown")
	assert.Equal(t, -1, c.TippingQueue())
	c.HeapRequests = 1000
	for _, tt := range []struct {
		q    int
		want float64
	}{{0, 1}, {300, 1000.0 / 700}, {500, 2}, {989, 1000.0 / 11}, {990, 100}, {5000, 100}} {
		assert.InDelta(t, tt.want, c.LoadFactor(tt.q), 1e-12, "H / (H - q) at q = %d", tt.q)
	}
	assert.InDelta(t, 50, c.CapacityAtRPS(500), 1e-9, "half the heap full: half the capacity")
	assert.False(t, c.CollapsedAt(299))
	assert.True(t, c.CollapsedAt(300))
	c.NormalRPS = 0.5
	assert.Equal(t, -1, c.TippingQueue(), "a full heap still serves 1/s, over 0.5/s")
	c.NormalRPS = 150
	assert.Equal(t, 0, c.TippingQueue(), "over capacity with an empty queue")
}
