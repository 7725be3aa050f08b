package report_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

const eps = 1e-9

func duration(s float64) func(*sim.Config) { return func(c *sim.Config) { c.DurationS = s } }

// chartConfigs are Results of several shapes: recovered, stuck, a backlog,
// refusals, windows with nobody in them, a run that ends mid-window.
var chartConfigs = []struct {
	name   string
	config sim.Config
	reason string
}{
	{"fifo", shop(), "the post's sale: timed out and unfinished parts"},
	{"bounded", shop(policy(sim.Bounded)), "answered and refused parts"},
	{"fifo, 3 retries", shop(retries(3)), "stuck: nobody answered after the sale"},
	{"sale 200/s", shop(saleRPS(200)), "a backlog"},
	{"codel, refusals 20 ms", shop(policy(sim.CoDel), refusalCost(20)), "refusals that cost time"},
	{"nobody outside the sale", shop(normalRPS(0)), "windows with 0 people"},
	{"305 s", shop(duration(305)), "the last window is half as wide"},
	{"45 s, sale 10 to 25 s", shop(duration(45), func(c *sim.Config) { c.SaleStartS, c.SaleS = 10, 15 }), "a short run: other ticks"},
	{"3,600 s", shop(duration(3600)), "a long run: ticks spread out"},
}

