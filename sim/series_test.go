package sim

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkSeries holds r's series to what it must be: one point a step, each
// with its busy workers split three ways and within the workers, goodput
// within throughput, and the counts, the worker time, the longest queue and
// the longest wait adding up to the Result's own figures.
func checkSeries(t testing.TB, c Config, r Result) {
	t.Helper()
	s := r.Series
	require.NotNil(t, s, "the Config asks for a series")
	step := int64(math.Round(c.SeriesStepS * 1e9))
	end := int64(math.Round(c.DurationS * 1e9))
	require.Len(t, s.Points, int((end+step-1)/step), "one point for every started step of the run")
	assert.Equal(t, float64(step)/1e9, s.StepS)
	assert.Equal(t, c.CapacityRPS(), s.CapacityRPS)

	var attempts, retries, completed, answered, queue int
	var useful, wasted, refusing, gone, oldest float64
	workers := float64(c.Workers)
	for k, p := range s.Points {
		start := int64(k) * step
		length := float64(min(start+step, end)-start) / 1e9
		assert.Equal(t, float64(start)/1e9, p.StartS, "point %d starts at k x step", k)
		busy := p.BusyUseful + p.BusyWasted + p.BusyRefusing
		assert.True(t, p.BusyUseful >= 0 && p.BusyWasted >= 0 && p.BusyRefusing >= 0 && p.Gone >= 0,
			"point %d: no use of worker time is negative: %+v", k, p)
		assert.LessOrEqual(t, busy+p.Gone, workers*(1+1e-12),
			"point %d: useful + wasted + refusing workers are at most the workers present (those a loss has not taken)", k)
		assert.LessOrEqual(t, p.Answered, p.Completed, "point %d: goodput never exceeds throughput", k)
		assert.True(t, p.FirstAttempts >= 0 && p.Retries >= 0 && p.Queue >= 0 && p.OldestWaitMS >= 0, "point %d: %+v", k, p)
		if c.Policy == Bounded || c.Policy == Priority {
			assert.LessOrEqual(t, p.Queue, r.QueueBound, "point %d: the bound holds", k)
		}
		if p.Queue > 0 {
			assert.Positive(t, p.OldestWaitMS+1e-6, "point %d", k)
		}
		attempts += p.FirstAttempts + p.Retries
		retries += p.Retries
		completed += p.Completed
		answered += p.Answered
		useful += p.BusyUseful * length
		wasted += p.BusyWasted * length
		refusing += p.BusyRefusing * length
		gone += p.Gone * length
		queue = max(queue, p.Queue)
		oldest = max(oldest, p.OldestWaitMS)
	}
	var people int
	for _, w := range r.Windows {
		people += w.Answered
	}
	assert.Equal(t, r.Attempts, attempts, "the series' attempts add up to the Result's")
	assert.Equal(t, r.Client.RetriesSent, retries, "the series' retries are the retries sent")
	assert.Equal(t, people, answered, "every person answered was answered in some step")
	assert.Equal(t, r.Wasted, completed-answered, "what was completed but not answered in time is the wasted work")
	// Each point's worker time is a ratio of ns, so the sums carry
	// rounding of a part in 1e15 a point.
	tol := 1e-9 * workers * c.DurationS
	assert.InDelta(t, r.WorkerTimeS.Useful, useful, tol, "the useful worker time adds up")
	assert.InDelta(t, r.WorkerTimeS.Wasted, wasted, tol, "the wasted worker time adds up")
	assert.InDelta(t, r.WorkerTimeS.Refusing, refusing, tol, "the refusing worker time adds up")
	assert.InDelta(t, r.WorkerTimeS.Gone, gone, tol, "the time of the workers a loss took adds up")
	assert.Equal(t, r.LongestQueue, queue, "the longest queue is the series' highest")
	if c.RefusalCostMS == 0 {
		assert.Equal(t, r.LongestQueueWaitMS, oldest, "the longest wait is the series' longest")
	} else {
		// Refusal work waiting at the run's end counts in the Result's
		// longest wait, not in the queue's.
		assert.LessOrEqual(t, oldest, r.LongestQueueWaitMS, "the queue's longest wait is at most the Result's")
	}
}

