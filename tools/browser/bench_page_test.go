//go:build !js

package browser

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/shedsim/shedsim/sim"
)

// The page's main thread while a reader works it (issue 10, item 4), in
// Chromium at 1x and at 4x CPU (DevTools' CPU throttling, standing in for
// a mid-range phone). Each benchmark reports, over its iterations:
//
//	ms-longest-task      the longest task of the main thread, its wall
//	                     time (Chromium's trace; over 50 ms it is what the
//	                     Long Tasks API reports)
//	ms-longest-task-cpu  the CPU time the thread had in its busiest task:
//	                     the page's own work, which the load on the machine
//	                     does not lengthen, where the wall time counts the
//	                     wait for a core too
//	long-tasks           tasks over 50 ms of wall time, an iteration
//	ms-results           from the change to the chosen policy's headline
//	                     (the page's own first_ms: run in a worker, read
//	                     and drawn), on average
//	ms-whole             from the change to every policy, the advice and
//	                     the clients drawn, on average
//
// Speed figures: benchmarks, never timed tests (sim/PERF.md).

// pageFigures gathers a benchmark's figures.
type pageFigures struct {
	longest, longestCPU float64
	long                int
	results, whole      float64
	n                   int
}

// traced runs change in tb, which must end once the page has drawn what it
// changed whole, under a trace of the main thread, and adds its tasks and
// the page's timings (the last shedsim:result and shedsim:clients).
func (f *pageFigures) traced(tb *tab, change func()) {
	tb.tb.Helper()
	startTrace(tb)
	change()
	settle(tb)
	for _, task := range stopTrace(tb) {
		f.longest = max(f.longest, task.WallMS)
		f.longestCPU = max(f.longestCPU, task.CPUMS)
		if task.WallMS > 50 {
			f.long++
		}
	}
	got := eval[struct {
		First   float64 `json:"first"`
		Clients float64 `json:"clients"`
	}](tb, `(() => { const r = __shedsimTest.results, t = document.querySelector('#timing').dataset;
		return {first: r[r.length - 1].detail.first_ms, clients: +t.clientsMs}; })()`)
	f.results += got.First
	f.whole += got.Clients
	f.n++
}

func (f *pageFigures) report(b *testing.B) {
	b.ReportMetric(f.longest, "ms-longest-task")
	b.ReportMetric(f.longestCPU, "ms-longest-task-cpu")
	b.ReportMetric(float64(f.long)/float64(f.n), "long-tasks")
	b.ReportMetric(f.results/float64(f.n), "ms-results")
	b.ReportMetric(f.whole/float64(f.n), "ms-whole")
	b.ReportMetric(0, "ns/op")
}

// cpuRates are the CPU speeds the benchmarks run at: 1x, and 4x slower.
var cpuRates = []float64{1, 4}

// openThrottled opens the simulator in a new browser, waits for its first
// results, then slows its CPU to rate (1 for none).
func openThrottled(b *testing.B, rate float64) *tab {
	s := startBrowser(b)
	tb := s.newTab(b, recorder)
	tb.open(s.fileURL("index.html"))
	tb.summaryOf("#summary", "")
	warmTrace(tb)
	throttleCPU(tb, rate)
	return tb
}

// warmTrace traces tb once, unmeasured: a tab's first trace begins with
// a task in which the renderer sets tracing up, 50 to 120 ms of CPU at
// 4x, the harness's work and not the page's.
func warmTrace(tb *tab) {
	tb.tb.Helper()
	startTrace(tb)
	stopTrace(tb)
}

// BenchmarkBrowserBigLink is issue 10's big link, an hour of 100,000
// workers (bigLink), entered into the open page: its seven runs in the
// workers, then its hour drawn a step at a time.
func BenchmarkBrowserBigLink(b *testing.B) {
	for _, rate := range cpuRates {
		b.Run(fmt.Sprintf("%gx", rate), func(b *testing.B) {
			s := startBrowser(b)
			var f pageFigures
			for b.Loop() {
				tb := s.newTab(b, recorder)
				tb.open(s.fileURL("index.html"))
				tb.summaryOf("#summary", "")
				warmTrace(tb)
				throttleCPU(tb, rate)
				f.traced(tb, func() {
					tb.do("entering the big link's numbers", chromedp.Evaluate[chromedp.Void](`(() => {
						const set = (k, v) => { document.querySelector('#in-' + k).value = v; };
						set('workers', '100000'); set('normal_rps', '92'); set('sale_rps', '92'); set('duration_s', '3600');
						document.querySelector('#sim-form').requestSubmit();
					})()`))
					waitResult(tb, "the big link's results", `c.workers === 100000 && c.duration_s === 3600`)
					tb.summaryOf("#summary", "")
					waitClients(tb)
				})
				tb.close()
			}
			f.report(b)
		})
	}
}

