package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/sweep"
)

// retrySweep is the unbounded queue and the bounded one with a retry,
// over sale rates the unbounded queue does not get back from.
func retrySweep(t *testing.T) sweep.Sweep {
	t.Helper()
	base := sim.DefaultConfig()
	base.Retries = 1
	sw, err := sweep.Run(sweep.Spec{Base: base, Knob: "sale_rps", From: 100, To: 200, Steps: 5, Seeds: 3, Below: 0.5,
		Policies: []sim.Policy{sim.FIFO, sim.Bounded}})
	require.NoError(t, err)
	return sw
}

func TestSweepChart(t *testing.T) {
	sw := retrySweep(t)
	ch := Sweep(sw)
	require.Len(t, ch.Curves, 2, "a curve per policy")
	p := ch.Plot
	for ci, cv := range ch.Curves {
		require.Len(t, cv.Runs, 1, "every step measured: one run of points")
		pts := cv.Runs[0]
		require.Len(t, pts, 5)
		for i, pt := range pts {
			o := sw.Curves[ci].Steps[i].Answered
			assert.InDelta(t, p.Y+p.H-o.Mean*p.H, pt.Y, 1e-9, "the point's height is its mean answered share")
			assert.True(t, pt.High <= pt.Y && pt.Y <= pt.Low, "the band is either side of the mean (%v..%v around %v)", pt.High, pt.Low, pt.Y)
			assert.True(t, pt.High >= p.Y && pt.Low <= p.Y+p.H, "the band is held to the plot")
			assert.Equal(t, KnobValue(sw.Values[i]), pt.Set, "a point sets its own value")
			assert.Contains(t, pt.Label, "answered, ", "its tooltip quotes the answered share and the seeds back")
		}
		assert.InDelta(t, p.X, pts[0].X, 1e-9, "the first value at the left edge")
		assert.InDelta(t, p.X+p.W, pts[4].X, 1e-9, "the last at the right edge")
	}
	fifo := ch.Curves[0]
	require.Len(t, sw.Curves[0].Flips, 1, "the unbounded queue with a retry stops getting back within the range")
	f := sw.Curves[0].Flips[0]
	require.Len(t, fifo.Flips, 1)
	x := func(v float64) float64 { return p.X + (v-100)/100*p.W }
	assert.True(t, fifo.Flips[0].X > x(f.From) && fifo.Flips[0].X < x(f.To), "the flip is marked between its two steps")
	assert.Contains(t, fifo.Flips[0].Label, "most seeds stop getting back to normal")
	assert.InDelta(t, p.Y+p.H/2, ch.Below, 1e-9, "the threshold, half the sale, halfway up")
	assert.Equal(t, "now 150/s", ch.NowLabel, "the base's own sale rate is in the range")
	assert.InDelta(t, x(150), ch.Now, 1e-9)
	assert.Equal(t, "sale_rps (/s)", ch.XLabel)
	assert.Equal(t, "100", ch.XTicks[0].Label)
	assert.Equal(t, "200", ch.XTicks[len(ch.XTicks)-1].Label)

	out := sw
	out.Spec.Base.SaleRPS = 90
	assert.Empty(t, Sweep(out).NowLabel, "a base value outside the range is not marked")
}

