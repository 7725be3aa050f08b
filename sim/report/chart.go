package report

import (
	"math"
	"strconv"

	"github.com/shedsim/shedsim/sim"
)

// Chart is the geometry of a timeline: one stacked bar per 10 s window
// (answered, refused, timed out, still waiting at the end, as shares of the
// window's people), or per BarSeconds of windows taken together in a run
// of more than MaxBars windows, the sale shaded, in the units of an SVG
// viewBox of Width x Height. Summary is its text alternative.
type Chart struct {
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	// Plot is the area inside the axes.
	Plot Rect `json:"plot"`
	// Sale is the shaded rectangle of the sale: with no sale, of the
	// incidents that trigger the run; for a sale that comes back, its first
	// wave.
	Sale Rect `json:"sale"`
	// Waves are the shaded rectangles of a sale's later waves.
	Waves []Rect `json:"waves,omitempty"`
	// BandLabel names the band under the axis: "" for "sale", else "loss",
	// "slowdown" or "incidents".
	BandLabel string `json:"band_label,omitempty"`
	// Incidents outline a loss and a slowdown in a run whose band is the
	// sale's, each with its name ("loss", "slowdown").
	Incidents []Band `json:"incidents,omitempty"`
	Bars      []Bar  `json:"bars"`
	XTicks    []Tick `json:"x_ticks"`
	YTicks    []Tick `json:"y_ticks"`
	// Summary describes the chart in a sentence, for screen readers.
	Summary string `json:"summary"`
}

// Band is a labelled rectangle in viewBox units.
type Band struct {
	Rect
	Label string `json:"label"`
}

// Rect is a rectangle in viewBox units.
type Rect struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// Bar is one window: its stacked parts, bottom up.
type Bar struct {
	StartS   float64 `json:"start_s"`
	People   int     `json:"people"`
	Answered float64 `json:"answered"` // share of the window's settled people: 1 when none had settled
	Parts    []Part  `json:"parts"`
	// Label is the bar's text for a tooltip or a screen reader.
	Label string `json:"label"`
}

// Part is one outcome's segment of a bar.
type Part struct {
	// Kind is "answered", "refused", "timed_out" or "unfinished".
	Kind string `json:"kind"`
	Rect
}

// Tick is an axis label at a position in viewBox units.
type Tick struct {
	At    float64 `json:"at"`
	Label string  `json:"label"`
}

// Chart geometry, in viewBox units.
const (
	chartW, chartH               = 600.0, 220.0
	marginL, marginR             = 56.0, 8.0
	marginT, marginB             = 8.0, 28.0
	plotW                        = chartW - marginL - marginR
	plotH                        = chartH - marginT - marginB
	barGap                       = 0.12 // share of a slot left empty
	secondsPerTickWanted float64 = 60
)

// MaxBars is the most bars a timeline draws: a run of more windows than
// that (more than 20 minutes) has a bar per BarSeconds, several windows
// taken together, so that an hour's 360 windows are 120 bars of 30 s, each
// some 4 px wide on a laptop's chart, rather than 360 of 1.5 px, and the
// page draws a third of the elements, keeping its main thread's tasks
// short. The table of windows keeps every window.
const MaxBars = 120

// BarSeconds is how many seconds of arrivals a bar of c's timeline
// counts: 10, a window, up to MaxBars windows; a multiple of 10 beyond.
func BarSeconds(c sim.Config) float64 {
	windows := int(math.Ceil(c.DurationS / 10))
	return float64(10 * max(1, (windows+MaxBars-1)/MaxBars))
}

