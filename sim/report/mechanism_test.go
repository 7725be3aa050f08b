package report_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// withSeries asks for the series at the step the page and the command line
// use.
func withSeries(c *sim.Config) { c.SeriesStepS = sim.SeriesStep(c.DurationS) }

// pathPoints parses a Curve's path, "M x,y H x V y H x ...", into its
// corners.
func pathPoints(t *testing.T, path string) (xs, ys []float64) {
	t.Helper()
	re := regexp.MustCompile(`([MHV])([-0-9.]+)(?:,([-0-9.]+))?`)
	matches := re.FindAllStringSubmatch(path, -1)
	require.NotEmpty(t, matches, "a path: %q", path)
	require.Equal(t, len(path), func() int {
		n := 0
		for _, m := range matches {
			n += len(m[0])
		}
		return n
	}(), "the path is nothing but M, H and V commands: %q", path)
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err)
		return v
	}
	x, y := 0.0, 0.0
	for i, m := range matches {
		switch m[1] {
		case "M":
			require.Zero(t, i, "one M, first")
			x, y = num(m[2]), num(m[3])
		case "H":
			x = num(m[2])
		case "V":
			y = num(m[2])
		}
		xs, ys = append(xs, x), append(ys, y)
	}
	return xs, ys
}

var mechanismConfigs = []struct {
	name     string
	config   sim.Config
	attempts bool
}{
	{"fifo", shop(withSeries), false},
	{"bounded", shop(policy(sim.Bounded), withSeries), false},
	{"fifo, 3 retries", shop(retries(3), withSeries), true},
	{"codel, refusals 20 ms", shop(policy(sim.CoDel), refusalCost(20), withSeries), false},
	{"no sale", shop(saleRPS(70), withSeries), false},
	{"305 s at 7 s steps", shop(duration(305), func(c *sim.Config) { c.SeriesStepS = 7 }), false},
	{"an hour", shop(duration(3600), retries(1), withSeries), true},
	{"10,000/s of capacity", shop(func(c *sim.Config) { c.Workers, c.ServiceMS = 200, 20 }, retries(1), withSeries), true},
}

