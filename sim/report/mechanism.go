package report

import (
	"errors"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
)

// The mechanism: the three pictures the post argues from, drawn from a
// run's series (sim.Result.Series). The queue grows until it holds more
// work than the client waits ("a queue of 200 is 2 seconds of waiting");
// the workers keep finishing at capacity while the answers in time fall to
// nothing; with retries, attempts arrive at several times the capacity.
// Each chart has its table and one sentence that quotes the run.

// Mechanism is a run's series as three charts: the queue, the work done,
// and, when clients retry, the attempts.
type Mechanism struct {
	// StepS is the series' step, in seconds.
	StepS float64 `json:"step_s"`
	// Queue is the queue as seconds of work at full capacity, with the
	// oldest wait in it, against the client's timeout and the queue's
	// bound.
	Queue SeriesChart `json:"queue"`
	// Work is the requests finished a second (throughput) against those
	// answered in time (goodput), and the capacity.
	Work SeriesChart `json:"work"`
	// Attempts is the attempts arriving a second, first attempts and
	// retries, against the capacity; nil when clients do not retry.
	Attempts *SeriesChart `json:"attempts,omitempty"`
	// Limit is an adaptive limit and the requests in flight, against the
	// workers; nil for a policy without one.
	Limit *SeriesChart `json:"limit,omitempty"`
}

