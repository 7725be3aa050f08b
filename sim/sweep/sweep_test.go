package sweep

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

// TestKnobsAreTheNumericFields checks that every numeric Config field but
// the seed and the series' step is a knob, and that a knob sets its field and no other.
func TestKnobsAreTheNumericFields(t *testing.T) {
	var numeric []string
	for _, f := range reflect.VisibleFields(reflect.TypeFor[sim.Config]()) {
		key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if (f.Type == reflect.TypeFor[int]() || f.Type == reflect.TypeFor[float64]()) && key != "seed" && key != "series_step_s" {
			numeric = append(numeric, key)
		}
	}
	assert.Equal(t, numeric, KnobKeys(), "every numeric field is a knob, in the Config's order, but the series' step, which changes what is recorded, not what happens")
	assert.Contains(t, KnobKeys(), "sale_rps")
	for _, k := range Knobs() {
		base := sim.DefaultConfig()
		c := k.With(base, 7)
		assert.Equal(t, 7.0, k.Get(c), "%s: With then Get", k.Key)
		back := k.With(c, k.Get(base))
		assert.Equal(t, base, back, "%s: setting it back gives the Config back, so With touched no other field", k.Key)
	}
}

func TestParseKnob(t *testing.T) {
	cases := []struct {
		in, want, reason string
	}{
		{"sale_rps", "sale_rps", "the JSON key"},
		{"sale-rps", "sale_rps", "the flag's spelling"},
		{"--Sale-RPS", "sale_rps", "a flag with its dashes, in capitals"},
		{"spike", "sale_rps", "the post's word for the sale rate"},
		{"workers", "workers", "a whole knob"},
	}
	for _, tc := range cases {
		k, err := ParseKnob(tc.in)
		require.NoError(t, err, tc.reason)
		assert.Equal(t, tc.want, k.Key, tc.reason)
	}
	bad := []struct {
		in, says, reason string
	}{
		{"seed", "the seed is not a knob", "the seed is held to the common seeds"},
		{"policy", "is not a numeric field: use one of workers, service_ms", "the policy is a word, not a number"},
		{strings.Repeat("x", 1000), `"` + strings.Repeat("x", 40) + `..." is not`, "a long input is clipped, not echoed"},
	}
	for _, tc := range bad {
		_, err := ParseKnob(tc.in)
		require.Error(t, err, tc.reason)
		assert.Contains(t, err.Error(), tc.says, tc.reason)
		assert.Equal(t, "knob", sim.FieldErrors(err)[0].Field, tc.reason)
	}
}

func TestValues(t *testing.T) {
	assert.Equal(t, []float64{100, 105, 110, 115}, Values(100, 115, 4))
	assert.Equal(t, []float64{250, 200, 150, 100}, Values(250, 100, 4), "a range may run downwards")
	assert.Equal(t, []float64{3}, Values(3, 3, 1))
	assert.Empty(t, Values(1, 2, 0), "no steps, no values")
	v := Values(0, 1, 11)
	assert.Equal(t, 1.0, v[10], "the last value is exactly to")
	assert.InDelta(t, 0.3, v[3], 1e-15)
}

// runKey identifies one run of a request.
type runKey struct {
	setting int
	seed    uint64
}

// TestStepIsRun checks that a sweep's step, seed by seed, is byte for byte
// a single run of the Config with the knob set: the base with the field
// changed by hand, not by the package, so that the sweep cannot pass by
// building its Configs wrongly and running them rightly. And that each
// step's Outcome is the fold of those single runs.
func TestStepIsRun(t *testing.T) {
	base := sim.DefaultConfig()
	base.Seed = 7
	base.Retries = 1
	spec := Spec{Base: base, Knob: "sale-rps", From: 100, To: 250, Steps: 4, Seeds: 3, Policies: []sim.Policy{sim.Bounded, sim.FIFO}}
	got := map[runKey][]byte{}
	var order []runKey
	next := map[int]uint64{}
	sw, err := run(spec, func(i int, r sim.Result) {
		b, err := json.Marshal(r)
		require.NoError(t, err)
		k := runKey{i, base.Seed + next[i]}
		next[i]++
		got[k] = b
		order = append(order, k)
		assert.Equal(t, k.seed, r.Config.Seed, "runs reach keep in seed order")
	})
	require.NoError(t, err)
	require.Len(t, order, 2*4*3)
	for pi, p := range spec.Policies {
		for vi, v := range sw.Values {
			var tl tally
			for s := range uint64(3) {
				c := sim.DefaultConfig()
				c.Retries, c.Policy, c.SaleRPS, c.Seed = 1, p, v, 7+s
				r, err := sim.Run(c)
				require.NoError(t, err)
				want, err := json.Marshal(r)
				require.NoError(t, err)
				assert.Equal(t, string(want), string(got[runKey{pi*4 + vi, 7 + s}]), "%s at sale_rps %v, seed %d: the sweep's run is sim.Run's", p, v, 7+s)
				tl.add(r)
			}
			assert.Equal(t, tl.outcome(), sw.Curves[pi].Steps[vi], "%s at %v: the step is the fold of the single runs", p, v)
		}
	}
}

