//go:build !js

package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/sweep"
	"github.com/shedsim/shedsim/wasm/adapter"
)

// tipsRecorder keeps the tips page's last sweep and map (the events'
// details) in window.__tips.
const tipsRecorder = `(() => {
	const rec = window.__tips = {sweeps: [], maps: [], at: []};
	document.addEventListener('shedsim:sweep', (e) => { rec.sweeps.push(e.detail); rec.at.push(performance.now()); });
	document.addEventListener('shedsim:map', (e) => rec.maps.push(e.detail));
})();`

// TestTips checks "Where it tips" (issue 13) in Chromium: the sweep and
// the map drawn, tabled and in the address, a click (and a key on a
// table's button) setting the value, bad input refused with what was
// typed kept, and the page's numbers equal to shedsim sweep --json's.
func TestTips(t *testing.T) {
	s := startBrowser(t)
	t.Run("Sweep", func(t *testing.T) { testTipsSweep(t, s) })
	t.Run("Map", func(t *testing.T) { testTipsMap(t, s) })
	t.Run("Refused", func(t *testing.T) { testTipsRefused(t, s) })
	t.Run("Screens", func(t *testing.T) { testTipsScreens(t, s) })
	t.Run("Superseded", func(t *testing.T) { testTipsSuperseded(t, s) })
}

// tipsSweepQuery is a small sweep: every policy, the sale rate from 100
// to 200 in 5 steps at 3 seeds, with a retry.
const tipsSweepQuery = "?knob=sale_rps&from=100&to=200&steps=5&seeds=3&retries=1"

// waitSweeps waits until the page has finished n sweeps (or maps).
func waitTips(tb *tab, what string, n int) {
	tb.tb.Helper()
	poll[bool](tb, what+" to be measured", fmt.Sprintf(`window.__tips.%s.length >= %d`, what, n),
		`(document.querySelector('.tips .summary') || {textContent: 'no status'}).textContent`)
}

func testTipsSweep(t *testing.T, s *session) {
	tb := s.newTab(t, tipsRecorder)
	tb.open(s.fileURL("tips.html") + tipsSweepQuery)
	waitTips(tb, "sweeps", 1)
	n := len(sim.Policies)
	assert.Equal(t, 5*n, tb.count("#tips-chart circle.pt"), "a point per policy and step")
	assert.Equal(t, n, tb.count("#tips-chart polyline.curve"), "a curve per policy")
	assert.Equal(t, n, tb.count("#tips-chart polygon.band"), "a band per policy")
	assert.Positive(t, tb.count("#tips-chart path.flip"), "the unbounded queue with a retry stops getting back within the range: its flip is marked")
	assert.Positive(t, tb.count("#tips-chart circle.cross"), "a crossing of half the sale is marked")
	assert.Equal(t, 1, tb.count("#tips-chart line.now-line"), "the current value, 150/s, is marked")
	assert.Equal(t, 5*n, tb.count("#tips-table tbody tr[data-policy]"), "the table has every policy's every step")
	assert.Equal(t, n, tb.count(`#tips-table tr.now`), "the rows at the current value, 150/s, are marked, one per policy")
	assert.True(t, strings.HasPrefix(tb.text("#tips-sentence"), "Over sale_rps from 100 to 200/s (seeds 1 to 3 at every step): the unbounded queue stops getting back to normal"),
		tb.text("#tips-sentence"))
	title, _ := tb.attr(`#tips-chart circle.pt[data-set="175"]`, "class")
	assert.Contains(t, title, "pt pol-fifo", "a point at 175/s")
	assert.Contains(t, tb.text(`#tips-chart circle.pt.pol-fifo[data-set="175"] title`), "Unbounded queue, sale_rps 175/s: ")

	// The page's numbers are the command line's, to the byte.
	sameAsTheCommandLine(t, eval[string](tb, `JSON.stringify(window.__tips.sweeps[0].sweep)`))

	// A click on a point sets its value: in the address, the form, the
	// mark and the simulator's link; no run is made again.
	tb.do("clicking the point at 175/s", chromedp.Evaluate[chromedp.Void](`document.querySelector('#tips-chart circle.pt[data-set="175"]').dispatchEvent(new MouseEvent('click', {bubbles: true}))`))
	q := tipsQuery(tb)
	assert.Equal(t, "175", q.Get("sale_rps"), "the address has the value clicked")
	assert.Equal(t, "1", q.Get("retries"), "and keeps the rest")
	assert.Equal(t, "175", eval[string](tb, `document.getElementById('in-sale_rps').value`), "the form has it")
	assert.Equal(t, "now 175/s", tb.text("#tips-chart .now-label"), "the mark moved")
	href, _ := tb.attr("#tips-open-sim", "href")
	assert.Contains(t, href, "index.html?sale_rps=175&retries=1", "the simulator's link opens that setting")
	assert.Equal(t, 1, eval[int](tb, `window.__tips.sweeps.length`), "setting the knob's own value runs nothing again")
	assert.Equal(t, len(sim.Policies), tb.count(`#tips-table tr.now`), "the table marks the new value's rows")

	// A key on a table's button does the same.
	tb.do("Enter on the button of 125/s", chromedp.Focus(chromedp.CSS(`#tips-table tr[data-policy="bounded"] button[data-set="125"]`)), chromedp.KeyEvent(kb.Enter))
	assert.Equal(t, "125", tipsQuery(tb).Get("sale_rps"), "Enter on a table's button sets its value")

	// Another knob runs again, and is in the address.
	tb.do("choosing retries", chromedp.SetValue(chromedp.CSS("#in-knob"), "retries"), chromedp.Evaluate[chromedp.Void](`document.getElementById('in-knob').dispatchEvent(new Event('change', {bubbles: true}))`))
	tb.typeInto("#in-from", "0")
	tb.typeInto("#in-to", "3")
	tb.typeInto("#in-steps", "4")
	tb.do("Enter", chromedp.KeyEvent(kb.Enter))
	waitTips(tb, "sweeps", 2)
	q = tipsQuery(tb)
	assert.Equal(t, "retries", q.Get("knob"))
	assert.Equal(t, "4", q.Get("steps"))
	assert.Equal(t, 4*len(sim.Policies), tb.count("#tips-chart circle.pt"), "every policy x 4 steps")
	tb.noProblems()
}