// TestMechanismGeometry: each chart's curves step across the plot, one
// flat stretch a point, inside the plot; its marks are inside it at their
// values; the band is the sale; a table row a point.
func TestMechanismGeometry(t *testing.T) {
	for _, tt := range mechanismConfigs {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, tt.config)
			c := r.Config
			m, ok := report.BuildMechanism(r)
			require.True(t, ok)
			assert.Equal(t, r.Series.StepS, m.StepS)
			charts := []report.SeriesChart{m.Queue, m.Work}
			if tt.attempts {
				require.NotNil(t, m.Attempts, "clients retry: the attempts are drawn")
				charts = append(charts, *m.Attempts)
			} else {
				assert.Nil(t, m.Attempts, "no retries: no attempts chart")
			}
			n := len(r.Series.Points)
			for _, ch := range charts {
				p := ch.Plot
				bottom, right := p.Y+p.H, p.X+p.W
				x := func(s float64) float64 { return p.X + s/c.DurationS*p.W }
				if report.HasBand(c) {
					assert.InDelta(t, x(c.SaleStartS), ch.Band.X, eps, "%s: the band starts with the sale", ch.Title)
					assert.InDelta(t, x(c.SaleEndS()), ch.Band.X+ch.Band.W, eps, "%s: the band ends with it", ch.Title)
				} else {
					assert.Zero(t, ch.Band, "%s: no sale, no band", ch.Title)
				}
				require.NotEmpty(t, ch.Curves)
				for _, cv := range ch.Curves {
					xs, ys := pathPoints(t, cv.Path)
					assert.Len(t, xs, 2*n, "%s %s: a corner at each end of each point's stretch", ch.Title, cv.Kind)
					assert.InDelta(t, p.X, xs[0], 0.01, "%s %s: from the plot's left", ch.Title, cv.Kind)
					assert.InDelta(t, right, xs[len(xs)-1], 0.01, "%s %s: to its right", ch.Title, cv.Kind)
					for i := range xs {
						assert.True(t, xs[i] >= p.X-0.01 && xs[i] <= right+0.01 && ys[i] >= p.Y-0.01 && ys[i] <= bottom+0.01,
							"%s %s: (%g, %g) inside the plot", ch.Title, cv.Kind, xs[i], ys[i])
						if i > 0 {
							assert.GreaterOrEqual(t, xs[i], xs[i-1], "%s %s: left to right", ch.Title, cv.Kind)
						}
					}
				}
				for _, mk := range ch.Marks {
					assert.True(t, mk.Y >= p.Y && mk.Y <= bottom, "%s: the %s mark is inside the plot", ch.Title, mk.Kind)
					// On a broken axis, the marks are below the break, on
					// the scale of its lower part.
					top, most := ch.YTicks[len(ch.YTicks)-1], yMax(t, ch)
					if ch.Break != (report.Span{}) {
						top, most = ch.YTicks[len(ch.YTicks)-2], yMaxBelow(t, ch)
					}
					assert.InDelta(t, bottom-(bottom-top.At)*mk.Value/most, mk.Y, 0.01, "%s: the %s mark at its value", ch.Title, mk.Kind)
				}
				assert.Len(t, ch.Table.Rows, n, "%s: a row a point", ch.Title)
				for _, row := range ch.Table.Rows {
					assert.Len(t, row, len(ch.Table.Header))
				}
				assert.NotEmpty(t, ch.Sentence)
				assert.True(t, strings.HasSuffix(ch.Sentence, "."), "%s: a sentence: %q", ch.Title, ch.Sentence)
			}

			// The queue's marks: the timeout, and the bound when there is one.
			kinds := map[string]float64{}
			for _, mk := range m.Queue.Marks {
				kinds[mk.Kind] = mk.Value
			}
			assert.Equal(t, c.TimeoutMS/1000, kinds["timeout"], "the timeout, in seconds")
			if c.Policy == sim.Bounded {
				assert.Equal(t, c.QueueSeconds(), kinds["bound"], "the bound, as seconds of work")
			}
			assert.Equal(t, c.CapacityRPS(), m.Work.Marks[0].Value, "the capacity")
		})
	}
}

// yMax is the chart's top, read from its last y tick's label ("2.5 s",
// "250/s", "20k/s").
func yMax(t *testing.T, ch report.SeriesChart) float64 {
	t.Helper()
	label := ch.YTicks[len(ch.YTicks)-1].Label
	label = strings.TrimSuffix(strings.TrimSuffix(label, "/s"), " s")
	times := 1.0
	if n, ok := strings.CutSuffix(label, "k"); ok {
		label, times = n, 1e3
	} else if n, ok := strings.CutSuffix(label, "M"); ok {
		label, times = n, 1e6
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(label, ",", ""), 64)
	require.NoError(t, err, "the top tick %q is a number", ch.YTicks[len(ch.YTicks)-1].Label)
	return v * times
}

// yMaxBelow is the top of a broken axis's lower part: its tick before
// the last.
func yMaxBelow(t *testing.T, ch report.SeriesChart) float64 {
	t.Helper()
	require.GreaterOrEqual(t, len(ch.YTicks), 2)
	return yMax(t, report.SeriesChart{YTicks: ch.YTicks[:len(ch.YTicks)-1]})
}