// TestRefusedRisesWithTheSale checks, over a sweep at common seeds, that
// the bounded queue's refused share does not fall as the sale grows. Not
// seed by seed: a seed's arrival gaps are drawn once and scaled by the
// rate, so a faster sale is the same people compressed, not a superset of
// the slower one, and one seed's refused share can dip by a person or two
// between neighbouring rates. Over 10 common seeds the mean rises about 2
// to 3 points a step of 5/s against a spread of the mean near 0.5 points;
// common seeds take most of that spread out of the differences.
func TestRefusedRisesWithTheSale(t *testing.T) {
	base := sim.DefaultConfig()
	sw, err := Run(Spec{Base: base, Knob: "sale_rps", From: 100, To: 250, Steps: 31, Seeds: 10, Policies: []sim.Policy{sim.Bounded}})
	require.NoError(t, err)
	steps := sw.Curves[0].Steps
	for i := 1; i < len(steps); i++ {
		assert.GreaterOrEqual(t, steps[i].Refused.Mean, steps[i-1].Refused.Mean,
			"bounded: refused at sale_rps %v must not be below that at %v", sw.Values[i], sw.Values[i-1])
	}
	assert.InDelta(t, 0.329, steps[10].Refused.Mean, 0.015, "at 150/s the post's 32.9% refused")
	for _, o := range steps {
		assert.Equal(t, 10, o.Recovery.Normal, "a bounded queue of half a second's work is back at once at any sale rate")
	}
}

// TestFlipsAndCrossings checks the marks on the unbounded queue, whose
// recovery flips as the sale grows: the post's 150/s is back after about
// 90 s, its 200/s is not back by 300 s.
func TestFlipsAndCrossings(t *testing.T) {
	sw, err := Run(Spec{Base: sim.DefaultConfig(), Knob: "sale_rps", From: 150, To: 210, Steps: 7, Seeds: 10, Policies: []sim.Policy{sim.FIFO, sim.Bounded}, Below: 0.5})
	require.NoError(t, err)
	fifo, bounded := sw.Curves[0], sw.Curves[1]
	require.Len(t, fifo.Flips, 1, "fifo: one flip between 150/s and 210/s")
	f := fifo.Flips[0]
	assert.False(t, f.Now, "fifo stops getting back to normal")
	assert.Equal(t, f.From+10, f.To, "the flip is between neighbouring steps")
	assert.True(t, fifo.Steps[0].MostlyBack(), "150/s: back")
	assert.False(t, fifo.Steps[5].MostlyBack(), "200/s: not back")
	assert.Equal(t, 10, fifo.Steps[5].Recovery.Backlog, "200/s: a backlog in every seed, as the post says")
	assert.Empty(t, fifo.Crossings, "fifo answers under half the sale throughout: nothing to cross")
	assert.Empty(t, bounded.Flips, "bounded is back at every step")
	require.Len(t, bounded.Crossings, 1, "bounded answers half the sale near 200/s")
	assert.Equal(t, Mark{From: 200, To: 210, Now: false}, bounded.Crossings[0], "bounded: 50.3% at 200/s, 47.9% at 210/s over these seeds")
}