// sameAsTheCommandLine checks that page, a sweep's JSON from the page, is
// shedsim sweep --json's for tipsSweepQuery, to the byte.
func sameAsTheCommandLine(t *testing.T, page string) {
	t.Helper()
	cmd := exec.Command("go", "run", "./tools/shedsim", "sweep", "--knob", "sale_rps", "--from", "100", "--to", "200", "--steps", "5", "--seeds", "3", "--retries", "1", "--json")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	require.NoError(t, err, "shedsim sweep --json")
	var want, got bytes.Buffer
	require.NoError(t, json.Compact(&want, out))
	require.NoError(t, json.Compact(&got, []byte(page)))
	if w, g := want.String(), got.String(); w != g {
		i := 0
		for i < min(len(w), len(g)) && w[i] == g[i] {
			i++
		}
		t.Errorf("the page's sweep is not shedsim sweep --json's: from byte %d, the command line has %q, the page %q", i, w[i:min(i+80, len(w))], g[i:min(i+80, len(g))])
	}
}

// testTipsSuperseded changes the request while a big sweep is measured:
// the settings each worker holds (the one it measures and the next,
// site/workers.js) are cancelled, and the new request's numbers are the
// command line's, to the byte, with no answer of the old one among them.
func testTipsSuperseded(t *testing.T, s *session) {
	tb := s.newTab(t, tipsRecorder)
	tb.open(s.fileURL("tips.html") + "?knob=sale_rps&from=100&to=250&steps=16&seeds=10&retries=1")
	poll[bool](tb, "the big sweep to be under way", `/^Measuring: [1-9]/.test(document.querySelector('.tips .summary').textContent)`,
		`document.querySelector('.tips .summary').textContent`)
	tb.typeInto("#in-to", "200")
	tb.typeInto("#in-steps", "5")
	tb.typeInto("#in-seeds", "3")
	tb.do("Enter", chromedp.KeyEvent(kb.Enter))
	waitTips(tb, "sweeps", 1)
	assert.Equal(t, "200", tipsQuery(tb).Get("to"), "the address has the request measured")
	sameAsTheCommandLine(t, eval[string](tb, `JSON.stringify(window.__tips.sweeps[0].sweep)`))
	assert.Equal(t, 5*len(sim.Policies), tb.count("#tips-chart circle.pt"), "every policy x 5 steps")
	tb.noProblems()
}

// tipsQuery is the tab's address's query.
func tipsQuery(tb *tab) url.Values {
	tb.tb.Helper()
	q, err := url.ParseQuery(strings.TrimPrefix(eval[string](tb, `location.search`), "?"))
	require.NoError(tb.tb, err)
	return q
}