// TestMechanismQueueIsSecondsOfWork: "a queue of 200 is 2 seconds of
// waiting": the queue's curve is the requests waiting over the capacity,
// and its table says both; a bound of 200 fills in the sale and reads 2 s.
func TestMechanismQueueIsSecondsOfWork(t *testing.T) {
	r := run(t, shop(policy(sim.Bounded), queue(200), withSeries))
	m, _ := report.BuildMechanism(r)
	q := m.Queue.Curves[0]
	require.Equal(t, "queue", q.Kind)
	assert.Equal(t, 200, r.LongestQueue, "the sale fills the bound")
	assert.InDelta(t, 2, q.Max, 1e-12, "the most work is the longest queue over 100 a second")
	full := 0
	for k, p := range r.Series.Points {
		if p.Queue == 200 {
			full++
			assert.Equal(t, []string{"200", "2 s"}, m.Queue.Table.Rows[k][1:3], "a queue of 200 is 2 s of work")
		}
	}
	assert.Greater(t, full, 30, "the bound is full through most of the sale")
	bound := m.Queue.Marks[1]
	require.Equal(t, "bound", bound.Kind)
	assert.Equal(t, "the bound, 200 requests, 2 s of work", bound.Label)
	assert.InDelta(t, m.Queue.Marks[0].Y, bound.Y, 1e-9, "a bound of 2 s of work sits on the 2 s timeout")
}

// TestMechanismAgainstThePost holds the sentences to the post's mechanism
// at the shop's numbers, over seeds 1..20: under fifo the queue holds the
// 2 s timeout's worth of work about 4 s into the sale (200 requests at 50 a
// second more than the 100 it can do); the workers finish about 100 a
// second while, from a few seconds later, answering nobody in time; with 3
// retries, after the sale about 70 x 4 = 280 attempts a second arrive
// against a capacity of 100.
func TestMechanismAgainstThePost(t *testing.T) {
	queueRe := regexp.MustCompile(`^By ([0-9.]+) s into the sale the queue held ([0-9.]+) s of work \(([0-9,]+) requests\), more than the 2 s the client waits; it did until [0-9.]+ s after the sale ended, and held at most [0-9.]+ s`)
	workRe := regexp.MustCompile(`^During the sale the workers finished ([0-9.]+) a second, their capacity, and answered ([0-9.]+) a second in time; from ([0-9.]+) s into the sale to ([0-9.]+) s after the sale ended they answered nobody in time\.$`)
	afterRe := regexp.MustCompile(`; after it, ([0-9.]+) a second, ([0-9.]+) of them retries\.$`)
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
		require.NoError(t, err)
		return v
	}
	var reached, throughput, goodput, silentFrom, after, afterRetries float64
	const seeds = 20
	for seed := uint64(1); seed <= seeds; seed++ {
		c := shop(withSeries)
		c.Seed = seed
		m, ok := report.BuildMechanism(run(t, c))
		require.True(t, ok)
		q := queueRe.FindStringSubmatch(m.Queue.Sentence)
		require.NotNil(t, q, "seed %d: %s", seed, m.Queue.Sentence)
		reached += num(q[1])
		assert.GreaterOrEqual(t, num(q[3]), 200.0, "seed %d: 2 s of work is 200 requests", seed)
		w := workRe.FindStringSubmatch(m.Work.Sentence)
		require.NotNil(t, w, "seed %d: %s", seed, m.Work.Sentence)
		throughput += num(w[1])
		goodput += num(w[2])
		silentFrom += num(w[3])

		c.Retries = 3
		m, ok = report.BuildMechanism(run(t, c))
		require.True(t, ok)
		require.NotNil(t, m.Attempts)
		a := afterRe.FindStringSubmatch(m.Attempts.Sentence)
		require.NotNil(t, a, "seed %d: %s", seed, m.Attempts.Sentence)
		after += num(a[1])
		afterRetries += num(a[2])
	}
	reached, throughput, goodput, silentFrom = reached/seeds, throughput/seeds, goodput/seeds, silentFrom/seeds
	after, afterRetries = after/seeds, afterRetries/seeds
	t.Logf("over %d seeds: 2 s of work by %.2f s into the sale; throughput %.1f/s, goodput %.1f/s, nobody answered from %.2f s into the sale; with 3 retries after the sale %.1f attempts a second, %.1f retries",
		seeds, reached, throughput, goodput, silentFrom, after, afterRetries)
	assert.InDelta(t, 4.5, reached, 0.75, "200 requests at 50 a second: 4 s, and the step it falls in ends 4 or 5 s in")
	assert.InDelta(t, 100, throughput, 3, "throughput stays at capacity")
	assert.Less(t, goodput, 20.0, "goodput falls: a tenth of the sale's arrivals answered")
	assert.InDelta(t, 6.5, silentFrom, 1.5, "nobody is answered once those who joined a 2 s queue reach the front: about 2 s after it held 2 s")
	assert.InDelta(t, 280, after, 20, "70 x 4 = 280 attempts a second against a capacity of 100")
	assert.InDelta(t, 210, afterRetries, 20, "of which 70 x 3 retries")
}