func TestMap(t *testing.T) {
	base := sim.DefaultConfig()
	m, err := RunMap(MapSpec{Base: base, X: Axis{Knob: "sale_rps", From: 100, To: 200, Steps: 3}, Y: Axis{Knob: "retries", From: 0, To: 1, Steps: 2}, Seeds: 5})
	require.NoError(t, err)
	assert.Equal(t, []float64{100, 150, 200}, m.Xs)
	assert.Equal(t, []float64{0, 1}, m.Ys)
	require.Len(t, m.Cells, 2)
	require.Len(t, m.Cells[0], 3)
	assert.Equal(t, 5, m.Cells[0][1].Back(), "150/s, no retries: the post's run, back in every seed")
	assert.Equal(t, 5, m.Cells[1][1].Recovery.Stuck, "150/s, one retry: stuck in every seed, as the post says")
	assert.Equal(t, 5, m.Cells[0][2].Recovery.Backlog, "200/s, no retries: a backlog")
	// The cell is the sweep's step at the same setting and seeds.
	c := base
	c.Retries = 1
	sw, err := Run(Spec{Base: c, Knob: "sale_rps", From: 100, To: 200, Steps: 3, Seeds: 5, Policies: []sim.Policy{sim.FIFO}})
	require.NoError(t, err)
	assert.Equal(t, sw.Curves[0].Steps, m.Cells[1], "a map's row is a sweep of x at y's value")
}

func TestBadSpecs(t *testing.T) {
	base := sim.DefaultConfig()
	good := Spec{Base: base, Knob: "sale_rps", From: 100, To: 250, Steps: 31, Seeds: 10, Below: 0.5}
	require.NoError(t, good.Validate())
	cases := []struct {
		reason string
		edit   func(*Spec)
		field  string
		says   string
	}{
		{"no knob", func(s *Spec) { s.Knob = "" }, "knob", "is not a numeric field"},
		{"NaN end", func(s *Spec) { s.To = nanValue() }, "to", "NaN is not a number"},
		{"no steps", func(s *Spec) { s.Steps = 0 }, "steps", "0 is out of range"},
		{"one step, two ends", func(s *Spec) { s.Steps = 1 }, "steps", "1 step cannot go from 100 to 250"},
		{"steps over no range", func(s *Spec) { s.From, s.To = 100, 100 }, "steps", "31 steps from 100 to 100 are the same run 31 times: use 1 step, or a range"},
		{"too many steps", func(s *Spec) { s.Steps = MaxSteps + 1 }, "steps", "1,001 is out of range"},
		{"uneven whole steps", func(s *Spec) { s.Knob, s.From, s.To, s.Steps = "workers", 10, 30, 8 }, "steps",
			"workers is a whole number, and 8 steps from 10 to 30 are 2.85714 apart: use 2, 3, 5, 6, 11 or 21 steps"},
		{"a fraction of a worker", func(s *Spec) { s.Knob, s.From, s.To, s.Steps = "workers", 1.5, 3.5, 3 }, "from", "1.5 is not a whole number"},
		{"no seeds", func(s *Spec) { s.Seeds = 0 }, "seeds", "0 is out of range: use a whole number from 1 to 1,000"},
		{"seeds past the largest", func(s *Spec) { s.Base.Seed = sim.MaxSeed }, "seeds", "pass the largest seed"},
		{"a threshold over 1", func(s *Spec) { s.Below = 50 }, "below", "50 is out of range: use a share from 0 to 1"},
		{"no such policy", func(s *Spec) { s.Policies = []sim.Policy{42} }, "policies", "42 is not a policy"},
		{"a knob that changes nothing", func(s *Spec) {
			s.Knob, s.From, s.To, s.Steps, s.Policies = "order_share", 0.1, 0.3, 3, []sim.Policy{sim.FIFO}
		}, "knob", "order_share changes nothing here: it needs policy priority"},
		{"a step the engine refuses", func(s *Spec) { s.To = 2_000_000 }, "sale_rps", "at sale_rps 200,090/s: sale_rps: this run would send about 12,022,200 attempts"},
		{"over the budget", func(s *Spec) { s.Seeds, s.Policies = 1000, sim.PostPolicies }, "seeds",
			"this would send about 5,077,800,000 attempts (31 steps x 6 policies x 1,000 seeds), over the budget of 300,000,000 a request: at most 59 seeds fit"},
		{"over the budget at one seed", func(s *Spec) {
			s.Base.DurationS, s.Base.NormalRPS, s.Seeds, s.Policies = 86_400, 100, 1, sim.PostPolicies
		}, "seeds", "(31 steps x 6 policies x 1 seed), over the budget of 300,000,000 a request: even one seed is too much: use fewer steps"},
	}
	for _, tc := range cases {
		s := good
		tc.edit(&s)
		err := s.Validate()
		assertRefused(t, err, tc.field, tc.says, tc.reason)
		_, runErr := Run(s)
		assert.Equal(t, err, runErr, "%s: Run refuses what Validate does, before running", tc.reason)
	}
	s := good
	s.To = 2_000_000
	var se *SettingError
	require.ErrorAs(t, s.Validate(), &se)
	assert.Equal(t, "sale_rps 200,090/s", se.At, "the error names the first step the engine refuses: the first over a run's budget of attempts")
}