func testTipsMap(t *testing.T, s *session) {
	tb := s.newTab(t, tipsRecorder)
	tb.open(s.fileURL("tips.html") + "?kind=map&x_from=100&x_to=200&x_steps=3&y_steps=2&y_to=1&seeds=2")
	waitTips(tb, "maps", 1)
	assert.Equal(t, 6, tb.count("#tips-chart rect.cell"), "3 x 2 cells")
	assert.Equal(t, 0, tb.count(`#tips-chart rect.cell:not([class*="back-"])`), "every cell coloured by the seeds back")
	assert.Contains(t, tb.text(`#tips-chart rect.cell[data-set-x="200"][data-set-y="1"] title`), "sale_rps 200/s, 1 retry: ", "a cell's words on hover")
	assert.Contains(t, tb.text(`#tips-chart rect.cell[data-set-x="200"][data-set-y="1"] title`), "% of the sale's people answered; recovered after the sale (90% answered again) in ")
	assert.Equal(t, 6, tb.count("#tips-table tbody button"), "a table cell per cell")
	assert.Contains(t, tb.text("#tips-sentence"), "The unbounded queue, seeds 1 to 2 in each cell: every seed recovered after the sale (90% answered again) in ")
	tb.do("clicking the cell at 200/s and 1 retry", chromedp.Evaluate[chromedp.Void](`document.querySelector('#tips-chart rect.cell[data-set-x="200"][data-set-y="1"]').dispatchEvent(new MouseEvent('click', {bubbles: true}))`))
	q := tipsQuery(tb)
	assert.Equal(t, "map", q.Get("kind"))
	assert.Equal(t, "200", q.Get("sale_rps"), "the cell sets both values")
	assert.Equal(t, "1", q.Get("retries"))
	assert.Equal(t, 1, tb.count("#tips-chart rect.now-cell"), "the cell now is outlined")
	assert.Equal(t, 1, eval[int](tb, `window.__tips.maps.length`), "setting the knobs' own values runs nothing again")
	tb.noProblems()
}

func testTipsRefused(t *testing.T, s *session) {
	tb := s.newTab(t, tipsRecorder)
	tb.open(s.fileURL("tips.html") + tipsSweepQuery)
	waitTips(tb, "sweeps", 1)
	tb.typeInto("#in-steps", "many")
	tb.do("Enter", chromedp.KeyEvent(kb.Enter))
	poll[bool](tb, "the steps to be refused", `document.getElementById('in-steps').getAttribute('aria-invalid') === 'true'`, "")
	assert.Contains(t, tb.text("#err-steps"), `"many" is not a whole number`, "the field's message names the fix")
	assert.Contains(t, tb.text(".tips .summary"), "Not updated: Steps: ")
	assert.Equal(t, "many", tipsQuery(tb).Get("steps"), "the address keeps what was typed")
	assert.Equal(t, 5*len(sim.Policies), tb.count("#tips-chart circle.pt"), "the last valid sweep stays")

	tb.typeInto("#in-steps", "31")
	tb.typeInto("#in-seeds", "1000")
	tb.do("Enter", chromedp.KeyEvent(kb.Enter))
	poll[bool](tb, "the seeds to be refused", `document.getElementById('in-seeds').getAttribute('aria-invalid') === 'true'`, "")
	assert.Contains(t, tb.text("#err-seeds"), "this would send about ", "an unreasonable request is refused with the size it needs")
	assert.Regexp(t, `\(31 steps x \d+ policies x 1,000 seeds\), over the budget of 300,000,000 a request: at most \d+ seeds fit`, tb.text("#err-seeds"), "and the most that fits")
	assert.Equal(t, 1, eval[int](tb, `window.__tips.sweeps.length`), "nothing ran")
	tb.noProblems()
}

// testTipsScreens keeps screenshots of the sweep and the map at a phone's
// width and a laptop's, light and dark, and checks that the page does not
// scroll sideways.
func testTipsScreens(t *testing.T, s *session) {
	for _, scheme := range []string{"light", "dark"} {
		for _, width := range []int64{390, 1280} {
			for _, q := range []string{tipsSweepQuery, "?kind=map&x_steps=7&y_steps=4&seeds=3"} {
				tb := s.newTab(t, tipsRecorder)
				tb.do("a viewport", chromedp.EmulateViewport(width, 900), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
					_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
						Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
					return err
				}))
				tb.open(s.fileURL("tips.html") + q)
				kind := "sweeps"
				if strings.Contains(q, "map") {
					kind = "maps"
				}
				waitTips(tb, kind, 1)
				assert.LessOrEqual(t, eval[float64](tb, `document.documentElement.scrollWidth`), float64(width), "%s at %d px does not scroll sideways", kind, width)
				screenshot(tb, t, fmt.Sprintf("tips-%s-%d-%s", kind, width, scheme))
				tb.noProblems()
			}
		}
	}
}