// TestViewMechanism: the View carries the mechanism when its Config asks
// for a series, and not otherwise (so the view's golden files, without a
// series, keep their bytes).
func TestViewMechanism(t *testing.T) {
	v, err := report.BuildChosen(sim.DefaultConfig())
	require.NoError(t, err)
	assert.Nil(t, v.Mechanism)
	b, err := json.Marshal(v)
	require.NoError(t, err)
	assert.NotContains(t, string(b), `"mechanism"`)

	v, err = report.BuildChosen(shop(withSeries))
	require.NoError(t, err)
	require.NotNil(t, v.Mechanism)
	want, _ := report.BuildMechanism(v.Chosen)
	assert.Equal(t, want, *v.Mechanism)
}

// TestGoldenMechanism pins the shop's mechanism, with 3 retries so that all
// three charts are there, to the byte, and the command line's text of it.
func TestGoldenMechanism(t *testing.T) {
	r := run(t, shop(retries(3), withSeries))
	m, ok := report.BuildMechanism(r)
	require.True(t, ok)
	b, err := json.MarshalIndent(m, "", "  ")
	require.NoError(t, err)
	golden(t, "mechanism-fifo-retries3.json", append(b, '\n'))

	var text bytes.Buffer
	require.NoError(t, report.WriteSeries(&text, run(t, shop(withSeries))))
	golden(t, "series-default.txt", text.Bytes())

	assert.Error(t, report.WriteSeries(&text, run(t, sim.DefaultConfig())), "a Result without a series")
}

// TestMechanismEverySample: every sample's series lays out, its sentences
// end, its tables have a row a point, and a run with retries has the
// attempts' chart.
func TestMechanismEverySample(t *testing.T) {
	for _, s := range sim.Samples() {
		c := s.Config
		withSeries(&c)
		r := run(t, c)
		m, ok := report.BuildMechanism(r)
		require.True(t, ok, s.Key)
		charts := []report.SeriesChart{m.Queue, m.Work}
		assert.Equal(t, c.Retries > 0, m.Attempts != nil, "%s: the attempts are drawn when clients retry", s.Key)
		if m.Attempts != nil {
			charts = append(charts, *m.Attempts)
		}
		for _, ch := range charts {
			assert.True(t, strings.HasSuffix(ch.Sentence, "."), "%s, %s: %q", s.Key, ch.Title, ch.Sentence)
			assert.NotContains(t, ch.Sentence, "NaN", "%s, %s", s.Key, ch.Title)
			assert.Len(t, ch.Table.Rows, len(r.Series.Points), "%s, %s", s.Key, ch.Title)
			for _, cv := range ch.Curves {
				pathPoints(t, cv.Path)
			}
		}
	}
}