// TestSweepEnds: each curve is named at its right end, beside its last
// point, and where curves end near-equal (every policy's answered share
// at a sale the service keeps up with) the names are moved apart rather
// than written over one another, each still inside the plot's height.
func TestSweepEnds(t *testing.T) {
	sw, err := sweep.Run(sweep.Spec{Base: sim.DefaultConfig(), Knob: "sale_rps", From: 80, To: 100, Steps: 2, Seeds: 2, Below: 0.5})
	require.NoError(t, err)
	ch := Sweep(sw)
	require.Len(t, ch.Curves, len(sim.Policies))
	p := ch.Plot
	var ys []float64
	for i, cv := range ch.Curves {
		assert.Equal(t, sim.Policies[i].Short(), cv.End.Label, "the curve's name")
		assert.Greater(t, cv.End.X, p.X+p.W, "right of the plot")
		assert.True(t, cv.End.Y >= p.Y && cv.End.Y <= ch.Height-8, "inside the chart, beside the plot: %v", cv.End.Y)
		ys = append(ys, cv.End.Y)
	}
	last := ch.Curves[0].Runs[0]
	require.Less(t, last[len(last)-1].Y-p.Y, sweepEndGap, "the curves end near the top together, as this test needs")
	slices.Sort(ys)
	for i := 1; i < len(ys); i++ {
		assert.GreaterOrEqual(t, ys[i]-ys[i-1], sweepEndGap-1e-9, "no two names overlap: %v", ys)
	}
}

func TestSweepSentence(t *testing.T) {
	sw := retrySweep(t)
	got := SweepSentence(sw)
	f := sw.Curves[0].Flips[0]
	assert.True(t, strings.HasPrefix(got, "Over sale_rps from 100 to 200/s (seeds 1 to 3 at every step): the unbounded queue stops getting back to normal in most seeds between "+
		KnobValue(f.From)+" and "+KnobValue(f.To)+"/s"), got)
	assert.Contains(t, got, "; the bounded queue gets back to normal in most seeds at every step", "the bounded queue sheds instead")
	part := sw
	part.Curves = []sweep.Curve{{Policy: sim.FIFO, Steps: make([]sweep.Outcome, 5)}}
	assert.Empty(t, SweepSentence(part), "nothing measured, nothing quoted")
}

// TestSweepSentenceSoFar: until the last setting arrives, the sentence
// says how many are in, and a conclusion "at every step" is only of the
// steps measured (issue 28: a widget said the unbounded queue got back
// at every step with 3 of 24 settings in). The settings arrive in the
// plan's order, policy by policy, as the page's workers send them.
func TestSweepSentenceSoFar(t *testing.T) {
	sw := retrySweep(t)
	var outs []sweep.Outcome
	for _, cv := range sw.Curves {
		outs = append(outs, cv.Steps...)
	}
	for _, c := range []struct {
		name, reason string
		done         int // the first settings of the plan measured
		prefix       string
		has, hasNot  []string
	}{
		{"one", "the first setting in: the unbounded queue at 100/s gets back", 1,
			"So far, 1 of 10 settings: over sale_rps from 100 to 200/s", []string{"the unbounded queue gets back to normal in most seeds at every step measured."},
			[]string{"the bounded queue"}},
		{"nine", "9 of 10 in: still so far", 9,
			"So far, 9 of 10 settings: over sale_rps", []string{"the bounded queue gets back to normal in most seeds at every step measured."}, nil},
		{"all", "every setting in: the sentence is final", 10,
			"Over sale_rps", []string{"the bounded queue gets back to normal in most seeds at every step."}, []string{"So far", "measured"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			part := make([]sweep.Outcome, len(outs))
			copy(part, outs[:c.done])
			got := SweepSentence(sw.Spec.Assemble(part))
			assert.True(t, strings.HasPrefix(got, c.prefix), "%s: %s", c.reason, got)
			for _, w := range c.has {
				assert.Contains(t, got, w, c.reason)
			}
			for _, w := range c.hasNot {
				assert.NotContains(t, got, w, c.reason)
			}
		})
	}
}