// SeriesChart is one chart of a series, in the units of an SVG viewBox of
// Width x Height, the sale (or the incident) shaded.
type SeriesChart struct {
	// Key names the chart: "queue", "work", "attempts" or "limit", for a
	// page's ids.
	Key    string  `json:"key"`
	Title  string  `json:"title"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	// Plot is the area inside the axes; Band the shaded sale, zero-sized
	// when the run has none.
	Plot Rect `json:"plot"`
	Band Rect `json:"band"`
	// Curves are the lines, each a step a point (one value a step, drawn
	// flat across it).
	Curves []Curve `json:"curves"`
	// Marks are horizontal lines across the plot: the timeout, the bound,
	// the capacity.
	Marks  []Mark `json:"marks"`
	XTicks []Tick `json:"x_ticks"`
	YTicks []Tick `json:"y_ticks"`
	// YUnit is what the y axis counts: "s of work", "per second".
	YUnit string `json:"y_unit"`
	// Break is where the y axis breaks, its gap's top and bottom, in
	// viewBox units (both 0 for an axis that does not): the queue's chart
	// keeps its lower part to a few times the timeout, so that the timeout
	// stays readable, and draws from the break to the top the rest of the
	// way to the peak, squeezed, rather than cutting the curve off.
	Break Span `json:"break,omitzero"`
	// Sentence says what the chart shows of this run, with its numbers.
	Sentence string `json:"sentence"`
	// Table is the chart's numbers, a row a step.
	Table Table `json:"table"`
}

// Curve is one line of a SeriesChart.
type Curve struct {
	// Kind is "queue", "oldest_wait", "throughput", "goodput", "attempts"
	// or "first_attempts".
	Kind  string `json:"kind"`
	Label string `json:"label"`
	// Path is SVG path data in viewBox units: "M56,192H58V190H60...".
	Path string `json:"path"`
	// Max is the curve's largest value, in the y axis's units.
	Max float64 `json:"max"`
}

// Mark is a horizontal reference line of a SeriesChart.
type Mark struct {
	// Kind is "timeout", "bound" or "capacity".
	Kind  string  `json:"kind"`
	Label string  `json:"label"`
	Y     float64 `json:"y"`
	// Value is where it is, in the y axis's units.
	Value float64 `json:"value"`
}

// BuildMechanism lays out r's series; ok is false when r has none (its
// Config did not ask: sim.Config.SeriesStepS).
func BuildMechanism(r sim.Result) (m Mechanism, ok bool) {
	charts := MechanismCharts(r)
	if charts == nil {
		return Mechanism{}, false
	}
	m = Mechanism{StepS: r.Series.StepS, Queue: charts[0](), Work: charts[1]()}
	for _, f := range charts[2:] {
		ch := f()
		switch ch.Key {
		case "attempts":
			m.Attempts = &ch
		case "limit":
			m.Limit = &ch
		}
	}
	return m, true
}

// MechanismCharts are BuildMechanism's charts of r, each laid out when
// called, in its order: the queue, the work, the attempts when clients
// retry, and the limit for a policy with one; none when r has no series. A page lays out one a task: an hour's
// chart is a few thousand numbers written for its table.
func MechanismCharts(r sim.Result) []func() SeriesChart {
	if r.Series == nil || len(r.Series.Points) == 0 {
		return nil
	}
	charts := []func() SeriesChart{func() SeriesChart { return queueChart(r) }, func() SeriesChart { return workChart(r) }}
	if r.Config.Retries > 0 {
		charts = append(charts, func() SeriesChart { return attemptsChart(r) })
	}
	if r.Limit != nil {
		charts = append(charts, func() SeriesChart { return limitChart(r) })
	}
	return charts
}

// stepLen is the length of point k, in seconds: the step, or less for the
// last.
func stepLen(r sim.Result, k int) float64 {
	p := r.Series.Points[k]
	return min(p.StartS+r.Series.StepS, r.Config.DurationS) - p.StartS
}

// rate is n events in point k, per second.
func rate(r sim.Result, k, n int) float64 { return float64(n) / stepLen(r, k) }

// Span is a stretch of an axis, from From to To, in viewBox units.
type Span struct {
	From float64 `json:"from"`
	To   float64 `json:"to"`
}

// seriesFrame is a SeriesChart's frame: size, plot, band, x ticks, and a
// y axis from 0 to at least top; broken, when peak is above yMax, from
// yMax to peak above the break.
type seriesFrame struct {
	r    sim.Result
	yMax float64
	peak float64 // the top of the axis above its break; 0 for none
}

// The broken axis: the share of the plot's height below the break, and
// the break's gap, in viewBox units.
const (
	belowBreak = 0.78
	breakGap   = 6.0
)

func newFrame(r sim.Result, top float64) seriesFrame {
	return seriesFrame{r: r, yMax: niceCeil(top)}
}

// breakAt breaks f's axis at most, when peak is above it: the axis keeps
// 0 to most below the break and runs above it to the first multiple of a
// round step (niceCeil of a fifth of peak) at or above peak: 27.7 s of
// work tops at 30 s, 594 s at 600 s.
func (f *seriesFrame) breakAt(most, peak float64) {
	f.yMax = min(f.yMax, most)
	if peak > f.yMax {
		step := niceCeil(peak / 5)
		f.peak = max(float64(math.Ceil(peak/step*(1-1e-12))*step), f.yMax+step)
	}
}

func (f seriesFrame) x(s float64) float64 {
	return marginL + float64(float64(s/f.r.Config.DurationS)*plotW)
}

func (f seriesFrame) y(v float64) float64 {
	if f.peak == 0 {
		return marginT + plotH - float64(float64(min(v, f.yMax)/f.yMax)*plotH)
	}
	low := float64(plotH * belowBreak)
	if v <= f.yMax {
		return marginT + plotH - float64(float64(v/f.yMax)*low)
	}
	top := marginT + plotH - low - breakGap // the upper part's bottom
	return top - float64(float64((min(v, f.peak)-f.yMax)/(f.peak-f.yMax))*(top-marginT))
}

// brk is f's break: its gap on the y axis, or none.
func (f seriesFrame) brk() Span {
	if f.peak == 0 {
		return Span{}
	}
	bottom := marginT + plotH - float64(plotH*belowBreak)
	return Span{From: bottom - breakGap, To: bottom}
}

// chart starts a SeriesChart in f, with its axes and band; its y axis
// names what it counts, unit, and writes its labels as axis does.
func (f seriesFrame) chart(key, title, unit string, axis axisFormat) SeriesChart {
	c := f.r.Config
	ch := SeriesChart{Key: key, Title: title, Width: chartW, Height: chartH, Plot: Rect{marginL, marginT, plotW, plotH}, YUnit: unit}
	if HasBand(c) {
		from, to := c.PeopleStartS(), min(c.PeopleEndS(), c.DurationS)
		ch.Band = Rect{X: f.x(from), Y: marginT, W: f.x(to) - f.x(from), H: plotH}
	}
	step := secondsPerTickWanted
	for c.DurationS/step > 10 {
		step *= 2
	}
	for c.DurationS/step < 3 && step > 10 {
		step /= 2
	}
	for s := 0.0; s <= c.DurationS; s += step {
		ch.XTicks = append(ch.XTicks, Tick{f.x(s), Seconds(s)})
	}
	top := max(f.yMax, f.peak)
	for _, v := range []float64{0, f.yMax / 2, f.yMax} {
		ch.YTicks = append(ch.YTicks, Tick{f.y(v), axis.label(v, top)})
	}
	if f.peak > 0 {
		ch.YTicks = append(ch.YTicks, Tick{f.y(f.peak), axis.label(f.peak, top)})
		ch.Break = f.brk()
	}
	return ch
}

// curve draws value(k) for every point as a step line.
func (f seriesFrame) curve(kind, label string, value func(k int) float64) Curve {
	pts := f.r.Series.Points
	var b strings.Builder
	most := 0.0
	for k, p := range pts {
		v := value(k)
		most = max(most, v)
		y := coord(f.y(v))
		if k == 0 {
			b.WriteString("M" + coord(f.x(p.StartS)) + "," + y)
		} else {
			b.WriteString("V" + y)
		}
		b.WriteString("H" + coord(f.x(p.StartS+stepLen(f.r, k))))
	}
	return Curve{Kind: kind, Label: label, Path: b.String(), Max: most}
}

// queueAxisMarks is how many times the larger of the timeout and the
// bound the queue chart's y axis holds, at most (then niceCeil).
const queueAxisMarks = 4

// clipped notes in cv's label when value goes above the axis's break,
// where and how far: "; above the break from 4 s into the sale, at most
// 594 s".
func (f seriesFrame) clipped(cv Curve, value func(k int) float64, unit func(float64) string) Curve {
	if !(cv.Max > f.yMax) {
		return cv
	}
	for k, p := range f.r.Series.Points {
		if value(k) > f.yMax {
			cv.Label += fill("; above the break from %s, at most %s", when(f.r.Config, p.StartS), unit(cv.Max))
			break
		}
	}
	return cv
}

func (f seriesFrame) mark(kind, label string, v float64) Mark {
	return Mark{Kind: kind, Label: label, Y: f.y(v), Value: v}
}

// coord writes a viewBox coordinate to two decimals, without trailing
// zeros.
func coord(v float64) string {
	s := strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
	if s == "-0" {
		return "0"
	}
	return s
}

// niceCeil is the smallest of 1, 2, 2.5 and 5 times a power of ten at or
// above x (and 1 for x of 0 or less): an axis's top.
func niceCeil(x float64) float64 {
	if !(x > 0) {
		return 1
	}
	p := 1.0 // the power of ten at or below x, by steps that round the same everywhere
	for float64(p*10) <= x {
		p = float64(p * 10)
	}
	for p > x {
		p /= 10
	}
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if v := float64(m * p); v >= x*(1-1e-12) {
			return v
		}
	}
	return 10 * p
}

// perSecond is a rate in full, for a table, a legend or a mark: "100/s",
// "10,000/s".
func perSecond(v float64) string { return Number(v, 1) + "/s" }

// workSeconds is seconds of work in full, for a table or a legend: "2 s".
func workSeconds(v float64) string { return Number(v, 2) + " s" }

// axisFormat is how a series chart's y axis writes its labels: a number
// to at most decimals places, then unit ("/s", " s", or none for a
// count).
type axisFormat struct {
	decimals int
	unit     string
}

// The series charts' y axes: a rate, seconds of work, and a count.
var (
	rateAxis  = axisFormat{1, "/s"}
	workAxis  = axisFormat{2, " s"}
	countAxis = axisFormat{0, ""}
)

// compactAxis is the top at and above which an axis writes its labels in
// thousands or millions. A y axis's labels have the chart's left margin
// and the page's, about 45 px on a 390 px phone, at 12 px whatever the
// chart's size: "5,000/s" took them all and touched the screen's left
// edge, "20,000/s" ran 7.7 px past it, "20k/s" is 33 px.
const compactAxis = 1_000

// label is v's label on an axis whose top is top: in full ("2,500/s"),
// as perSecond and workSeconds write it, on an axis below compactAxis,
// and on one at or above it, in thousands from 1,000 ("5k/s", "12.5k/s")
// and in millions from 1,000,000 ("1.25M/s"). A label below 1,000 stays
// in full, as the part of a broken axis below its break does ("4 s").
// The charts' tables, legends and marks keep the full figures.
func (a axisFormat) label(v, top float64) string {
	switch {
	case top < compactAxis || v < 1e3:
		return Number(v, a.decimals) + a.unit
	case v < 1e6:
		return Number(v/1e3, 2) + "k" + a.unit
	default:
		return Number(v/1e6, 2) + "M" + a.unit
	}
}

// queueChart is the queue as seconds of work: the most waiting in each
// step over the capacity, and the oldest wait, against the timeout and,
// for the bounded and priority policies, the bound.
func queueChart(r sim.Result) SeriesChart {
	c, s := r.Config, r.Series
	capacity := s.CapacityRPS
	timeout := c.TimeoutMS / 1000
	work := func(k int) float64 { return float64(s.Points[k].Queue) / capacity }
	wait := func(k int) float64 { return s.Points[k].OldestWaitMS / 1000 }
	top := timeout
	for k := range s.Points {
		top = max(top, work(k), wait(k))
	}
	bounded := c.Policy.Bounds()
	mark := timeout
	if bounded {
		top = max(top, c.QueueSeconds())
		mark = max(mark, c.QueueSeconds())
	}
	f := newFrame(r, float64(top*1.05))
	// A queue that grows for minutes would put the timeout in the bottom
	// pixel: the axis keeps a few times the larger mark below a break,
	// and the rest of the way to the peak above it; a curve that goes
	// above the break says so in its label.
	f.breakAt(niceCeil(float64(queueAxisMarks*mark)), top)
	ch := f.chart("queue", c.Policy.Title()+": the queue, in seconds of work", "s of work", workAxis)
	ch.Curves = []Curve{
		f.clipped(f.curve("queue", "queue, as seconds of work at "+perSecond(capacity), work), work, workSeconds),
		f.clipped(f.curve("oldest_wait", "oldest wait in the queue", wait), wait, workSeconds),
	}
	ch.Marks = []Mark{f.mark("timeout", "the client's timeout, "+Duration(c.TimeoutMS), timeout)}
	if bounded {
		ch.Marks = append(ch.Marks, f.mark("bound", fill("the bound, %s, %s of work", requests(c.QueueBound()), Seconds(c.QueueSeconds())), c.QueueSeconds()))
	}
	ch.Sentence = queueSentence(r)
	ch.Table = Table{Header: []string{"Step", "Queue", "Work", "Oldest wait"}}
	for k, p := range s.Points {
		ch.Table.Rows = append(ch.Table.Rows, []string{stepLabel(r, k), Count(p.Queue), workSeconds(work(k)), Duration(p.OldestWaitMS)})
	}
	return ch
}

// rateCurve is one rate a second drawn against the capacity: its key, its
// legend and its value at point k.
type rateCurve struct {
	key, label string
	at         func(k int) float64
}

// rateChart is two rates a second against the capacity, on an axis that
// holds the higher one (hi) and the capacity: throughput against goodput,
// or attempts against first attempts. The caller adds the sentence and the
// table.
func rateChart(r sim.Result, key, title string, hi, lo rateCurve) SeriesChart {
	s := r.Series
	top := s.CapacityRPS
	for k := range s.Points {
		top = max(top, hi.at(k))
	}
	f := newFrame(r, float64(top*1.05))
	ch := f.chart(key, r.Config.Policy.Title()+": "+title, "per second", rateAxis)
	ch.Curves = []Curve{f.curve(hi.key, hi.label, hi.at), f.curve(lo.key, lo.label, lo.at)}
	ch.Marks = []Mark{f.mark("capacity", "capacity, "+perSecond(s.CapacityRPS), s.CapacityRPS)}
	return ch
}

// workChart is throughput against goodput, and the capacity.
func workChart(r sim.Result) SeriesChart {
	s := r.Series
	done := func(k int) float64 { return rate(r, k, s.Points[k].Completed) }
	good := func(k int) float64 { return rate(r, k, s.Points[k].Answered) }
	ch := rateChart(r, "work", "finished and answered in time",
		rateCurve{"throughput", "finished a second (throughput)", done},
		rateCurve{"goodput", "answered in time a second (goodput)", good})
	ch.Sentence = workSentence(r)
	ch.Table = Table{Header: []string{"Step", "Finished a second", "Answered in time a second", "Workers wasted"}}
	for k, p := range s.Points {
		ch.Table.Rows = append(ch.Table.Rows, []string{stepLabel(r, k), perSecond(done(k)), perSecond(good(k)), Number(p.BusyWasted, 1)})
	}
	return ch
}

// attemptsChart is the attempts arriving, all and first, against the
// capacity.
func attemptsChart(r sim.Result) SeriesChart {
	s := r.Series
	all := func(k int) float64 { return rate(r, k, s.Points[k].FirstAttempts+s.Points[k].Retries) }
	first := func(k int) float64 { return rate(r, k, s.Points[k].FirstAttempts) }
	ch := rateChart(r, "attempts", "attempts arriving",
		rateCurve{"attempts", "attempts a second, retries included", all},
		rateCurve{"first_attempts", "first attempts a second", first})
	ch.Sentence = attemptsSentence(r)
	ch.Table = Table{Header: []string{"Step", "Attempts a second", "First attempts", "Retries"}}
	for k := range s.Points {
		ch.Table.Rows = append(ch.Table.Rows, []string{stepLabel(r, k), perSecond(all(k)), perSecond(first(k)), perSecond(all(k) - first(k))})
	}
	return ch
}

// limitChart is an adaptive limit and the requests in flight at each
// step's end, against the workers: in flight over the workers are queued.
func limitChart(r sim.Result) SeriesChart {
	c, s := r.Config, r.Series
	inFlight := func(k int) float64 { return float64(s.Points[k].InFlight) }
	top := float64(c.Workers)
	for k, p := range s.Points {
		top = max(top, inFlight(k))
		if p.Limit < sim.NoLimit {
			top = max(top, float64(p.Limit))
		}
	}
	// a limit that sheds nothing now (the BBR limits', rule 39) is drawn
	// along the top
	limit := func(k int) float64 { return min(top, float64(s.Points[k].Limit)) }
	f := newFrame(r, float64(top*1.05))
	ch := f.chart("limit", c.Policy.Title()+": the limit, and the requests in flight", "requests", countAxis)
	ch.Curves = []Curve{f.curve("limit", "the limit", limit), f.curve("in_flight", "requests in flight, queued or in service", inFlight)}
	ch.Marks = []Mark{f.mark("capacity", fill("the workers, %s", Count(c.Workers)), float64(c.Workers))}
	ch.Sentence = LimitSentence(r)
	ch.Table = Table{Header: []string{"Step", "Limit", "In flight"}}
	for k, p := range s.Points {
		ch.Table.Rows = append(ch.Table.Rows, []string{stepLabel(r, k), limitCount(p.Limit), Count(p.InFlight)})
	}
	return ch
}

// stepLabel is point k's row label, "60 s to 61 s", with the band marked.
func stepLabel(r sim.Result, k int) string {
	p := r.Series.Points[k]
	label := Seconds(p.StartS) + " to " + Seconds(p.StartS+stepLen(r, k))
	if InBand(r.Config, p.StartS) {
		label += " (" + bandMark(r.Config) + ")"
	}
	return label
}

// when says when time t s falls, for a sentence: "4 s into the sale", "30 s
// after the sale ended", "at 45 s" (before the band, or with none).
func when(c sim.Config, t float64) string {
	if !HasBand(c) || t < c.PeopleStartS() {
		return "at " + Seconds(t)
	}
	if t <= c.PeopleEndS() {
		return Seconds(t-c.PeopleStartS()) + " into " + Trigger(c)
	}
	ended := Trigger(c) // "the sale"
	if IncidentOnly(c) {
		ended = incidentNoun(c) // "the loss", not "the loss of 3 workers" again
	}
	return Seconds(t-c.PeopleEndS()) + " after " + ended + " ended"
}

// inBandSteps are the indexes of the points wholly inside the band (the
// sale), or every point when there is none.
func inBandSteps(r sim.Result) []int {
	c := r.Config
	var out []int
	for k, p := range r.Series.Points {
		if !HasBand(c) || (p.StartS >= c.PeopleStartS() && p.StartS+stepLen(r, k) <= c.PeopleEndS()) {
			out = append(out, k)
		}
	}
	return out
}

// overBand is "During the sale", or "Over the run" when there is no band.
func overBand(c sim.Config) string {
	if !HasBand(c) {
		return "Over the run"
	}
	return "During " + Trigger(c)
}

// queueSentence: when the queue first held a timeout's worth of work, how
// long it held more, and its most; or that it never did.
func queueSentence(r sim.Result) string {
	c, s := r.Config, r.Series
	timeout := c.TimeoutMS / 1000
	work := func(k int) float64 { return float64(s.Points[k].Queue) / s.CapacityRPS }
	peak := 0
	for k, p := range s.Points {
		if p.Queue > s.Points[peak].Queue {
			peak = k
		}
	}
	first, last := -1, -1
	for k := range s.Points {
		if work(k) >= timeout {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	most := s.Points[peak]
	if first < 0 {
		text := fill("The queue never held more than %s of work (%s)", workSeconds(work(peak)), requests(most.Queue))
		if (c.Policy.Bounds()) && most.Queue >= c.QueueBound() {
			text += ", its bound"
		}
		return text + fill(", under the %s the client waits.", Duration(c.TimeoutMS))
	}
	end := func(k int) float64 { return s.Points[k].StartS + stepLen(r, k) }
	text := fill("By %s the queue held %s of work (%s), more than the %s the client waits",
		when(c, end(first)), workSeconds(work(first)), requests(s.Points[first].Queue), Duration(c.TimeoutMS))
	if last == len(s.Points)-1 {
		text += "; it still did when the run ended"
	} else {
		text += fill("; it did until %s", when(c, end(last)))
	}
	return text + fill(", and held at most %s (%s), %s.", workSeconds(work(peak)), requests(most.Queue), when(c, end(peak)))
}

// workSentence: the throughput and goodput of the sale, and the longest
// time the workers were busy answering nobody in time.
func workSentence(r sim.Result) string {
	c, s := r.Config, r.Series
	steps := inBandSteps(r)
	var done, good int
	var span float64
	for _, k := range steps {
		done += s.Points[k].Completed
		good += s.Points[k].Answered
		span += stepLen(r, k)
	}
	if span == 0 {
		return "The run has no whole step inside " + Trigger(c) + "."
	}
	thr, gp := float64(done)/span, float64(good)/span
	capacity := s.CapacityRPS
	text := fill("%s the workers finished %s a second", overBand(c), Number(thr, 1))
	if thr >= float64(0.95*capacity) {
		text += ", their capacity,"
	} else {
		text += fill(" (their capacity is %s)", Number(capacity, 1))
	}
	text += fill(" and answered %s a second in time", Number(gp, 1))

	// The longest run of steps in which the workers finished requests but
	// answered none in time.
	bestFrom, bestTo, from := -1, -1, -1
	for k, p := range s.Points {
		if p.Completed > 0 && p.Answered == 0 {
			if from < 0 {
				from = k
			}
			if bestFrom < 0 || k-from > bestTo-bestFrom {
				bestFrom, bestTo = from, k
			}
		} else {
			from = -1
		}
	}
	switch {
	case bestFrom >= 0 && bestTo > bestFrom:
		end := s.Points[bestTo].StartS + stepLen(r, bestTo)
		if bestTo == len(s.Points)-1 {
			text += fill("; from %s to the end of the run they answered nobody in time", when(c, s.Points[bestFrom].StartS))
		} else {
			text += fill("; from %s to %s they answered nobody in time", when(c, s.Points[bestFrom].StartS), when(c, end))
		}
	case r.Wasted == 0:
		text += "; every request they finished was answered in time"
	}
	return text + "."
}

// attemptsSentence: the attempts arriving during the sale and after it,
// against the capacity, and the share that were retries.
func attemptsSentence(r sim.Result) string {
	c, s := r.Config, r.Series
	rates := func(keep func(k int) bool) (all, retries float64, ok bool) {
		var n, m int
		var span float64
		for k, p := range s.Points {
			if keep(k) {
				n += p.FirstAttempts + p.Retries
				m += p.Retries
				span += stepLen(r, k)
			}
		}
		if span == 0 {
			return 0, 0, false
		}
		return float64(n) / span, float64(m) / span, true
	}
	capacity := Number(s.CapacityRPS, 1)
	inBand := map[int]bool{}
	for _, k := range inBandSteps(r) {
		inBand[k] = true
	}
	all, retries, ok := rates(func(k int) bool { return inBand[k] })
	if !ok {
		return "The run has no whole step inside " + Trigger(c) + "."
	}
	text := fill("%s %s attempts a second arrived, %s of them retries, against a capacity of %s",
		overBand(c), Number(all, 1), Number(retries, 1), capacity)
	if HasBand(c) {
		after, afterRetries, ok := rates(func(k int) bool { return s.Points[k].StartS >= c.PeopleEndS() })
		if ok {
			text += fill("; after it, %s a second, %s of them retries", Number(after, 1), Number(afterRetries, 1))
		}
	}
	return text + "."
}

// SeriesTable is r's series as one table, a row a step, for the command
// line: the queue, the workers' time, the attempts and the work done.
func SeriesTable(r sim.Result) Table {
	t := Table{Header: []string{"Step", "Queue", "Work", "Oldest wait", "Useful", "Wasted", "Refusing",
		"First/s", "Retries/s", "Finished/s", "Answered/s"}}
	s := r.Series
	for k, p := range s.Points {
		t.Rows = append(t.Rows, []string{stepLabel(r, k), Count(p.Queue), workSeconds(float64(p.Queue) / s.CapacityRPS), Duration(p.OldestWaitMS),
			Number(p.BusyUseful, 1), Number(p.BusyWasted, 1), Number(p.BusyRefusing, 1),
			perSecond(rate(r, k, p.FirstAttempts)), perSecond(rate(r, k, p.Retries)),
			perSecond(rate(r, k, p.Completed)), perSecond(rate(r, k, p.Answered))})
	}
	return t
}

// WriteSeries writes r's series for the command line: what it is, the
// charts' sentences, then SeriesTable. r must have a series.
func WriteSeries(w io.Writer, r sim.Result) error {
	m, ok := BuildMechanism(r)
	if !ok {
		return errors.New("report: the Result has no series: set sim.Config.SeriesStepS")
	}
	var b strings.Builder
	b.WriteString(fill("%s, every %s: the queue (most waiting at once, and as seconds of work at %s), its oldest wait, "+
		"the workers busy with useful, wasted and refusing work (mean over the step), and a second: first attempts, retries, finished and answered in time.\n\n",
		r.Config.Policy.Title(), Seconds(m.StepS), perSecond(r.Series.CapacityRPS)))
	for _, ch := range []*SeriesChart{&m.Queue, &m.Work, m.Attempts} {
		if ch != nil {
			b.WriteString(ch.Sentence + "\n")
		}
	}
	b.WriteString("\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	_, err := SeriesTable(r).WriteTo(w)
	return err
}