// BenchmarkBrowserSweep measures the sweep "Where it tips" makes when it
// opens (tips.html from disk, no query: 31 sale rates x every policy x 10
// seeds, 3,410 default-size runs with today's eleven policies; the issue's
// 1,860 were the post's six, BenchmarkSweep1860) with one worker and with
// one per core (navigator.hardwareConcurrency, which the pool reads,
// emulated), and the same request natively (sim/sweep, GOMAXPROCS as many
// as the page's workers) just before each, so that the two share the
// machine's load:
//
//   - ms/sweep: from sending the runs to the last Outcome drawn
//     (shedsim:sweep's ms), native-ms/sweep the same request natively, and
//     x-native the first over the second (the target: under 2 with
//     both cores);
//   - worker-cpu-ms: the CPU time of the page's workers (the engine, and
//     the floor of the page's time: sim/PERF.md), and page-cpu-ms that of
//     every other thread of Chromium, from the navigation to the sweep's
//     end (so the page's loading and the module's compiling too), from
//     Linux's /proc (0 elsewhere);
//   - longest-task-ms: the main thread's longest task meanwhile (Long
//     Tasks API, from the sweep's start: the engine's own start before it
//     is BenchmarkBrowserFirstResults').
//
// On a loaded machine the sweep outlasts a test tab's minute, so its tab
// has ten.
func BenchmarkBrowserSweep(b *testing.B) {
	s := startBrowser(b)
	spec, errs := adapter.SweepFromStrings(adapter.TipsValues(adapter.TipsSweep, nil))
	require.Empty(b, errs, "the page's own request")
	runs := spec.Steps * len(sim.Policies) * spec.Seeds
	browserPID := 0
	if p := chromedp.FromContext(s.ctx).Browser.Process(); p != nil {
		browserPID = p.Pid
	}
	for _, workers := range []int64{1, 0} {
		name := "workers=all"
		if workers > 0 {
			name = fmt.Sprintf("workers=%d", workers)
		}
		b.Run(name, func(b *testing.B) {
			var ms, nativeMS, longest, workerMS, pageMS float64
			for range b.N {
				procs := int(workers)
				if procs == 0 {
					procs = runtime.NumCPU()
				}
				was := runtime.GOMAXPROCS(procs)
				start := time.Now()
				sw, err := sweep.Run(spec)
				took := time.Since(start)
				runtime.GOMAXPROCS(was)
				require.NoError(b, err)
				require.Len(b, sw.Curves, len(sim.Policies))
				nativeMS += float64(took.Microseconds()) / 1000

				ctx, cancel := chromedp.NewContext(s.ctx)
				ctx, cancelTimeout := context.WithTimeout(ctx, 10*time.Minute)
				var got struct {
					MS      float64 `json:"ms"`
					Longest float64 `json:"longest"`
					Size    int     `json:"size"`
				}
				before := threadCPU(browserPID)
				err = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
					for _, src := range []string{tipsRecorder, longTasks} {
						if _, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
							return err
						}
					}
					if workers > 0 {
						_, err := cdp.Call(ctx, tg, emulation.SetHardwareConcurrencyOverride, emulation.SetHardwareConcurrencyOverrideParams{HardwareConcurrency: workers})
						return err
					}
					return nil
				}), chromedp.Navigate(s.fileURL("tips.html")))
				require.NoError(b, err)
				got, err = chromedp.Run(ctx, chromedp.Poll[struct {
					MS      float64 `json:"ms"`
					Longest float64 `json:"longest"`
					Size    int     `json:"size"`
				}](`window.__tips.sweeps.length && {ms: window.__tips.sweeps[0].ms, size: shedsimWorkers.size,
					longest: Math.max(0, ...window.__longTasks.tasks.filter(t => t.start >= window.__tips.at[0] - window.__tips.sweeps[0].ms).map(t => t.ms))}`,
					chromedp.WithPollingTimeout(9*time.Minute), chromedp.WithPollingInterval(100*time.Millisecond)))
				require.NoError(b, err, "the sweep")
				w, rest := workerCPU(before, threadCPU(browserPID))
				cancelTimeout()
				cancel()
				ms += got.MS
				longest = max(longest, got.Longest)
				workerMS += w
				pageMS += rest
				b.Logf("%s: %d workers, %d runs: %.0f ms (natively %.0f ms, %.2f times); CPU: workers %.0f ms, the rest of Chromium %.0f ms; longest task %.0f ms",
					name, got.Size, runs, got.MS, float64(took.Microseconds())/1000, got.MS/(float64(took.Microseconds())/1000), w, rest, got.Longest)
			}
			n := float64(b.N)
			b.ReportMetric(ms/n, "ms/sweep")
			b.ReportMetric(nativeMS/n, "native-ms/sweep")
			b.ReportMetric(ms/nativeMS, "x-native")
			b.ReportMetric(workerMS/n, "worker-cpu-ms")
			b.ReportMetric(pageMS/n, "page-cpu-ms")
			b.ReportMetric(longest, "longest-task-ms")
		})
	}
}