// TestMapSentenceSoFar: a map's sentence says how many cells are in
// until the last arrives.
func TestMapSentenceSoFar(t *testing.T) {
	spec := sweep.MapSpec{Base: sim.DefaultConfig(), X: sweep.Axis{Knob: "sale_rps", From: 100, To: 200, Steps: 3},
		Y: sweep.Axis{Knob: "retries", From: 0, To: 1, Steps: 2}, Seeds: 2}
	m, err := sweep.RunMap(spec)
	require.NoError(t, err)
	var outs []sweep.Outcome
	for _, row := range m.Cells {
		outs = append(outs, row...)
	}
	part := make([]sweep.Outcome, len(outs))
	copy(part, outs[:2])
	assert.True(t, strings.HasPrefix(MapSentence(spec.Assemble(part)), "So far, 2 of 6 cells: the unbounded queue, seeds 1 to 2 in each cell: "),
		"2 of 6 cells in: %s", MapSentence(spec.Assemble(part)))
	assert.True(t, strings.HasPrefix(MapSentence(spec.Assemble(outs)), "The unbounded queue, seeds 1 to 2 in each cell: "),
		"every cell in: %s", MapSentence(spec.Assemble(outs)))
}

func TestSweepMarks(t *testing.T) {
	cv := sweep.Curve{Flips: []sweep.Mark{{From: 115, To: 120}, {From: 130, To: 135, Now: true}}, Crossings: []sweep.Mark{{From: 140, To: 145}}}
	assert.Equal(t, []string{"From 115 to 120 most seeds stop getting back to normal.", "From 130 to 135 most seeds start getting back to normal.",
		"From 140 to 145 the answered share falls below 50.0%."}, SweepMarks(cv, 0.5))
}

func TestMapChart(t *testing.T) {
	base := sim.DefaultConfig()
	m, err := sweep.RunMap(sweep.MapSpec{Base: base, X: sweep.Axis{Knob: "sale_rps", From: 100, To: 200, Steps: 3},
		Y: sweep.Axis{Knob: "retries", From: 0, To: 2, Steps: 3}, Seeds: 2})
	require.NoError(t, err)
	ch := Map(m)
	require.Len(t, ch.Cells, 9)
	p := ch.Plot
	first, last := ch.Cells[0], ch.Cells[8]
	assert.InDelta(t, p.X, first.X, 1e-9, "the first column at the left")
	assert.InDelta(t, p.Y+p.H, first.Y+first.H, 1e-9, "Y's first value at the bottom")
	assert.InDelta(t, p.Y, last.Y, 1e-9, "its last at the top")
	assert.Equal(t, "200", last.SetX)
	assert.Equal(t, "2", last.SetY)
	for i, c := range ch.Cells {
		o := m.Cells[i/3][i%3]
		assert.Equal(t, BackClass(o), c.Class)
		assert.Contains(t, c.Label, "; recovered after the sale (90% answered again) in ", "its tooltip")
	}
	assert.Contains(t, ch.Cells[0].Label, "sale_rps 100/s, 0 retries: ")
	assert.True(t, strings.HasSuffix(ch.Cells[0].Label, " of the sale's people answered; recovered after the sale (90% answered again) in 2 of 2 seeds"), ch.Cells[0].Label)
	assert.Equal(t, "retries", ch.YLabel)
	assert.Equal(t, "now: sale_rps 150/s, 0 retries", ch.NowLabel, "the base's own cell is outlined")
	assert.Equal(t, ch.Cells[1].Rect, ch.Now)
	assert.Contains(t, ch.Summary, "The unbounded queue, seeds 1 to 2 in each cell: every seed recovered after the sale (90% answered again) in ")
	assert.Contains(t, ch.Summary, "; of the sale's people, ", "and what was answered")
}

