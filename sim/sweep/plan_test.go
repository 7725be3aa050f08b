package sweep

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

// measureAll runs a Plan's settings one by one, as the page's workers do.
func measureAll(t *testing.T, p Plan) []Outcome {
	t.Helper()
	var outs []Outcome
	for _, c := range p.Settings {
		o, err := Measure(c, p.Seeds)
		require.NoError(t, err)
		outs = append(outs, o)
	}
	return outs
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// TestPlanMeasureAssembleIsRun checks that a caller running a Plan's
// settings one at a time with Measure, as the page does in its workers,
// and assembling the Outcomes gets Run's and RunMap's answer to the byte,
// the marks included.
func TestPlanMeasureAssembleIsRun(t *testing.T) {
	base := sim.DefaultConfig()
	base.Retries = 1
	s := Spec{Base: base, Knob: "sale_rps", From: 100, To: 200, Steps: 5, Seeds: 3, Below: 0.5,
		Policies: []sim.Policy{sim.FIFO, sim.Bounded}}
	want, err := Run(s)
	require.NoError(t, err)
	p, err := s.Plan()
	require.NoError(t, err)
	assert.Len(t, p.Settings, 10, "5 steps x 2 policies")
	assert.Equal(t, 3, p.Seeds)
	got := s.Assemble(measureAll(t, p))
	assert.Equal(t, jsonOf(t, want), jsonOf(t, got), "a sweep assembled from Measure is Run's")
	assert.NotEmpty(t, want.Curves[0].Flips, "the unbounded queue with a retry stops getting back within the range: the test compares a mark")

	m := MapSpec{Base: base, X: Axis{"sale_rps", 100, 200, 3}, Y: Axis{"retries", 0, 2, 3}, Seeds: 2}
	wantMap, err := RunMap(m)
	require.NoError(t, err)
	pm, err := m.Plan()
	require.NoError(t, err)
	assert.Len(t, pm.Settings, 9)
	assert.Equal(t, jsonOf(t, wantMap), jsonOf(t, m.Assemble(measureAll(t, pm))), "a map assembled from Measure is RunMap's")
}

// TestAssembleMarksOnlyWhatIsMeasured checks that a step not measured yet
// puts no mark beside it, so that a page drawing steps as they finish
// never marks a flip against a step it has not run.
func TestAssembleMarksOnlyWhatIsMeasured(t *testing.T) {
	base := sim.DefaultConfig()
	base.Retries = 1
	s := Spec{Base: base, Knob: "sale_rps", From: 100, To: 200, Steps: 5, Seeds: 3, Below: 0.5, Policies: []sim.Policy{sim.FIFO}}
	full, err := Run(s)
	require.NoError(t, err)
	require.Len(t, full.Curves[0].Flips, 1, "one flip, between two steps")
	flip := full.Curves[0].Flips[0]
	outs := append([]Outcome(nil), full.Curves[0].Steps...)
	for i, v := range full.Values {
		if v == flip.To {
			outs[i] = Outcome{}
		}
	}
	part := s.Assemble(outs)
	assert.Empty(t, part.Curves[0].Flips, "the flip's second step is not measured: no flip yet")
}

func TestMeasureRefuses(t *testing.T) {
	c := sim.DefaultConfig()
	_, err := Measure(c, 0)
	assertRefused(t, err, "seeds", "out of range", "no seeds")
	c.Workers = 0
	_, err = Measure(c, 2)
	assertRefused(t, err, "workers", "out of range", "a Config that does not validate")
}

// TestAssembleNamesTheKnobByItsKey checks that what a request measured
// names its knobs the same however they were asked for: the command
// line's flag and the page's key give the same JSON.
func TestAssembleNamesTheKnobByItsKey(t *testing.T) {
	base := sim.DefaultConfig()
	for _, name := range []string{"sale-rps", "--Sale-RPS", "spike", "sale_rps"} {
		sw, err := Run(Spec{Base: base, Knob: name, From: 100, To: 110, Steps: 2, Seeds: 1, Policies: []sim.Policy{sim.Bounded}})
		require.NoError(t, err, name)
		assert.Equal(t, "sale_rps", sw.Spec.Knob, name)
	}
	m, err := RunMap(MapSpec{Base: base, X: Axis{"sale-rps", 100, 110, 2}, Y: Axis{"timeout-ms", 1000, 2000, 2}, Seeds: 1})
	require.NoError(t, err)
	assert.Equal(t, "sale_rps", m.Spec.X.Knob)
	assert.Equal(t, "timeout_ms", m.Spec.Y.Knob)
}