// withSeries returns c asking for a series at step s.
func withSeries(c Config, s float64) Config {
	c.SeriesStepS = s
	return c
}

// TestSeriesInvariants checks every invariant Config's series, at the step
// the command line would choose and at one that fits no grid, and requires
// that asking for a series changes nothing else in the Result.
func TestSeriesInvariants(t *testing.T) {
	cs := invariantConfigs(t)
	var runs []Config
	for _, tt := range cs {
		runs = append(runs, tt.c, withSeries(tt.c, SeriesStep(tt.c.DurationS)), withSeries(tt.c, 7.3))
	}
	rs := runAll(t, runs)
	for i, tt := range cs {
		t.Run(tt.name, func(t *testing.T) {
			plain := rs[3*i]
			require.Nil(t, plain.Series, "no series unless asked for")
			for _, r := range rs[3*i+1 : 3*i+3] {
				c := r.Config
				checkSeries(t, c, r)
				checkInvariants(t, c, r)
				r.Series, r.Config = nil, plain.Config
				r.Hops = slices.Clone(r.Hops)
				for k := range r.Hops { // each hop's series too (rule 40)
					require.NotNil(t, r.Hops[k].Result.Series, "hop %d has a series", k+1)
					r.Hops[k].Result.Series, r.Hops[k].Result.Config = nil, plain.Hops[k].Result.Config
				}
				assert.Equal(t, plain, r, "step %g s: the series changes nothing else", c.SeriesStepS)
			}
		})
	}
}

// TestSeriesStep pins the step the command line and the page ask for.
func TestSeriesStep(t *testing.T) {
	tests := []struct {
		reason   string
		duration float64
		want     float64
	}{
		{"the shop's 300 s run: a point a second", 300, 1},
		{"the shortest run", 10, 1},
		{"360 s still fits at 1 s", 360, 1},
		{"361 s does not", 361, 2},
		{"an hour: 360 points of 10 s", 3600, 10},
		{"a day, the longest run: 288 points of 5 minutes", maxDuration, 300},
	}
	for _, tt := range tests {
		got := SeriesStep(tt.duration)
		assert.Equal(t, tt.want, got, tt.reason)
		c := DefaultConfig()
		c.DurationS, c.SeriesStepS = tt.duration, got
		c.SaleStartS, c.SaleS = 0, 0
		assert.NoError(t, c.Validate(), "%s: the step is valid", tt.reason)
		assert.LessOrEqual(t, math.Ceil(tt.duration/got), float64(seriesPoints), tt.reason)
	}
}

// TestSeriesValidation: a step that is not a number, too small, too large
// or makes too many points is refused, naming the field and the fix.
func TestSeriesValidation(t *testing.T) {
	tests := []struct {
		reason string
		step   float64
		want   string // in the message; "" for valid
	}{
		{"0 asks for no series", 0, ""},
		{"a negative step", -1, "is too small: use a number from 0.001 to 86,400 s, or 0 for no series"},
		{"not a number", math.NaN(), "is not a number"},
		{"infinite", math.Inf(1), "is not a finite number"},
		{"a microsecond", 1e-6, "is too small"},
		{"a millisecond over 300 s makes 300,000 points", 0.001, "makes 300,000 points of a 300 s run, over the 3,600 a series may hold: use a step of at least 0.084 s"},
		{"the suggested step is valid", 0.084, ""},
		{"a step longer than the run: one point", 1000, ""},
		{"over a day", maxDuration + 1, "is too large"},
	}
	for _, tt := range tests {
		c := DefaultConfig()
		c.SeriesStepS = tt.step
		err := c.Validate()
		if tt.want == "" {
			assert.NoError(t, err, tt.reason)
			continue
		}
		fes := FieldErrors(err)
		require.Len(t, fes, 1, tt.reason)
		assert.Equal(t, "series_step_s", fes[0].Field, tt.reason)
		assert.Contains(t, fes[0].Msg, tt.want, tt.reason)
	}
}