// TestMechanismQueueAxisShowsTheTimeout: the queue chart's axis keeps a
// few times the larger of the timeout and the bound below a break, so the
// timeout's mark sits well above the axis even when the queue grows to
// minutes of work (3 retries: about 594 s); above the break the axis goes
// on to the peak, squeezed, so the queue is drawn whole to its peak
// (issue 28, item 9: it was cut flat at 10 s while the queue reached
// 27.7 s); a curve above the break says so in its label, with where and
// how far, and only then, and the axis breaks only then.
func TestMechanismQueueAxisShowsTheTimeout(t *testing.T) {
	tests := []struct {
		name    string
		config  sim.Config
		clipped bool
		reason  string
	}{
		{"fifo", shop(withSeries), true, "the default's queue peaks near 30 s of work, past 10 s"},
		{"fifo, 3 retries", shop(retries(3), withSeries), true, "retries grow the queue to about 594 s of work"},
		{"bounded", shop(policy(sim.Bounded), withSeries), false, "a bound of 2 s of work keeps the queue on the chart"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, ok := report.BuildMechanism(run(t, tt.config))
			require.True(t, ok)
			ch := m.Queue
			top := yMax(t, ch)
			require.Equal(t, "timeout", ch.Marks[0].Kind)
			height := (ch.Plot.Y + ch.Plot.H - ch.Marks[0].Y) / ch.Plot.H
			assert.GreaterOrEqual(t, height, 0.15, "%s: the timeout sits visibly above the axis", tt.reason)
			broken := ch.Break != report.Span{}
			assert.Equal(t, tt.clipped, broken, "%s: the axis breaks", tt.reason)
			below := top // the axis's top below the break
			if broken {
				assert.True(t, ch.Plot.Y < ch.Break.From && ch.Break.From < ch.Break.To && ch.Break.To < ch.Plot.Y+ch.Plot.H, "%s: the break is inside the plot", tt.reason)
				below = yMaxBelow(t, ch)
				assert.Greater(t, top, below, "%s: the axis goes on above the break", tt.reason)
				assert.Greater(t, ch.Marks[0].Y, ch.Break.To, "%s: the timeout is below the break", tt.reason)
			}
			for _, cv := range ch.Curves {
				assert.LessOrEqual(t, cv.Max, top, "%s: %s's peak is on the axis", tt.reason, cv.Kind)
				_, ys := pathPoints(t, cv.Path)
				peakY := slices.Min(ys)
				assert.GreaterOrEqual(t, peakY, ch.Plot.Y, "%s: %s stays in the plot", tt.reason, cv.Kind)
				note := regexp.MustCompile(`; above the break from .+, at most ([0-9,.]+) s$`).FindStringSubmatch(cv.Label)
				if !(cv.Max > below) {
					assert.Nil(t, note, "%s: %s stays below the break, so no note: %q", tt.reason, cv.Kind, cv.Label)
					continue
				}
				require.NotNil(t, note, "%s: %s goes above the break, and says so: %q", tt.reason, cv.Kind, cv.Label)
				assert.Equal(t, report.Number(cv.Max, 2), note[1], "%s: %s's note quotes its real peak", tt.reason, cv.Kind)
				assert.Less(t, peakY, ch.Break.From, "%s: %s is drawn above the break, not cut off at it", tt.reason, cv.Kind)
				assert.Greater(t, peakY, ch.Plot.Y-1e-9, "%s: %s's peak is drawn where the axis says", tt.reason, cv.Kind)
			}
		})
	}
}

// TestLimitChart: a run under an adaptive limit has a fourth chart, the
// limit and the requests in flight against the workers, with the line
// that says what the limit did; a run without one has none.
func TestLimitChart(t *testing.T) {
	c := sim.DefaultConfig()
	c.Policy, c.SeriesStepS = sim.Envoy, 1
	r, err := sim.Run(c)
	require.NoError(t, err)
	m, ok := report.BuildMechanism(r)
	require.True(t, ok)
	require.NotNil(t, m.Limit)
	assert.Equal(t, "limit", m.Limit.Key)
	assert.Equal(t, []string{"limit", "in_flight"}, []string{m.Limit.Curves[0].Kind, m.Limit.Curves[1].Kind})
	assert.Equal(t, report.LimitSentence(r), m.Limit.Sentence)
	assert.Len(t, m.Limit.Table.Rows, len(r.Series.Points), "a row a step")
	c.Policy = sim.FIFO
	r, err = sim.Run(c)
	require.NoError(t, err)
	m, ok = report.BuildMechanism(r)
	require.True(t, ok)
	assert.Nil(t, m.Limit, "no limit, no chart")
	for _, f := range report.MechanismCharts(r) {
		assert.NotEmpty(t, f().Key, "every chart has a key, for the page's ids")
	}
}