func TestBadMaps(t *testing.T) {
	good := MapSpec{Base: sim.DefaultConfig(), X: Axis{Knob: "sale_rps", From: 100, To: 250, Steps: 4}, Y: Axis{Knob: "retries", From: 0, To: 3, Steps: 4}, Seeds: 10}
	require.NoError(t, good.Validate())
	cases := []struct {
		reason string
		edit   func(*MapSpec)
		field  string
		says   string
	}{
		{"the same knob twice", func(m *MapSpec) { m.Y.Knob = "sale-rps" }, "y_knob", "a map needs two different knobs"},
		{"y's steps", func(m *MapSpec) { m.Y.Steps = 3 }, "y_steps", "retries is a whole number"},
		{"x's knob", func(m *MapSpec) { m.X.Knob = "colour" }, "x_knob", `"colour" is not a numeric field`},
		{"a cell the engine refuses", func(m *MapSpec) { m.Y.To = 300; m.Y.Steps = 2 }, "retries", "300 is out of range"},
		{"over the budget", func(m *MapSpec) { m.Seeds = 200; m.X.Steps = 31 }, "seeds", "(31 x 4 cells x 200 seeds)"},
		{"too many cells", func(m *MapSpec) {
			m.X.Steps, m.Y.Knob, m.Y.From, m.Y.To, m.Y.Steps = 1000, "timeout_ms", 100, 10000, 1000
		}, "y_steps",
			"1,000 x 1,000 steps make 1,000,000 cells, over the most a map holds, 10,000"},
		{"too many tiny runs", func(m *MapSpec) {
			m.Base.NormalRPS, m.Base.SaleRPS, m.Base.DurationS, m.Base.Policy = 0, 0, 86_400, sim.Priority
			m.X = Axis{Knob: "order_share", From: 0, To: 1, Steps: 100}
			m.Y, m.Seeds = Axis{Knob: "timeout_ms", From: 100, To: 10000, Steps: 100}, 1000
		}, "seeds", "this would make 10,000,000 runs (100 x 100 cells x 1,000 seeds), over the most a request makes, 100,000: at most 10 seeds fit"},
		{"a knob that changes nothing", func(m *MapSpec) { m.Y = Axis{Knob: "codel_target_ms", From: 5, To: 20, Steps: 4} }, "y_knob",
			"codel_target_ms changes nothing here: it needs policy codel or policy lifo"},
	}
	for _, tc := range cases {
		m := good
		tc.edit(&m)
		err := m.Validate()
		assertRefused(t, err, tc.field, tc.says, tc.reason)
	}
}

// TestSpreadStat: a step's Stat is its Spread's mean, spread and count,
// and zero for a measure no seed had (not NaN, which JSON cannot hold).
func TestSpreadStat(t *testing.T) {
	var none Spread
	assert.Equal(t, Stat{}, none.Stat(), "no seed: zero, not NaN")
	var s Spread
	for _, x := range []float64{0.061, 0.07, 0.052} {
		s.Add(x)
	}
	assert.Equal(t, Stat{Mean: s.Mean(), SD: s.SD(), N: 3}, s.Stat(), "the Spread's own figures")
	assert.Equal(t, 0.052, s.Min(), "the lowest seed")
	assert.Equal(t, 0.07, s.Max(), "the highest seed")
}