// TestSeriesJSON: a Config that asks for no series has the JSON it had
// before the field existed, and a Result without a series has no key for it.
func TestSeriesJSON(t *testing.T) {
	b, err := json.Marshal(DefaultConfig())
	require.NoError(t, err)
	assert.NotContains(t, string(b), "series", "an unset step leaves the Config's JSON alone")
	r, err := Run(DefaultConfig())
	require.NoError(t, err)
	b, err = json.Marshal(r)
	require.NoError(t, err)
	assert.NotContains(t, string(b), `"series"`)
	r, err = Run(withSeries(DefaultConfig(), 1))
	require.NoError(t, err)
	b, err = json.Marshal(r)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"series_step_s":1`)
	assert.Contains(t, string(b), `"series":{"step_s":1,"capacity_rps":100,"points":[{"start_s":0,`)
}

// TestGoldenSeries pins two series to the byte: the shop's sale into the
// unbounded queue, and the bounded queue with retries and a refusal cost,
// at a step that does not divide the run.
func TestGoldenSeries(t *testing.T) {
	busy := shop(Bounded, withRetries(3), withRefusal(20))
	for _, tt := range []struct {
		file string
		c    Config
	}{
		{"series-default.json", withSeries(DefaultConfig(), 1)},
		{"series-bounded-retries-refusal.json", withSeries(busy, 7)},
	} {
		r, err := Run(tt.c)
		require.NoError(t, err)
		var b []byte
		b = append(b, fmt.Sprintf("{\"step_s\": %v, \"capacity_rps\": %v, \"points\": [\n", r.Series.StepS, r.Series.CapacityRPS)...)
		for k, p := range r.Series.Points {
			line, err := json.Marshal(p)
			require.NoError(t, err)
			b = append(b, line...)
			if k < len(r.Series.Points)-1 {
				b = append(b, ',')
			}
			b = append(b, '\n')
		}
		b = append(b, "]}\n"...)
		golden(t, tt.file, b)
	}
}

// TestSeriesMechanism holds the default run's series to the post's
// mechanism, over seeds 1..20: in the sale the unbounded queue grows by
// about 150 - 100 = 50 a second, while the workers keep finishing about 100
// a second (throughput) and, from a few seconds into the sale, answer
// nobody in time (goodput 0).
func TestSeriesMechanism(t *testing.T) {
	var cs []Config
	for seed := uint64(1); seed <= 20; seed++ {
		c := withSeries(DefaultConfig(), 1)
		c.Seed = seed
		cs = append(cs, c)
	}
	var growth, throughput, goodput float64
	for _, r := range runAll(t, cs) {
		p := r.Series.Points
		// The queue from 10 s into the sale to its end (60 s to 120 s).
		growth += float64(p[119].Queue-p[70].Queue) / 49
		var done, answered int
		for _, q := range p[70:120] {
			done += q.Completed
			answered += q.Answered
		}
		throughput += float64(done) / 50
		goodput += float64(answered) / 50
	}
	n := float64(len(cs))
	t.Logf("over 20 seeds, in the sale: the queue grows %.1f a second, throughput %.1f/s, goodput %.2f/s", growth/n, throughput/n, goodput/n)
	assert.InDelta(t, 50, growth/n, 5, "the queue grows by the sale's excess over capacity, 150 - 100 a second")
	assert.InDelta(t, 100, throughput/n, 3, "the workers keep finishing at capacity")
	assert.Less(t, goodput/n, 1.0, "from 10 s into the sale, nobody who joined the queue is answered in time")
}

// TestSeriesQueueIsTheHighWater rebuilds the queue's length after every
// event from the engine's trace and requires each point's Queue to be its
// most during the step, the length the step started with included: after
// a sale with nobody arriving behind it, the queue drains in steps that
// have no arrivals at all.
func TestSeriesQueueIsTheHighWater(t *testing.T) {
	drain := withSeries(DefaultConfig(), 1)
	drain.NormalRPS = 0
	for _, c := range []Config{withSeries(DefaultConfig(), 1), drain, withSeries(shop(Bounded, withRetries(3)), 2.5)} {
		e := newEngine(c, nil)
		type sample struct {
			at int64
			n  int
		}
		var samples []sample
		last := int64(0)
		e.trace = func(at int64, _ string, _ *attempt) {
			samples = append(samples, sample{last, e.queue.len()}) // the length since the last event
			last = at
		}
		e.loop()
		samples = append(samples, sample{last, e.queue.len()})
		r := e.result()
		step := int64(math.Round(c.SeriesStepS * 1e9))
		want := make([]int, len(r.Series.Points))
		held := 0 // the length at the step's start
		j := 0
		for k := range want {
			want[k] = held
			for ; j < len(samples) && samples[j].at < int64(k+1)*step; j++ {
				want[k] = max(want[k], samples[j].n)
				held = samples[j].n
			}
		}
		got := make([]int, len(want))
		for k, p := range r.Series.Points {
			got[k] = p.Queue
		}
		assert.Equal(t, want, got, "%v, normal %g/s: each step's most waiting at once", c.Policy, c.NormalRPS)
	}
}

// BenchmarkRunSeries is BenchmarkRunDefault asking for the series at the
// step the command line and the page use, 1 s.
func BenchmarkRunSeries(b *testing.B) {
	b.ReportAllocs()
	reportAttempts(b, benchRun(b, withSeries(DefaultConfig(), SeriesStep(300))))
}

// TestSeriesOnTheArrivalOrderPath: a series is recorded on the
// arrival-order path too, the event loop's to the byte, at steps that cut
// services, waits and windows anywhere, and the path computes it itself.
func TestSeriesOnTheArrivalOrderPath(t *testing.T) {
	tests := []struct {
		reason string
		change func(*Config)
	}{
		{"the page's series of the shop", func(c *Config) { c.SeriesStepS = 1 }},
		{"a step that fits neither the windows nor the run", func(c *Config) { c.SeriesStepS = 7.3 }},
		{"steps shorter than a service: each service spans many", func(c *Config) { c.SeriesStepS, c.DurationS, c.SaleStartS, c.SaleS = 0.003, 10, 0, 0 }},
		{"one step longer than the run", func(c *Config) { c.SeriesStepS = 1000 }},
		{"the retry storm: the queue waits across thousands of boundaries", func(c *Config) { c.SeriesStepS, c.Retries = 0.1, 3 }},
		{"skip drops the abandoned as they leave the queue", func(c *Config) { c.SeriesStepS, c.Policy, c.Retries = 0.25, Skip, 3 }},
		{"the bounded queue refuses as they arrive", func(c *Config) { c.SeriesStepS, c.Policy, c.Queue, c.Retries = 2, Bounded, 40, 3 }},
		{"codel refuses as they leave the queue", func(c *Config) { c.SeriesStepS, c.Policy, c.Retries = 0.5, CoDel, 3 }},
		{"jittered retries", func(c *Config) { c.SeriesStepS, c.Retries, c.RetryJitterMS = 1, 3, 500 }},
		{"one worker, services longer than the timeout", func(c *Config) { c.SeriesStepS, c.Workers, c.ServiceMS, c.NormalRPS, c.SaleRPS = 0.7, 1, 3000, 0.2, 1 }},
	}
	for _, tt := range tests {
		c := DefaultConfig()
		tt.change(&c)
		require.True(t, arrivalOrderTakes(c), tt.reason)
		assert.True(t, sameByBothPaths(t, tt.reason, c), "%s: computed by the arrival-order path", tt.reason)
		r, err := Run(c)
		require.NoError(t, err)
		checkSeries(t, c, r)
	}
}