func TestTimelineGeometry(t *testing.T) {
	for _, tt := range chartConfigs {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, tt.config)
			c := r.Config
			ch := report.Timeline(r)
			plot := ch.Plot
			bottom, right := plot.Y+plot.H, plot.X+plot.W

			assert.Equal(t, 600.0, ch.Width)
			assert.Equal(t, 220.0, ch.Height)
			assert.True(t, plot.X > 0 && plot.Y > 0 && right < ch.Width && bottom < ch.Height, "the plot is inside the chart, with margins for the axes: %+v", plot)

			// The sale's shading spans the sale, the plot's full height.
			x := func(s float64) float64 { return plot.X + s/c.DurationS*plot.W }
			assert.InDelta(t, x(c.SaleStartS), ch.Sale.X, eps, "the sale starts at its start")
			assert.InDelta(t, x(c.SaleEndS()), ch.Sale.X+ch.Sale.W, eps, "the sale ends at its end")
			assert.Equal(t, plot.Y, ch.Sale.Y, "the sale is as tall as the plot")
			assert.Equal(t, plot.H, ch.Sale.H, "the sale is as tall as the plot")

			bars, barS := expectedBars(r)
			require.Len(t, ch.Bars, len(bars), "one bar per window, or per few windows past report.MaxBars")
			prevRight := plot.X
			for i, b := range ch.Bars {
				w := bars[i]
				assert.Equal(t, w.StartS, b.StartS, "bar %d: its window's start", i)
				assert.Equal(t, w.People, b.People, "bar %d: its window's people", i)
				assert.Equal(t, w.AnsweredShare, b.Answered, "bar %d: its window's answered share", i)
				end := math.Min(w.StartS+barS, c.DurationS)
				settled, noun := w.People-w.Unfinished, "people"
				if settled == 1 {
					noun = "person"
				}
				label := fmt.Sprintf("%s to %s: %s of %s %s answered", report.Seconds(w.StartS), report.Seconds(end), report.Percent(w.AnsweredShare), report.Count(settled), noun)
				switch {
				case w.People == 0:
					label = fmt.Sprintf("%s to %s: nobody arrived", report.Seconds(w.StartS), report.Seconds(end))
				case settled == 0 && w.People == 1:
					label = fmt.Sprintf("%s to %s: 1 person still waiting when the run ended", report.Seconds(w.StartS), report.Seconds(end))
				case settled == 0:
					label = fmt.Sprintf("%s to %s: %s people still waiting when the run ended", report.Seconds(w.StartS), report.Seconds(end), report.Count(w.People))
				case w.Unfinished > 0:
					label += fmt.Sprintf(", %s more still waiting when the run ended", report.Count(w.Unfinished))
				}
				assert.Equal(t, label, b.Label, "bar %d: the share is of the people settled, the rest said apart", i)
				if w.People == 0 {
					assert.Empty(t, b.Parts, "bar %d: a window with nobody has no parts", i)
					continue
				}
				require.NotEmpty(t, b.Parts, "bar %d: a window with people has parts", i)

				kinds := map[string]int{"answered": w.Answered, "refused": w.Refused, "timed_out": w.TimedOut, "unfinished": w.Unfinished}
				order := []string{"answered", "refused", "timed_out", "unfinished"}
				y, sum, k := bottom, 0.0, 0
				for j, p := range b.Parts {
					for k < len(order) && order[k] != p.Kind {
						k++
					}
					require.Less(t, k, len(order), "bar %d part %d: kind %q out of order or unknown", i, j, p.Kind)
					assert.Positive(t, kinds[p.Kind], "bar %d: no part for an outcome nobody had", i)
					assert.InDelta(t, float64(kinds[p.Kind])/float64(w.People)*plot.H, p.H, eps, "bar %d %s: height is the share of the window's people", i, p.Kind)
					assert.InDelta(t, y, p.Y+p.H, eps, "bar %d %s: stacked on the part below", i, p.Kind)
					assert.GreaterOrEqual(t, p.Y, plot.Y-eps, "bar %d %s: inside the plot's top", i, p.Kind)
					assert.LessOrEqual(t, p.Y+p.H, bottom+eps, "bar %d %s: inside the plot's bottom", i, p.Kind)
					assert.Equal(t, b.Parts[0].X, p.X, "bar %d: its parts line up", i)
					assert.Equal(t, b.Parts[0].W, p.W, "bar %d: its parts line up", i)
					y = p.Y
					sum += p.H
					k++
				}
				assert.InDelta(t, plot.H, sum, eps, "bar %d: the parts fill the plot's height", i)
				p := b.Parts[0]
				assert.Positive(t, p.W, "bar %d has a width", i)
				assert.GreaterOrEqual(t, p.X, prevRight-eps, "bar %d: does not overlap the bar before, and is inside the plot", i)
				assert.LessOrEqual(t, p.X+p.W, right+eps, "bar %d: inside the plot on the right", i)
				assert.Less(t, x(w.StartS), p.X, "bar %d: starts after its window's start (a gap)", i)
				assert.Greater(t, x(end), p.X+p.W, "bar %d: ends before its window's end (a gap)", i)
				prevRight = p.X + p.W
			}

			require.NotEmpty(t, ch.XTicks)
			assert.Equal(t, report.Tick{At: plot.X, Label: "0 s"}, ch.XTicks[0], "the time axis starts at 0 s")
			assert.GreaterOrEqual(t, len(ch.XTicks), 3, "at least three time ticks")
			assert.LessOrEqual(t, len(ch.XTicks), 11, "at most eleven time ticks")
			for i := 1; i < len(ch.XTicks); i++ {
				assert.Greater(t, ch.XTicks[i].At, ch.XTicks[i-1].At, "time ticks increase")
				assert.LessOrEqual(t, ch.XTicks[i].At, right+eps, "time ticks are inside the plot")
			}
			assert.Equal(t, []report.Tick{{At: bottom, Label: "0%"}, {At: plot.Y + plot.H/2, Label: "50%"}, {At: plot.Y, Label: "100%"}}, ch.YTicks,
				"the share axis: 0 at the bottom, 100% at the top")

			assert.True(t, strings.HasPrefix(ch.Summary, c.Policy.Title()+": "), "the summary names the policy: %q", ch.Summary)
			assert.Contains(t, ch.Summary, "of people were answered", "the summary gives the answered share")
			assert.Contains(t, ch.Summary, " "+report.Percent(r.Sale.AnsweredShare)+" ", "the summary gives the answered share")
			assert.True(t, strings.HasSuffix(ch.Summary, "; "+report.Recovered(r)+"."), "the summary ends with the recovery: %q", ch.Summary)
		})
	}
}