// Timeline lays out r's windows as a chart.
func Timeline(r sim.Result) Chart {
	c := r.Config
	ch := Chart{Width: chartW, Height: chartH, Plot: Rect{marginL, marginT, plotW, plotH}}
	// Every product that feeds an addition is rounded on its own (an
	// explicit float64), so no platform fuses a multiply-add and the
	// geometry is the same to the bit everywhere.
	x := func(s float64) float64 { return marginL + float64(float64(s/c.DurationS)*plotW) }
	if HasBand(c) { // no band for a sale that is not there, unless an incident is the trigger
		from, to := c.PeopleStartS(), min(c.PeopleEndS(), c.DurationS)
		if c.SaleWaves > 1 && !IncidentOnly(c) {
			to = from + c.SaleS
			for i := 1; i < c.SaleWaves; i++ {
				s := c.WaveStartS(i)
				ch.Waves = append(ch.Waves, Rect{X: x(s), Y: marginT, W: x(s+c.SaleS) - x(s), H: plotH})
			}
		}
		ch.Sale = Rect{X: x(from), Y: marginT, W: x(to) - x(from), H: plotH}
		if IncidentOnly(c) {
			ch.BandLabel = bandMark(c)
		}
	}
	if c.HasIncident() && !IncidentOnly(c) { // the sale is the band: outline the incidents
		add := func(from, to float64, label string) {
			to = min(to, c.DurationS)
			ch.Incidents = append(ch.Incidents, Band{Rect{X: x(from), Y: marginT, W: x(to) - x(from), H: plotH}, label})
		}
		if c.LossWorkers > 0 {
			add(c.LossStartS, c.LossEndS(), "loss")
		}
		if c.SlowFactor > 0 {
			add(c.SlowStartS, c.SlowEndS(), "slowdown")
		}
	}
	barS := BarSeconds(c)
	n := int(barS / 10) // windows a bar
	for i := 0; i < len(r.Windows); i += n {
		// The bar's windows taken together: their counts added, the
		// answered share of their people settled.
		w := r.Windows[i]
		for _, o := range r.Windows[i+1 : min(i+n, len(r.Windows))] {
			w.People, w.Answered, w.Refused = w.People+o.People, w.Answered+o.Answered, w.Refused+o.Refused
			w.TimedOut, w.Unfinished = w.TimedOut+o.TimedOut, w.Unfinished+o.Unfinished
			w.AnsweredShare = 1
			if w.People > w.Unfinished {
				w.AnsweredShare = float64(w.Answered) / float64(w.People-w.Unfinished)
			}
		}
		end := min(w.StartS+barS, c.DurationS)
		left, right := x(w.StartS), x(end)
		gap := float64(float64(right-left)*barGap) / 2
		b := Bar{StartS: w.StartS, People: w.People, Answered: w.AnsweredShare}
		y := marginT + plotH
		if w.People > 0 {
			p := float64(w.People)
			for _, part := range []struct {
				kind string
				n    int
			}{{"answered", w.Answered}, {"refused", w.Refused}, {"timed_out", w.TimedOut}, {"unfinished", w.Unfinished}} {
				if part.n == 0 {
					continue
				}
				h := float64(float64(part.n) / p * plotH)
				y -= h
				b.Parts = append(b.Parts, Part{part.kind, Rect{left + gap, y, right - left - float64(2*gap), h}})
			}
		}
		switch settled := w.People - w.Unfinished; {
		case w.People == 0:
			b.Label = fill("%s to %s: nobody arrived", Seconds(w.StartS), Seconds(end))
		case settled == 0:
			b.Label = fill("%s to %s: %s still waiting when the run ended", Seconds(w.StartS), Seconds(end), people(w.People))
		default:
			b.Label = fill("%s to %s: %s of %s answered", Seconds(w.StartS), Seconds(end), Percent(w.AnsweredShare), people(settled))
		}
		if w.Unfinished > 0 && w.Unfinished < w.People {
			b.Label += fill(", %s more still waiting when the run ended", Count(w.Unfinished))
		}
		ch.Bars = append(ch.Bars, b)
	}
	step := secondsPerTickWanted
	for c.DurationS/step > 10 {
		step *= 2
	}
	for c.DurationS/step < 3 && step > 10 {
		step /= 2
	}
	for s := 0.0; s <= c.DurationS; s += step {
		ch.XTicks = append(ch.XTicks, Tick{x(s), Seconds(s)})
	}
	for _, pct := range []int{0, 50, 100} { // whole percents: short enough for a phone's larger labels
		f := float64(pct) / 100
		ch.YTicks = append(ch.YTicks, Tick{marginT + plotH - float64(f*plotH), strconv.Itoa(pct) + "%"})
	}
	ch.Summary = timelineSummary(r)
	return ch
}

func timelineSummary(r sim.Result) string {
	c := r.Config
	zero := 0
	for _, w := range r.Windows {
		if c.MeasuredAt(w.StartS) && w.People > w.Unfinished && w.Answered == 0 {
			zero++
		}
	}
	during := "During the sale, from"
	if IncidentOnly(c) {
		during = "During " + Trigger(c) + ", from"
	} else if NoSale(c) {
		during = "With no sale, from"
	}
	answered := Percent(r.Sale.AnsweredShare) + " of people were answered"
	if r.Sale.People == 0 {
		answered = "nobody arrived"
	}
	from, to := saleSpan(c)
	s := fill("%s: answered share of each 10 s of arrivals over %s. %s %s to %s, %s",
		c.Policy.Title(), Seconds(c.DurationS), during, from, to, answered)
	if zero > 0 {
		s += fill(", and nobody was answered in %s of its 10 s windows", strconv.Itoa(zero))
	}
	return s + "; " + Recovered(r) + "."
}
