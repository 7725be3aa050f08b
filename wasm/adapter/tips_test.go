package adapter

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/sweep"
)

func TestSweepFromStringsDefaults(t *testing.T) {
	s, errs := SweepFromStrings(TipsValues(TipsSweep, nil))
	require.Empty(t, errs)
	assert.Equal(t, sweep.Spec{Base: sim.DefaultConfig(), Knob: "sale_rps", From: 100, To: 250, Steps: 31, Seeds: 10, Below: 0.5}, s,
		"the issue's sweep: every policy, the sale rate from 100 to 250 in 31 steps, at 10 seeds, marked under half the sale")
	m, errs := MapFromStrings(TipsValues(TipsMap, nil))
	require.Empty(t, errs)
	assert.Equal(t, sweep.MapSpec{Base: sim.DefaultConfig(), X: sweep.Axis{Knob: "sale_rps", From: 100, To: 250, Steps: 7},
		Y: sweep.Axis{Knob: "retries", From: 0, To: 3, Steps: 4}, Seeds: 10}, m, "the README's map, for the unbounded queue")
}

func TestSweepFromStrings(t *testing.T) {
	cases := []struct {
		given  map[string]string
		field  string
		says   string
		reason string
	}{
		{map[string]string{"steps": "many"}, "steps", `"many" is not a whole number`, "a word is not a number of steps"},
		{map[string]string{"knob": "policy"}, "knob", "is not a numeric field", "the policy is no knob"},
		{map[string]string{"knob": "seed"}, "knob", "the seed is not a knob", "the seeds are the sweep's own"},
		{map[string]string{"knob": "workers", "from": "0", "to": "20", "steps": "21"}, "from", "0 is out of range", "an end outside the field's own range is named at that end"},
		{map[string]string{"knob": "sale_rps", "from": "100", "to": "2e6"}, "to", "2,000,000 is too large", "the far end"},
		{map[string]string{"from": "NaN"}, "from", `"NaN" is not a number`, "NaN"},
		{map[string]string{"knob": "retries", "from": "0", "to": "3", "steps": "3"}, "steps", "use 2 or 4 steps", "a whole knob needs whole steps"},
		{map[string]string{"seeds": "1000", "steps": "1000", "policy": "fifo"}, "seeds", "(1000 steps x 1,000 seeds), over the budget of 300,000,000 a request: at most 10 seeds fit", "over the budget: the size it would need and the most that fits"},
		{map[string]string{"below": "2"}, "below", "out of range", "a share over 1"},
		{map[string]string{"policy": "nope"}, "policy", "or all for every policy", "a policy that is none"},
		{map[string]string{"duration_s": "7200"}, "duration_s", "longer than the page draws", "the page's limit for a run"},
		{map[string]string{"workers": "0"}, "workers", "out of range", "the base Config's own fields"},
		{map[string]string{"knob": "order_share", "from": "0.1", "to": "0.3", "steps": "3", "policy": "fifo"}, "knob",
			"order_share changes nothing here: it needs policy priority", "a knob no run reads, as the command line refuses it"},
	}
	for _, tc := range cases {
		vals := TipsValues(TipsSweep, tc.given)
		_, errs := SweepFromStrings(vals)
		require.NotEmpty(t, errs, tc.reason)
		assert.Equal(t, tc.field, errs[0].Field, tc.reason+": %v", errs)
		assert.Contains(t, errs[0].Msg, tc.says, tc.reason)
		for k, v := range tc.given {
			assert.Equal(t, v, vals[k], "what was typed is kept: %s", tc.reason)
		}
	}
	s, errs := SweepFromStrings(TipsValues(TipsSweep, map[string]string{"policy": "Bounded", "below": "40%"}))
	require.Empty(t, errs)
	assert.Equal(t, []sim.Policy{sim.Bounded}, s.Policies, "one policy, its curve alone")
	assert.Equal(t, sim.Bounded, s.Base.Policy)
	assert.Equal(t, 0.4, s.Below, "a threshold typed as a percentage")
}

func TestMapFromStrings(t *testing.T) {
	cases := []struct {
		given  map[string]string
		field  string
		says   string
		reason string
	}{
		{map[string]string{"y": "sale_rps"}, "y", "the same knob as the other axis", "two different knobs"},
		{map[string]string{"x": "bogus"}, "x", "is not a numeric field", "a knob that is none, by the form's name"},
		{map[string]string{"x_steps": "101", "x_to": "200", "y": "timeout_ms", "y_from": "1000", "y_to": "2000", "y_steps": "100"}, "y_steps", "over the most a map holds, 10,000", "a map over 10,000 cells"},
		{map[string]string{"policy": "all"}, "policy", "is not a policy", "a map is of one policy"},
		{map[string]string{"y_from": "-1"}, "y_from", "out of range", "an end outside the field's range"},
	}
	for _, tc := range cases {
		_, errs := MapFromStrings(TipsValues(TipsMap, tc.given))
		require.NotEmpty(t, errs, tc.reason)
		assert.Equal(t, tc.field, errs[0].Field, tc.reason+": %v", errs)
		assert.Contains(t, errs[0].Msg, tc.says, tc.reason)
	}
}

func TestTipsQuery(t *testing.T) {
	assert.Equal(t, "", TipsQuery(TipsSweep, TipsValues(TipsSweep, nil)), "the defaults make no query")
	assert.Equal(t, "?kind=map", TipsQuery(TipsMap, TipsValues(TipsMap, nil)))
	vals := TipsValues(TipsSweep, map[string]string{"knob": "retries", "from": "0", "to": "3", "steps": "4", "policy": "bounded", "sale_rps": "200"})
	q := TipsQuery(TipsSweep, vals)
	assert.Equal(t, "?knob=retries&from=0&to=3&steps=4&policy=bounded&sale_rps=200", q)
	assert.Equal(t, vals, TipsValues(TipsSweep, ParseQuery(q)), "the address reads back")
}

// TestRunOutcomeIsMeasure checks that a worker's answer for a setting is
// sweep.Measure's Outcome, through the page's own reading of the Config.
func TestRunOutcomeIsMeasure(t *testing.T) {
	c := sim.DefaultConfig()
	c.Retries = 1
	c.SaleRPS = 170
	want, err := sweep.Measure(c, 3)
	require.NoError(t, err)
	got, err := DecodeOutcome(RunOutcome(WorkerConfig(c), 3))
	require.NoError(t, err)
	assert.Equal(t, want, got, "the page reads what the worker measured")
	_, err = DecodeOutcome(RunOutcome(WorkerConfig(c), 0))
	assert.ErrorContains(t, err, "a worker failed: seeds: 0 is out of range", "no seeds: a bug the worker reports")
}

// TestTipsMarkup checks what the page draws of a sweep and a map: a point
// per policy and step that sets its value, the table's rows at the value
