package report

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/sweep"
)

// This file is where a configuration tips, as people read it: the words
// of a sweep's and a map's tables (shared by the command line and the
// page), the sentence that quotes each, and the geometry of the page's
// two charts, a curve per policy over the knob and a grid of two knobs.

// KnobValue writes a knob's value for a table or a chart: at most 6
// significant digits, so that a step computed as 0.1 + 0.2 reads 0.3.
func KnobValue(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// ShareSpread is a mean share and its spread between seeds, "67.1 ±
// 0.9%", or "-" for a share of nobody in every seed.
func ShareSpread(s sweep.Stat) string {
	if s.N == 0 {
		return "-"
	}
	return strconv.FormatFloat(s.Mean*100, 'f', 1, 64) + " ± " + strconv.FormatFloat(s.SD*100, 'f', 1, 64) + "%"
}

// WaitSpread is a mean wait and its spread, "1,090 ± 12 ms", or "-".
func WaitSpread(s sweep.Stat) string {
	if s.N == 0 {
		return "-"
	}
	return Number(s.Mean, 0) + " ± " + Number(s.SD, 0) + " ms"
}

// Recoveries counts an Outcome's seeds by how they ended: "10 of 10
// back", "3 of 10 back, 7 backlog".
func Recoveries(o sweep.Outcome) string {
	s := strconv.Itoa(o.Back()) + " of " + strconv.Itoa(o.Seeds) + " back"
	r := o.Recovery
	for _, part := range []struct {
		n    int
		word string
	}{{r.Backlog, "backlog"}, {r.Stuck, "stuck"}, {r.Overloaded, "overloaded"}, {r.Throttled, "throttled"}, {r.Unmeasured, "unmeasured"}} {
		if part.n > 0 {
			s += ", " + strconv.Itoa(part.n) + " " + part.word
		}
	}
	return s
}

// MapCell is a map's cell for its table: the seeds back of those run and
// the mean answered share, "3/10 45.2%".
func MapCell(o sweep.Outcome) string {
	ans := "-"
	if o.Answered.N > 0 {
		ans = Percent(o.Answered.Mean)
	}
	return strconv.Itoa(o.Back()) + "/" + strconv.Itoa(o.Seeds) + " " + ans
}

// SweepMarks are the sentences under a curve's table: where most seeds
// stop (or start) getting back to normal, then where the answered share
// falls below (or rises to) below.
func SweepMarks(cv sweep.Curve, below float64) []string {
	var out []string
	for _, m := range cv.Flips {
		what := "most seeds stop getting back to normal"
		if m.Now {
			what = "most seeds start getting back to normal"
		}
		out = append(out, "From "+KnobValue(m.From)+" to "+KnobValue(m.To)+" "+what+".")
	}
	for _, m := range cv.Crossings {
		what := "falls below"
		if m.Now {
			what = "rises to"
		}
		out = append(out, "From "+KnobValue(m.From)+" to "+KnobValue(m.To)+" the answered share "+what+" "+Percent(below)+".")
	}
	return out
}

// SeedRange is "seeds 1 to 10", or "seed 1".
func SeedRange(first uint64, n int) string {
	if n == 1 {
		return "seed " + strconv.FormatUint(first, 10)
	}
	return "seeds " + strconv.FormatUint(first, 10) + " to " + strconv.FormatUint(first+uint64(n)-1, 10)
}

// DescribeBase is what a sweep's or a map's base Config simulates, as
// Describe says it, without its seed (the request's seeds are its own).
func DescribeBase(c sim.Config) string {
	return strings.TrimSuffix(Describe(c), ", seed "+strconv.FormatUint(c.Seed, 10))
}

// SweepCaption says what a sweep ran, its knob named knob (the command
// line's flag, or the page's key): "sale-rps from 100 to 250 in 31 steps,
// seeds 1 to 10 at every step; otherwise ... Mean ± standard deviation
// between seeds."
func SweepCaption(sw sweep.Sweep, knob string) string {
	s := sw.Spec
	return knob + " from " + KnobValue(s.From) + " to " + KnobValue(s.To) + " in " + strconv.Itoa(s.Steps) + " steps, " + SeedRange(s.Base.Seed, s.Seeds) +
		" at every step; otherwise " + DescribeBase(s.Base) + ". Mean ± standard deviation between seeds."
}

// MapCaption says what a map ran, its knobs named x and y, y going
// yDir ("down" in a table, "up" in a chart).
func MapCaption(m sweep.Map, x, y, yDir string) string {
	s := m.Spec
	return s.Base.Policy.Title() + ", " + x + " across and " + y + " " + yDir + ", " + SeedRange(s.Base.Seed, s.Seeds) +
		" in each cell: the seeds that " + mapRecovered(s.Base) + ", and the mean share of " + SalePeople(s.Base) + " answered; otherwise " + DescribeBase(s.Base) + "."
}

// mapRecovered is what a map's seed "back" did, in words that do not read
// as being answered: a map's cell may recover after the sale in every
// seed while it answers almost nobody during it (the unbounded queue at
// 175/s, no retries: 3 of 3 seeds recovered, 3.7% answered). "Back to
// normal" (MODEL.md's rule 17) is every window from some point after the
// sale answering at least 90% of its people.
func mapRecovered(base sim.Config) string {
	return "recovered after " + afterTrigger(base) + " (90% answered again)"
}

// SweepSentence quotes a sweep in one sentence: for each policy, where
// most seeds stop getting back to normal and where the answered share
// falls below the threshold, from the steps measured so far.
func SweepSentence(sw sweep.Sweep) string {
	s := sw.Spec
	k, err := sweep.ParseKnob(s.Knob)
	if err != nil {
		return ""
	}
	var parts []string
	done, total := 0, 0
	for _, cv := range sw.Curves {
		for _, o := range cv.Steps {
			total++
			if o.Seeds > 0 {
				done++
			}
		}
	}
	every, no := "at every step", "at no step"
	if done < total {
		every, no = "at every step measured", "at no step measured"
	}
	for _, cv := range sw.Curves {
		measured, back := 0, 0
		for _, o := range cv.Steps {
			if o.Seeds > 0 {
				measured++
				if o.MostlyBack() {
					back++
				}
			}
		}
		if measured == 0 {
			continue
		}
		var says []string
		for _, m := range cv.Flips {
			what := "stops getting back to normal in most seeds"
			if m.Now {
				what = "gets back to normal in most seeds"
			}
			says = append(says, what+" between "+KnobValue(m.From)+" and "+KnobValue(m.To)+k.Unit())
		}
		for _, m := range cv.Crossings {
			what := "answers under "
			if m.Now {
				what = "answers at least "
			}
			says = append(says, what+Percent(s.Below)+" of the sale between "+KnobValue(m.From)+" and "+KnobValue(m.To)+k.Unit())
		}
		if len(cv.Flips) == 0 {
			switch back {
			case measured:
				says = append(says, "gets back to normal in most seeds "+every)
			case 0:
				says = append(says, "gets back to normal in most seeds "+no)
			default: // steps measured apart, with none between them yet
				says = append(says, "gets back to normal in most seeds at "+Count(back)+" of "+Count(measured)+" steps measured")
			}
		}
		parts = append(parts, PolicyNoun(cv.Policy)+" "+strings.Join(says, " and "))
	}
	if len(parts) == 0 {
		return ""
	}
	return soFar(done, total, "settings", "Over ") + s.Knob + " from " + KnobValue(s.From) + " to " + KnobValue(s.To) + k.Unit() + " (" + SeedRange(s.Base.Seed, s.Seeds) +
		" at every step): " + strings.Join(parts, "; ") + "."
}

// soFar begins a sentence that quotes done of total measurements (a
// sweep's settings, a map's cells) with start, its first word; while
// some are still to come, it says so first ("So far, 3 of 24 settings:
// over"), so that no conclusion is read as final before the last
// measurement arrives.
func soFar(done, total int, what, start string) string {
	if done >= total {
		return start
	}
	return "So far, " + Count(done) + " of " + Count(total) + " " + what + ": " + strings.ToLower(start[:1]) + start[1:]
}

// MapSentence quotes a map in one sentence: in how many cells every seed
// recovered (got back to normal), in how many none did, and where none
// first did; then the least and the most of the sale answered, and where.
func MapSentence(m sweep.Map) string {
	s := m.Spec
	all, none, measured := 0, 0, 0
	first := ""
	var least, most string
	lo, hi := 2.0, -1.0
	kx, ex := sweep.ParseKnob(s.X.Knob)
	ky, ey := sweep.ParseKnob(s.Y.Knob)
	if ex != nil || ey != nil {
		return ""
	}
	for j, row := range m.Cells {
		for i, o := range row {
			if o.Seeds == 0 {
				continue
			}
			measured++
			if o.Answered.N > 0 && o.Answered.Mean < lo {
				lo, least = o.Answered.Mean, cellLabel(kx, ky, s.Base, m.Xs[i], m.Ys[j])
			}
			if o.Answered.N > 0 && o.Answered.Mean > hi {
				hi, most = o.Answered.Mean, cellLabel(kx, ky, s.Base, m.Xs[i], m.Ys[j])
			}
			switch o.Back() {
			case o.Seeds:
				all++
			case 0:
				none++
				if first == "" {
					first = cellLabel(kx, ky, s.Base, m.Xs[i], m.Ys[j])
				}
			}
		}
	}
	if measured == 0 {
		return ""
	}
	total := 0
	for _, row := range m.Cells {
		total += len(row)
	}
	out := soFar(measured, total, "cells", capital(PolicyNoun(s.Base.Policy))) + ", " + SeedRange(s.Base.Seed, s.Seeds) + " in each cell: every seed " + mapRecovered(s.Base) + " in " +
		Count(all) + " of " + Count(measured) + " cells, and none in " + Count(none)
	if first != "" {
		out += ", the first at " + first
	}
	switch {
	case hi < 0:
	case least == most:
		out += "; " + Percent(lo) + " of " + SalePeople(s.Base) + " answered, at " + least
	default:
		out += "; of " + SalePeople(s.Base) + ", " + Percent(lo) + " answered at least (at " + least + "), " + Percent(hi) + " at most (at " + most + ")"
	}
	return out + "."
}

// cellLabel names a map's cell by its two knobs: "sale_rps 125/s, 1 retry".
func cellLabel(kx, ky sweep.Knob, base sim.Config, x, y float64) string {
	c := kx.With(ky.With(base, y), x)
	return kx.Label(c) + ", " + ky.Label(c)
}

// spreadEnds moves the curves' names (End) apart, top to bottom in the
// order of their heights, so that each is at least sweepEndGap below the
// one above it, and all lie between top and bottom: each as near its
// curve's last point as that allows.
func spreadEnds(cs []SweepCurve, top, bottom float64) {
	var ends []*ChartMark
	for i := range cs {
		if cs[i].End.Label != "" {
			ends = append(ends, &cs[i].End)
		}
	}
	slices.SortStableFunc(ends, func(a, b *ChartMark) int { return cmp.Compare(a.Y, b.Y) })
	for i, e := range ends {
		e.Y = max(e.Y, top)
		if i > 0 {
			e.Y = max(e.Y, ends[i-1].Y+sweepEndGap)
		}
	}
	for i := len(ends) - 1; i >= 0; i-- {
		e := ends[i]
		e.Y = min(e.Y, bottom)
		if i+1 < len(ends) {
			e.Y = min(e.Y, ends[i+1].Y-sweepEndGap)
		}
	}
}

// SweepChart is the geometry of a sweep, in the units of an SVG viewBox of
// Width x Height: a curve per policy of the mean answered share against
// the knob, with its band (a standard deviation either side, between
// seeds), the steps where most seeds stop getting back to normal and
// where the answered share falls below the threshold marked, and the
// base Config's own value.
type SweepChart struct {
	Width  float64      `json:"width"`
	Height float64      `json:"height"`
	Plot   Rect         `json:"plot"`
	Curves []SweepCurve `json:"curves"`
	// Below is the threshold's height, and BelowLabel its label ("" and 0
	// for none), written at BelowAt (its baseline, anchored as
	// BelowAnchor says, "start" or "end"): at a corner of the line clear
	// of every ring and diamond (placeBelowLabel).
	Below       float64 `json:"below"`
	BelowLabel  string  `json:"below_label"`
	BelowAt     Point   `json:"below_at"`
	BelowAnchor string  `json:"below_anchor"`
	// Now is the base value's position across, and NowLabel its label, ""
	// when the value is outside the range.
	Now      float64 `json:"now"`
	NowLabel string  `json:"now_label"`
	XTicks   []Tick  `json:"x_ticks"`
	YTicks   []Tick  `json:"y_ticks"`
	// XLabel names the knob under its axis: "sale_rps (/s)".
	XLabel  string `json:"x_label"`
	Summary string `json:"summary"`
}

// SweepCurve is one policy's curve: its measured steps, in runs of
// neighbours (a step not measured yet breaks a run), and its marks.
type SweepCurve struct {
	Policy string         `json:"policy"` // the key, for a class
	Title  string         `json:"title"`
	Runs   [][]SweepPoint `json:"runs"`
	Flips  []ChartMark    `json:"flips"`
	Below  []ChartMark    `json:"below"`
	// End is the curve's direct label, its policy's short name
	// (sim.Policy.Short), right of the plot beside the curve's last point,
	// moved apart from the other curves' so that none overlap where
	// their answered shares are near-equal; a zero Label for a curve
	// with no point yet.
	End ChartMark `json:"end"`
}

// SweepPoint is one step of a curve: the mean answered share at (X, Y),
// its band from Low to High (heights), the value it ran at, as a form
// takes it (Set), and its words for a tooltip.
type SweepPoint struct {
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	Set   string  `json:"set"`
	Label string  `json:"label"`
}

// ChartMark is a mark between two steps, at (X, Y), with its sentence.
type ChartMark struct {
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Label string  `json:"label"`
}

// The sweep chart's geometry, in viewBox units.
const (
	sweepW, sweepH     = 600.0, 280.0
	sweepL, sweepR     = 48.0, 120.0 // the right margin holds the curves' names (SweepCurve.End)
	sweepEndGap        = 26.0        // the least distance between two curves' names, top to top: a 20-unit label (a phone's, widget.css) is 24 tall
	sweepT, sweepB     = 14.0, 56.0
	sweepPW, sweepPH   = sweepW - sweepL - sweepR, sweepH - sweepT - sweepB
	sweepTicksWanted   = 6
	mapW, mapH         = 600.0, 320.0
	mapL, mapR         = 64.0, 8.0
	mapT, mapB         = 8.0, 44.0
	mapPW, mapPH       = mapW - mapL - mapR, mapH - mapT - mapB
	mapLabelsWanted    = 10
	shareTickPercent   = 25
	shareTicksPerChart = 100 / shareTickPercent
)

// Sweep lays out sw as a chart.
func Sweep(sw sweep.Sweep) SweepChart {
	s := sw.Spec
	ch := SweepChart{Width: sweepW, Height: sweepH, Plot: Rect{sweepL, sweepT, sweepPW, sweepPH}}
	k, err := sweep.ParseKnob(s.Knob)
	if err != nil || len(sw.Values) == 0 {
		return ch
	}
	lo, hi := math.Min(s.From, s.To), math.Max(s.From, s.To)
	x := func(v float64) float64 {
		if hi == lo {
			return sweepL + sweepPW/2
		}
		return sweepL + float64((v-lo)/(hi-lo)*sweepPW)
	}
	y := func(share float64) float64 { return sweepT + sweepPH - float64(min(max(share, 0), 1)*sweepPH) }
	for _, cv := range sw.Curves {
		c := SweepCurve{Policy: cv.Policy.String(), Title: cv.Policy.Title()}
		var run []SweepPoint
		for i, o := range cv.Steps {
			if o.Seeds == 0 || o.Answered.N == 0 {
				if len(run) > 0 {
					c.Runs = append(c.Runs, run)
				}
				run = nil
				continue
			}
			v, a := sw.Values[i], o.Answered
			run = append(run, SweepPoint{X: x(v), Y: y(a.Mean), Low: y(a.Mean - a.SD), High: y(a.Mean + a.SD), Set: KnobValue(v),
				Label: cv.Policy.Title() + ", " + k.Label(k.With(s.Base, v)) + ": " + ShareSpread(a) + " answered, " + Recoveries(o)})
		}
		if len(run) > 0 {
			c.Runs = append(c.Runs, run)
		}
		at := func(m sweep.Mark) (float64, float64) {
			var ys []float64
			for i, v := range sw.Values {
				if (v == m.From || v == m.To) && cv.Steps[i].Answered.N > 0 {
					ys = append(ys, cv.Steps[i].Answered.Mean)
				}
			}
			mean := 0.0
			for _, v := range ys {
				mean += v / float64(len(ys))
			}
			return x(m.From/2 + m.To/2), y(mean)
		}
		for _, m := range cv.Flips {
			mx, my := at(m)
			c.Flips = append(c.Flips, ChartMark{mx, my, cv.Policy.Title() + ": " + SweepMarks(sweep.Curve{Flips: []sweep.Mark{m}}, s.Below)[0]})
		}
		for _, m := range cv.Crossings {
			mx, _ := at(m)
			c.Below = append(c.Below, ChartMark{mx, y(s.Below), cv.Policy.Title() + ": " + SweepMarks(sweep.Curve{Crossings: []sweep.Mark{m}}, s.Below)[0]})
		}
		if n := len(c.Runs); n > 0 {
			last := c.Runs[n-1][len(c.Runs[n-1])-1]
			c.End = ChartMark{X: sweepL + sweepPW + 6, Y: last.Y, Label: cv.Policy.Short()}
		}
		ch.Curves = append(ch.Curves, c)
	}
	// the names may use the right margin's whole height, which grows
	// below the axis when there are more than it holds apart
	names := 0
	for _, c := range ch.Curves {
		if c.End.Label != "" {
			names++
		}
	}
	ch.Height = max(sweepH, sweepT+8+float64(names-1)*sweepEndGap+8)
	spreadEnds(ch.Curves, sweepT+8, ch.Height-8)
	if s.Below > 0 {
		ch.Below, ch.BelowLabel = y(s.Below), Percent(s.Below)+" answered"
	}
	if now := k.Get(s.Base); now >= lo && now <= hi {
		ch.Now, ch.NowLabel = x(now), "now "+KnobValue(now)+k.Unit()
	}
	if ch.BelowLabel != "" {
		ch.BelowAt, ch.BelowAnchor = placeBelowLabel(ch)
	}
	for _, v := range niceTicks(lo, hi, sweepTicksWanted, k.Whole) {
		ch.XTicks = append(ch.XTicks, Tick{x(v), KnobValue(v)})
	}
	for i := 0; i <= shareTicksPerChart; i++ {
		f := float64(i*shareTickPercent) / 100
		ch.YTicks = append(ch.YTicks, Tick{y(f), strconv.Itoa(i*shareTickPercent) + "%"})
	}
	ch.XLabel = s.Knob
	if u := strings.TrimSpace(k.Unit()); u != "" {
		ch.XLabel += " (" + u + ")"
	}
	ch.Summary = "The sale's answered share against " + s.Knob + ", a curve per policy with a standard deviation either side between seeds. " + SweepSentence(sw)
	return ch
}

// The baselines under a sweep's plot, in viewBox units below it: its
// ticks', then its axis's name's, apart by more than a label's em at the
// largest size the page draws them (20, on a phone), so that neither runs
// into the other.
const (
	SweepTickBaseline      = 20.0
	SweepAxisLabelBaseline = 48.0
)

// Point is a position in a chart's viewBox units.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// The sizes that placeBelowLabel keeps a label clear by, in viewBox units:
// a label's em (the largest, a phone's 20, widget.css), its width per
// character (about 0.6 em in a sans-serif) and a mark's reach (a ring's
// radius is 6, a diamond's 7, plus its stroke).
const (
	labelEm      = 20.0
	labelCharW   = 0.6 * labelEm
	markReach    = 9.0
	labelPadding = 4.0
)

// placeBelowLabel chooses where the threshold's label goes: against the
// line, above it and then below it, from the plot's left end rightwards,
// the first place where the label's box (at the largest size the page
// draws it) touches no ring (a crossing of the threshold), no diamond (a
// flip), not the value now's line and, if it can, no curve; failing
// that, the same a little further off the line, clear of the marks on
// it; failing that, the left end above the line. It returns the label's
// baseline and its text-anchor.
func placeBelowLabel(ch SweepChart) (Point, string) {
	p := ch.Plot
	w := float64(len([]rune(ch.BelowLabel))) * labelCharW
	var marks []ChartMark
	for _, cv := range ch.Curves {
		marks = append(append(marks, cv.Below...), cv.Flips...)
	}
	// onCurve reports whether a curve (its points and the lines between
	// them, sampled every unit) passes through the box.
	onCurve := func(left, right, top, bottom float64) bool {
		in := func(x, y float64) bool { return x > left-3 && x < right+3 && y > top-3 && y < bottom+3 }
		for _, cv := range ch.Curves {
			for _, run := range cv.Runs {
				for i, pt := range run {
					if in(pt.X, pt.Y) {
						return true
					}
					if i == 0 {
						continue
					}
					a := run[i-1]
					dx, dy := pt.X-a.X, pt.Y-a.Y
					n := int(math.Ceil(math.Sqrt(float64(dx*dx) + float64(dy*dy)))) // the segment's length; Sqrt is exact everywhere, Hypot is not
					for j := 1; j < n; j++ {
						f := float64(j) / float64(n)
						if in(a.X+float64(f*(pt.X-a.X)), a.Y+float64(f*(pt.Y-a.Y))) {
							return true
						}
					}
				}
			}
		}
		return false
	}
	clear := func(left, base float64, curves bool) bool {
		right, top, bottom := left+w, base-0.8*labelEm, base+0.25*labelEm
		for _, m := range marks {
			if m.X+markReach > left && m.X-markReach < right && m.Y+markReach > top && m.Y-markReach < bottom {
				return false
			}
		}
		if ch.NowLabel != "" && ch.Now >= left-2 && ch.Now <= right+2 {
			return false
		}
		return !curves || !onCurve(left, right, top, bottom)
	}
	// Above the line, the baseline 5 over it; below, the label's top 4
	// under it; further off, clear of a mark's reach.
	near := []float64{ch.Below - 5, ch.Below + 4 + 0.8*labelEm}
	far := []float64{ch.Below - markReach - 0.25*labelEm - 1, ch.Below + markReach + 0.8*labelEm + 1}
	for _, curves := range []bool{true, false} {
		for _, bases := range [][]float64{near, far} {
			for _, base := range bases {
				if base-0.8*labelEm < p.Y || base+0.25*labelEm > p.Y+p.H {
					continue // off the plot
				}
				for left := p.X + labelPadding; left+w <= p.X+p.W-labelPadding; left += labelPadding {
					if clear(left, base, curves) {
						return Point{left, base}, "start"
					}
				}
			}
		}
	}
	return Point{p.X + labelPadding, ch.Below - 5}, "start"
}

// niceTicks are round values from lo to hi, about wanted of them: the
// multiples of a 1, 2, 2.5 or 5 times a power of ten, and of a whole
// number for a whole knob. One value for a range of one.
func niceTicks(lo, hi float64, wanted int, whole bool) []float64 {
	if !(hi > lo) {
		return []float64{lo}
	}
	step := niceCeil((hi - lo) / float64(wanted))
	if whole {
		step = math.Ceil(step)
	}
	var out []float64
	for i := math.Ceil(lo/step - 1e-9); ; i++ {
		v := float64(i*step) + 0 // + 0: no tick reads -0
		if v > hi*(1+1e-12)+1e-12 {
			break
		}
		out = append(out, v)
	}
	return out
}

// MapChart is the geometry of a map, in the units of an SVG viewBox of
// Width x Height: a cell per pair of values, X across and Y up, coloured
// by the share of seeds back to normal.
type MapChart struct {
	Width  float64   `json:"width"`
	Height float64   `json:"height"`
	Plot   Rect      `json:"plot"`
	Cells  []MapArea `json:"cells"`
	XTicks []Tick    `json:"x_ticks"`
	YTicks []Tick    `json:"y_ticks"`
	// Now outlines the cell of the base Config's own values, and NowLabel
	// names it; zero and "" when they are not both on the map.
	Now      Rect   `json:"now"`
	NowLabel string `json:"now_label"`
	// XLabel and YLabel name the knobs: "sale_rps (/s)", "retries".
	XLabel  string `json:"x_label"`
	YLabel  string `json:"y_label"`
	Summary string `json:"summary"`
	// Caption says how to read the map, under it.
	Caption string `json:"caption"`
}

// MapLevels are a map's colours, BackClass's classes, each with its words:
// from no seed recovered to every seed.
var MapLevels = [][2]string{{"back-0", "no seed recovered"}, {"back-1", "under a third"}, {"back-2", "a third to two thirds"},
	{"back-3", "over two thirds"}, {"back-4", "every seed recovered"}}

// MapArea is one cell of a map: where it is, its colour's class ("back-0",
// none of the seeds back to normal, to "back-4", all of them; "" for a
// cell not measured yet), its knobs' values as a form takes them (SetX,
// SetY), and its words.
type MapArea struct {
	Rect
	Class string `json:"class"`
	SetX  string `json:"set_x"`
	SetY  string `json:"set_y"`
	Label string `json:"label"`
}

// MapLabel is the words of a map's cell at x and y, measured as o, what
// was answered first, then what recovered: "sale_rps 125/s, 1 retry: 41.2%
// of the sale's people answered; recovered after the sale (90% answered
// again) in 0 of 10 seeds".
func MapLabel(s sweep.MapSpec, x, y float64, o sweep.Outcome) string {
	kx, ex := sweep.ParseKnob(s.X.Knob)
	ky, ey := sweep.ParseKnob(s.Y.Knob)
	if ex != nil || ey != nil {
		return ""
	}
	at := cellLabel(kx, ky, s.Base, x, y)
	switch {
	case o.Seeds == 0:
		return at + ": not measured yet"
	}
	answered := Percent(o.Answered.Mean) + " of " + SalePeople(s.Base) + " answered"
	if o.Answered.N == 0 {
		answered = "nobody in " + Trigger(s.Base)
	}
	return at + ": " + answered + "; " + mapRecovered(s.Base) + " in " + strconv.Itoa(o.Back()) + " of " + strconv.Itoa(o.Seeds) + " seeds"
}

// BackClass is the colour class of a share of seeds back to normal:
// "back-0" for none, "back-4" for all, and three steps between.
func BackClass(o sweep.Outcome) string {
	switch n := o.Back(); {
	case o.Seeds == 0:
		return ""
	case n == 0:
		return "back-0"
	case n == o.Seeds:
		return "back-4"
	default:
		return "back-" + strconv.Itoa(1+min(2, 3*n/o.Seeds))
	}
}

// Map lays out m as a chart.
func Map(m sweep.Map) MapChart {
	s := m.Spec
	ch := MapChart{Width: mapW, Height: mapH, Plot: Rect{mapL, mapT, mapPW, mapPH}}
	kx, ex := sweep.ParseKnob(s.X.Knob)
	ky, ey := sweep.ParseKnob(s.Y.Knob)
	if ex != nil || ey != nil || len(m.Xs) == 0 || len(m.Ys) == 0 {
		return ch
	}
	cw, rh := mapPW/float64(len(m.Xs)), mapPH/float64(len(m.Ys))
	left := func(i int) float64 { return mapL + float64(float64(i)*cw) }
	top := func(j int) float64 { return mapT + mapPH - float64(float64(j+1)*rh) } // Y's first value at the bottom
	for j, row := range m.Cells {
		for i, o := range row {
			a := MapArea{Rect: Rect{left(i), top(j), cw, rh}, Class: BackClass(o), SetX: KnobValue(m.Xs[i]), SetY: KnobValue(m.Ys[j])}
			a.Label = MapLabel(s, m.Xs[i], m.Ys[j], o)
			ch.Cells = append(ch.Cells, a)
		}
	}
	nx, ny := slices.Index(m.Xs, kx.Get(s.Base)), slices.Index(m.Ys, ky.Get(s.Base))
	if nx >= 0 && ny >= 0 {
		ch.Now, ch.NowLabel = Rect{left(nx), top(ny), cw, rh}, "now: "+cellLabel(kx, ky, s.Base, m.Xs[nx], m.Ys[ny])
	}
	every := func(n int) int { return max(1, (n+mapLabelsWanted-1)/mapLabelsWanted) }
	for i := 0; i < len(m.Xs); i += every(len(m.Xs)) {
		ch.XTicks = append(ch.XTicks, Tick{left(i) + cw/2, KnobValue(m.Xs[i])})
	}
	for j := 0; j < len(m.Ys); j += every(len(m.Ys)) {
		ch.YTicks = append(ch.YTicks, Tick{top(j) + rh/2, KnobValue(m.Ys[j])})
	}
	label := func(k sweep.Knob) string {
		if u := strings.TrimSpace(k.Unit()); u != "" {
			return k.Key + " (" + u + ")"
		}
		return k.Key
	}
	ch.XLabel, ch.YLabel = label(kx), label(ky)
	ch.Caption = "Each cell is one pair of values, coloured by the share of seeds that " + mapRecovered(s.Base) +
		"; the share of " + SalePeople(s.Base) + " answered shows on hover and in the table. Choose a cell to set both values."
	ch.Summary = "A map of " + s.X.Knob + " across and " + s.Y.Knob + " up, each cell coloured by the share of seeds that " + mapRecovered(s.Base) + ". " + MapSentence(m)
	return ch
}