// TestMapSaysWhatRecoveredAndWhatWasAnswered: the unbounded queue at
// 175/s with no retries recovers after the sale in every seed while it
// answers a few percent of the sale (issue 10's review: "back to normal in
// 3 of 3 seeds" read as "served"). The map's words say both, and the
// recovery in words that cannot be read as answered.
func TestMapSaysWhatRecoveredAndWhatWasAnswered(t *testing.T) {
	m, err := sweep.RunMap(sweep.MapSpec{Base: sim.DefaultConfig(), X: sweep.Axis{Knob: "sale_rps", From: 175, To: 200, Steps: 2},
		Y: sweep.Axis{Knob: "retries", From: 0, To: 1, Steps: 2}, Seeds: 3})
	require.NoError(t, err)
	o := m.Cells[0][0]
	require.Equal(t, 3, o.Back(), "every seed recovers at 175/s, no retries")
	require.Less(t, o.Answered.Mean, 0.1, "while the sale is barely answered")
	ch := Map(m)
	label := ch.Cells[0].Label
	assert.Equal(t, "sale_rps 175/s, 0 retries: "+Percent(o.Answered.Mean)+" of the sale's people answered; recovered after the sale (90% answered again) in 3 of 3 seeds", label,
		"the answered share first, then what recovered")
	for _, words := range []string{label, ch.Summary, ch.Caption, MapSentence(m), MapCaption(m, "sale-rps", "retries", "down")} {
		assert.NotContains(t, words, "back to normal", "recovery is named as recovered after the sale: %q", words)
		assert.Contains(t, words, "answered", "each says what was answered too: %q", words)
	}
	assert.Contains(t, MapSentence(m), ", "+Percent(o.Answered.Mean)+" at most (at sale_rps 175/s, 0 retries).", "the most answered, and where")
}

func TestBackClass(t *testing.T) {
	cases := []struct {
		back, seeds int
		want        string
		reason      string
	}{
		{0, 0, "", "not measured yet"},
		{0, 10, "back-0", "none back"},
		{1, 10, "back-1", "a few"},
		{5, 10, "back-2", "half"},
		{9, 10, "back-3", "most but not all"},
		{10, 10, "back-4", "all"},
	}
	for _, tc := range cases {
		o := sweep.Outcome{Seeds: tc.seeds, Recovery: sweep.Recoveries{Normal: tc.back}}
		assert.Equal(t, tc.want, BackClass(o), tc.reason)
	}
}

func TestNiceTicks(t *testing.T) {
	assert.Equal(t, []float64{100, 125, 150, 175, 200, 225, 250}, niceTicks(100, 250, 6, false))
	assert.Equal(t, []float64{0, 0.5, 1, 1.5, 2, 2.5, 3}, niceTicks(0, 3, 6, false))
	assert.Equal(t, []float64{0, 1, 2, 3}, niceTicks(0, 3, 6, true), "a whole knob's ticks are whole")
	assert.Equal(t, "0", KnobValue(niceTicks(-2, 2, 4, false)[2]), "no tick reads -0")
	assert.Equal(t, []float64{7}, niceTicks(7, 7, 6, false), "a range of one value")
}

// TestSweepBelowLabelClear: the threshold's label is written where no
// ring or diamond is, at the largest size the page draws it (issue 28:
// "50.0% answered" lay under the unbounded queue's rings), and moves
// off its first place, the left end, when a mark is there.
func TestSweepBelowLabelClear(t *testing.T) {
	sw := retrySweep(t)
	ch := Sweep(sw)
	require.NotEmpty(t, ch.Curves[0].Below, "the unbounded queue crosses the threshold within the range, near the left")
	w := float64(len(ch.BelowLabel)) * labelCharW
	left := ch.BelowAt.X
	if ch.BelowAnchor == "end" {
		left -= w
	}
	top, bottom := ch.BelowAt.Y-0.8*labelEm, ch.BelowAt.Y+0.25*labelEm
	for _, cv := range ch.Curves {
		for _, m := range append(append([]ChartMark(nil), cv.Below...), cv.Flips...) {
			clear := m.X+markReach <= left || m.X-markReach >= left+w || m.Y+markReach <= top || m.Y-markReach >= bottom
			assert.True(t, clear, "the label (%v..%v across, %v..%v down) is clear of %s's mark at (%v, %v)", left, left+w, top, bottom, cv.Policy, m.X, m.Y)
		}
	}
	assert.NotEqual(t, Point{ch.Plot.X + labelPadding, ch.Below - 5}, ch.BelowAt, "a ring sits at the left end, above the line: the label moved")
	assert.True(t, ch.Now < left || ch.Now > left+w, "the label is clear of the value now's line")
}