// expectedBars is r's windows as its timeline should draw them: one a bar,
// 10 s each, up to report.MaxBars windows; past that, the fewest windows
// taken together a bar that keep the bars to report.MaxBars, their counts
// added. barS is a bar's seconds.
func expectedBars(r sim.Result) (bars []sim.Window, barS float64) {
	n := 1
	for (len(r.Windows)+n-1)/n > report.MaxBars {
		n++
	}
	for i := 0; i < len(r.Windows); i += n {
		b := sim.Window{StartS: r.Windows[i].StartS}
		for _, w := range r.Windows[i:min(i+n, len(r.Windows))] {
			b.People, b.Answered, b.Refused = b.People+w.People, b.Answered+w.Answered, b.Refused+w.Refused
			b.TimedOut, b.Unfinished = b.TimedOut+w.TimedOut, b.Unfinished+w.Unfinished
		}
		b.AnsweredShare = 1
		if b.People > b.Unfinished {
			b.AnsweredShare = float64(b.Answered) / float64(b.People-b.Unfinished)
		}
		bars = append(bars, b)
	}
	return bars, float64(10 * n)
}

// TestTimelineOfAnHour: an hour's 360 windows are drawn as 120 bars of
// 30 s, which count every person of the run, and the caption says so; the
// table of windows keeps all 360, and a run of 20 minutes a bar each.
func TestTimelineOfAnHour(t *testing.T) {
	r := run(t, shop(duration(3600)))
	ch := report.Timeline(r)
	require.Len(t, r.Windows, 360)
	assert.Len(t, ch.Bars, report.MaxBars, "an hour: the most bars a chart draws")
	assert.Equal(t, 30.0, report.BarSeconds(r.Config), "three windows a bar")
	people := 0
	for _, b := range ch.Bars {
		people += b.People
	}
	assert.Equal(t, r.People, people, "the bars count everyone in the run")
	assert.Contains(t, report.TimelineCaption(r.Config), "per 30 s of arrivals", "the caption says what a bar counts")
	tab, _ := report.WindowTable(r)
	assert.Len(t, tab.Rows, 360, "the table keeps every window")

	c := shop(duration(1200))
	assert.Equal(t, 10.0, report.BarSeconds(c), "%d windows: one a bar", report.MaxBars)
	assert.Contains(t, report.TimelineCaption(c), "per 10 s of arrivals")
	c.DurationS = 1201
	assert.Equal(t, 20.0, report.BarSeconds(c), "one window more than report.MaxBars: two a bar")
}

func TestTimelineSummaryCountsEmptySaleWindows(t *testing.T) {
	tests := []struct {
		name   string
		config sim.Config
		want   string
		reason string
	}{
		{"fifo", shop(), ", and nobody was answered in 5 of its 10 s windows;", "the post: 5 of the sale's 6 windows answered nobody"},
		{"bounded", shop(policy(sim.Bounded)), "", "every sale window answers someone"},
	}
	for _, tt := range tests {
		ch := report.Timeline(run(t, tt.config))
		if tt.want == "" {
			assert.NotContains(t, ch.Summary, "nobody was answered in", "%s: %s", tt.name, tt.reason)
		} else {
			assert.Contains(t, ch.Summary, tt.want, "%s: %s", tt.name, tt.reason)
		}
	}
	ch := report.Timeline(run(t, shop()))
	assert.Equal(t, "Unbounded queue: answered share of each 10 s of arrivals over 300 s. During the sale, from 60 s to 120 s, "+
		report.Percent(run(t, shop()).Sale.AnsweredShare)+" of people were answered, and nobody was answered in 5 of its 10 s windows; "+
		report.Recovered(run(t, shop()))+".", ch.Summary, "the default's summary, whole")
}