// BenchmarkBrowserPolicyMenu arrows down the policy menu through every
// policy, each press a recompute (the other five policies' runs stand, so
// it is the chosen policy's run and drawing, and the clients').
func BenchmarkBrowserPolicyMenu(b *testing.B) {
	for _, rate := range cpuRates {
		b.Run(fmt.Sprintf("%gx", rate), func(b *testing.B) {
			tb := openThrottled(b, rate)
			var f pageFigures
			down := true
			for b.Loop() {
				tb.do("focusing the policy menu", chromedp.Focus(chromedp.CSS("#in-policy")))
				for i := 1; i < len(sim.Policies); i++ {
					key, p := kb.ArrowDown, sim.Policies[i]
					if !down {
						key, p = kb.ArrowUp, sim.Policies[len(sim.Policies)-1-i]
					}
					f.traced(tb, func() {
						tb.do("pressing an arrow", chromedp.KeyEvent(key))
						waitResult(tb, "the results for "+p.String(), `c.policy === `+js(p.String()))
						tb.summaryOf("#summary", "")
						waitClients(tb)
					})
				}
				down = !down
			}
			f.report(b)
		})
	}
}

// BenchmarkBrowserTypingAt is typing a sale rate and Enter
// (typeAndCommit), at 1x and 4x, traced: BenchmarkBrowserTyping's
// figures, with the CPU time and the time to results.
func BenchmarkBrowserTypingAt(b *testing.B) {
	for _, rate := range cpuRates {
		b.Run(fmt.Sprintf("%gx", rate), func(b *testing.B) {
			typing(b, openThrottled(b, rate)).report(b)
		})
	}
}

// typing is b's loop of typing a sale rate and Enter (typeAndCommit: 191
// to 240, a new number each time) into tb's page, traced.
func typing(b *testing.B, tb *tab) *pageFigures {
	var f pageFigures
	n := 0
	for b.Loop() {
		f.traced(tb, func() { typeAndCommit(tb, fmt.Sprint(191+n%50)) })
		n++
	}
	return &f
}

// BenchmarkBrowserTypingWorkers is BenchmarkBrowserTypingAt at 1x with
// one worker fewer than the machine has cores (navigator.hardwareConcurrency
// - 1, at least 1, emulated before the page starts its pool) and with one
// a core: the wall time of the main thread's longest task against its CPU
// time says how long it waited for a core the workers held.
func BenchmarkBrowserTypingWorkers(b *testing.B) {
	s := startBrowser(b)
	for _, bc := range []struct{ name, script string }{
		{"CoresLessOne", `(() => { const n = Math.max(1, navigator.hardwareConcurrency - 1); Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', {get: () => n}); })();`},
		{"EveryCore", ``},
	} {
		b.Run(bc.name, func(b *testing.B) {
			tb := s.newTab(b, recorder, bc.script)
			tb.open(s.fileURL("index.html"))
			tb.summaryOf("#summary", "")
			workers := eval[int](tb, `shedsimWorkers.size`)
			typing(b, tb).report(b)
			b.ReportMetric(float64(workers), "workers")
		})
	}
}

// BenchmarkBrowserSeedsAt is the seeds control at 40 (every policy over
// seeds n to n+39, 234 runs beside the comparison's own, a new seed each
// time so that no run stands), at 1x and 4x, traced:
// BenchmarkBrowserSeeds' recompute, with the CPU time of each task of
// the main thread while the seeds' answers are decoded and drawn.
func BenchmarkBrowserSeedsAt(b *testing.B) {
	for _, rate := range cpuRates {
		b.Run(fmt.Sprintf("%gx", rate), func(b *testing.B) {
			s := startBrowser(b)
			tb := s.newTab(b, recorder)
			tb.open(s.fileURL("index.html") + "?seeds=40")
			waitSeeds(tb)
			waitClients(tb)
			warmTrace(tb)
			throttleCPU(tb, rate)
			var f pageFigures
			seed := 1
			for b.Loop() {
				seed += 40
				f.traced(tb, func() {
					tb.do("submitting a new seed", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
						document.querySelector('#in-seed').value = '%d';
						document.querySelector('#sim-form').requestSubmit();
					})()`, seed)))
					waitResult(tb, fmt.Sprintf("the results for seed %d", seed), fmt.Sprintf(`c.seed === %d`, seed))
					waitSeeds(tb)
					waitClients(tb)
				})
			}
			f.report(b)
		})
	}
}