// TestTimelineEmptyWindow lays out a hand-made Result: windows with nobody
// in them have no parts; the others are filled to the plot's height.
func TestTimelineEmptyWindow(t *testing.T) {
	c := shop(duration(30), func(c *sim.Config) { c.SaleStartS, c.SaleS = 10, 10 })
	back := 0.0
	r := sim.Result{
		Config:        c,
		BackToNormalS: &back,
		Recovery:      sim.Normal,
		Windows: []sim.Window{
			{StartS: 0, People: 0, AnsweredShare: 1},
			{StartS: 10, People: 3, Answered: 1, Refused: 1, Unfinished: 1, AnsweredShare: 0.5},
			{StartS: 20, People: 0, AnsweredShare: 1},
		},
	}
	ch := report.Timeline(r)
	require.Len(t, ch.Bars, 3)
	assert.Empty(t, ch.Bars[0].Parts, "nobody in the first window")
	assert.Empty(t, ch.Bars[2].Parts, "nobody in the last window")
	assert.Equal(t, "0 s to 10 s: nobody arrived", ch.Bars[0].Label, "an empty window has no share to give")
	assert.Equal(t, "10 s to 20 s: 50.0% of 2 people answered, 1 more still waiting when the run ended", ch.Bars[1].Label, "the share is of the settled")
	parts := ch.Bars[1].Parts
	require.Len(t, parts, 3, "answered, refused, unfinished: no part for nobody timed out")
	assert.Equal(t, []string{"answered", "refused", "unfinished"}, []string{parts[0].Kind, parts[1].Kind, parts[2].Kind}, "bottom up")
	assert.InDelta(t, ch.Plot.Y, parts[2].Y, eps, "the top part reaches the plot's top")
	assert.InDelta(t, ch.Plot.H/3, parts[0].H, eps, "a third each")
}

// TestTimelineTickLabelsMatchPositions fails on a bug. For a short run the
// tick step is halved from 60 s down to 7.5 s (10 s and 20 s runs, 25 s),
// and the label is Number(s, 0) + " s", so the tick at 7.5 s is labelled
// "8 s" and the one at 22.5 s "23 s". The fix: halve only to steps that are
// whole seconds (pick from 10, 15, 30, 60, 120, ... rather than halving
// 15 to 7.5), or label with Seconds(s), which keeps one decimal.
func TestTimelineTickLabelsMatchPositions(t *testing.T) {
	for _, d := range []float64{10, 20, 25, 45, 60, 90, 300, 305, 3600} {
		c := shop(duration(d), func(c *sim.Config) { c.SaleStartS, c.SaleS = 0, 0 })
		ch := report.Timeline(sim.Result{Config: c})
		for _, tk := range ch.XTicks {
			s := (tk.At - ch.Plot.X) / ch.Plot.W * d
			s = math.Round(s*1e6) / 1e6
			got, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSuffix(tk.Label, " s"), ",", ""), 64)
			require.NoError(t, err, "duration %v: tick label %q is a number of seconds", d, tk.Label)
			assert.Equal(t, s, got, "duration %v s: the tick at %v s is labelled %q", d, s, tk.Label)
		}
	}
}

// TestNoSaleSaysSo holds the words to the traffic: with the sale's rate the
// normal one there is no band on the chart, and what is said is of the
// people of the sale's window, not of a sale.
func TestNoSaleSaysSo(t *testing.T) {
	c := shop(saleRPS(70))
	require.True(t, report.NoSale(c))
	r := run(t, c)
	ch := report.Timeline(r)
	assert.Zero(t, ch.Sale.W, "no band for a sale that is not there")
	assert.Contains(t, ch.Summary, "With no sale, from 60 s to 120 s")
	assert.Equal(t, "the people from 60 s to 120 s", report.SalePeople(c))
	assert.Equal(t, "from 60 s to 120 s (no sale)", report.SaleArrivals(c))
	assert.Equal(t, "there is no sale, so no shaded band", report.SaleBand(c))
	assert.NotContains(t, report.Outlook(r).Text, "sale", "the fluid line has no sale to end")
	v, err := report.Build(c)
	require.NoError(t, err)
	for _, a := range v.Advice {
		assert.NotContains(t, a.Text, "sale's people", "advice: %s", a.Text)
	}

	sale := shop()
	assert.False(t, report.NoSale(sale))
	assert.Equal(t, "the sale's people", report.SalePeople(sale))
	assert.Equal(t, "the shaded band is the sale", report.SaleBand(sale))
	assert.Positive(t, report.Timeline(run(t, sale)).Sale.W, "the sale's band")
}
