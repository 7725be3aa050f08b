//go:build !js

package browser

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
)

// The page's size budget: sim.wasm at most 1.665 MB gzipped, what a reader
// downloads before the engine answers (the page paints first, from its
// prerendered HTML, and a service worker keeps the module after the first
// visit). Raw size, what the browser compiles, is measured rather than
// budgeted (BenchmarkBrowserWasmCompile times it); maxWasmBytes is a cap
// with modest headroom so that growth is noticed and reported. What each
// change cost, and what was measured to pay for the next, is in
// sim/PERF.md. Sizes are not timings: the same build gives the same bytes
// on any machine, so TestWasmSize holds the page to them.
const (
	maxWasmBytes     = 6_250_000
	maxWasmGzipBytes = 1_665_000
)

// wasmSizes is site/sim.wasm's size, raw and gzipped at level 9.
func wasmSizes(tb testing.TB) (raw, gz int) {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(siteDir(tb), "sim.wasm"))
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := zw.Write(data); err != nil {
		tb.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return len(data), buf.Len()
}

func TestWasmSize(t *testing.T) {
	raw, gz := wasmSizes(t)
	t.Logf("site/sim.wasm: %d bytes, %d gzipped", raw, gz)
	if raw > maxWasmBytes {
		t.Errorf("site/sim.wasm is %d bytes, over the page's %d", raw, maxWasmBytes)
	}
	if gz > maxWasmGzipBytes {
		t.Errorf("site/sim.wasm is %d bytes gzipped, over the page's %d", gz, maxWasmGzipBytes)
	}
}

// BenchmarkBrowserWasmSize reports the size of site/sim.wasm as served
// raw and gzipped (level 9); it times nothing.
func BenchmarkBrowserWasmSize(b *testing.B) {
	raw, gz := wasmSizes(b)
	for b.Loop() {
	}
	b.ReportMetric(float64(raw), "wasm-bytes")
	b.ReportMetric(float64(gz), "wasm-gzip-bytes")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkBrowserFirstResults opens index.html from disk in a new tab per
// iteration and reports, in milliseconds from the start of the navigation
// (performance.now() in the page): when the Go runtime started (the module
// read, decoded, compiled and instantiated) and when #summary first showed
// results. It also reports the loader's own readyMS (from the loader's
// start to shedsim's registration), the chosen policy's run and drawing
// (which #summary shows), and the engine's and the drawing's share of the
// whole first computation, every policy's, from #timing.
func BenchmarkBrowserFirstResults(b *testing.B) {
	s := startBrowser(b)
	addr := s.fileURL("index.html")
	var first, goRun, ready, chosen, build, draw float64
	n := 0
	for b.Loop() {
		tb := s.newTab(b, recorder)
		tb.open(addr)
		first += poll[float64](tb, "the first results", `__shedsimTest.firstResultsMS`, `document.querySelector('#summary').textContent`)
		goRun += eval[float64](tb, `__shedsimTest.goRunMS`)
		ready += eval[float64](tb, `shedsimLoader.readyMS`)
		poll[bool](tb, "every policy run and drawn", `!!document.querySelector('#timing').dataset.buildMs`, `document.querySelector('#timing').textContent`)
		for _, m := range []struct {
			attr string
			sum  *float64
		}{{"data-first-ms", &chosen}, {"data-build-ms", &build}, {"data-draw-ms", &draw}} {
			v, _ := tb.attr("#timing", m.attr)
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				b.Fatalf("#timing %s = %q: %v", m.attr, v, err)
			}
			*m.sum += x
		}
		tb.close()
		n++
	}
	b.ReportMetric(first/float64(n), "ms-first-results")
	b.ReportMetric(goRun/float64(n), "ms-go-start")
	b.ReportMetric(ready/float64(n), "ms-loader-ready")
	b.ReportMetric(chosen/float64(n), "ms-first-chosen")
	b.ReportMetric(build/float64(n), "ms-first-build")
	b.ReportMetric(draw/float64(n), "ms-first-draw")
}

// BenchmarkBrowserRecompute reports one recompute of the six-policy
// comparison at the default sizes in the browser: shedsim.view of the
// default config, timed in the page with performance.now(). Where the
// page has shedsim.clients (every client strategy for the config's
// policy, the other half of the page's recompute), it reports that too.
func BenchmarkBrowserRecompute(b *testing.B) {
	s := startBrowser(b)
	tb := s.newTab(b)
	tb.open(s.fileURL("index.html"))
	const once = `((f, key) => {
		if (typeof f !== 'function') return -1;
		const t0 = performance.now();
		const out = f('{}');
		const ms = performance.now() - t0;
		if (!out.startsWith('{"' + key + '"')) throw new Error('shedsim: ' + out.slice(0, 200));
		return ms;
	})`
	view := once + `(shedsim.view, 'view')`
	clients := once + `(shedsim.clients, 'view')`
	eval[float64](tb, view) // warm up
	hasClients := eval[float64](tb, clients) >= 0
	var viewMS, clientsMS float64
	n := 0
	for b.Loop() {
		viewMS += eval[float64](tb, view)
		if hasClients {
			clientsMS += eval[float64](tb, clients)
		}
		n++
	}
	b.ReportMetric(viewMS/float64(n), "ms/recompute")
	if hasClients {
		b.ReportMetric(clientsMS/float64(n), "ms/clients")
	}
}

// BenchmarkBrowserSubmit is the page's own recompute at the default sizes,
// what a person who changes a field waits for, its runs in the page's
// workers. From the submit of the form: "ms-first" is the chosen policy
// run in a worker, read and drawn (#timing's data-first-ms, the page's
// shedsim:result first_ms), "ms-build" every policy's run and the bars
// and table drawn (data-build-ms), "ms-draw" all the drawing on the main
// thread, "ms-step" the longest of its tasks on average over the
// recomputes and "ms-step-max" over all of them (the page's own
// performance.now spans). "ms-layout" is the style and layout of the
// results with every <details> open, measured once they are drawn.
func BenchmarkBrowserSubmit(b *testing.B) {
	benchSubmit(b, "", 30)
}

// BenchmarkBrowserLongestRun is the same for the longest run the page draws
// (wasm's PageMaxDurationS, an hour: 360 windows of 10 s, one person a
// second so that the runs are cheap and the drawing is what counts).
func BenchmarkBrowserLongestRun(b *testing.B) {
	benchSubmit(b, "?normal_rps=1&duration_s=3600", 360)
}

// benchSubmit opens index.html with query and reports what one submit of
// the form costs. The seed changes each time, so that every submit
// recomputes; each must draw the given number of windows.
func benchSubmit(b *testing.B, query string, windows int) {
	s := startBrowser(b)
	tb := s.newTab(b, recorder)
	tb.open(s.fileURL("index.html") + query)
	tb.summaryOf("#summary", "")
	type done struct {
		First   float64 `json:"first"`
		Build   float64 `json:"build"`
		Draw    float64 `json:"draw"`
		Step    float64 `json:"step"`
		Layout  float64 `json:"layout"`
		Windows int     `json:"windows"`
		Summary string  `json:"summary"`
	}
	var firstMS, layout, build, draw, step, stepMax float64
	n := 0
	for b.Loop() {
		seed := eval[int](tb, `(() => {
			const seed = document.querySelector('#in-seed');
			seed.value = String(Number(seed.value) + 1);
			document.querySelector('#sim-form').requestSubmit();
			return Number(seed.value);
		})()`)
		waitResult(tb, fmt.Sprintf("the results for seed %d", seed), fmt.Sprintf("c.seed === %d", seed))
		tb.summaryOf("#summary", "")
		poll[bool](tb, "every policy run and drawn", `!!document.querySelector('#timing').dataset.stepMs`, `document.querySelector('#timing').textContent`)
		r := eval[done](tb, `(() => {
			const tm = document.querySelector('#timing').dataset;
			document.querySelectorAll('details').forEach(d => { d.open = false; });
			document.body.getBoundingClientRect();
			const t = performance.now();
			document.querySelectorAll('details').forEach(d => { d.open = true; });
			document.body.getBoundingClientRect();
			const layout = performance.now() - t;
			return {first: +tm.firstMs, build: +tm.buildMs, draw: +tm.drawMs, step: +tm.stepMs, layout: layout,
				windows: document.querySelectorAll('#chart-table tbody tr').length,
				summary: document.querySelector('#summary').textContent};
		})()`)
		if r.Windows != windows {
			b.Fatalf("%d windows drawn, not %d: %s", r.Windows, windows, r.Summary)
		}
		firstMS += r.First
		layout += r.Layout
		build += r.Build
		draw += r.Draw
		step += r.Step
		stepMax = max(stepMax, r.Step)
		n++
	}
	b.ReportMetric(firstMS/float64(n), "ms-first")
	b.ReportMetric(layout/float64(n), "ms-layout")
	b.ReportMetric(step/float64(n), "ms-step")
	b.ReportMetric(stepMax, "ms-step-max")
	b.ReportMetric(build/float64(n), "ms-build")
	b.ReportMetric(draw/float64(n), "ms-draw")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkBrowserWasmCompile reports what site/sim.wasm's size costs a
// reader once its bytes have arrived: WebAssembly.compile of the module's
// bytes and WebAssembly.instantiate of the compiled module with
// wasm_exec.js's imports (the Go runtime is not started), in milliseconds,
// timed in the page with performance.now(). Each iteration is a new tab
// on the site served over http, so nothing is cached between them.
func BenchmarkBrowserWasmCompile(b *testing.B) {
	s := startBrowser(b)
	srv := s.serve(b)
	var compile, instantiate float64
	n := 0
	for b.Loop() {
		tb := s.newTab(b)
		tb.do("opening wasm_exec.js", chromedp.Navigate(srv.URL+"/wasm_exec.js"))
		eval[bool](tb, `(() => {
			const s = document.createElement('script');
			s.src = '/wasm_exec.js';
			s.onload = async () => {
				try {
					const bytes = await (await fetch('/sim.wasm')).arrayBuffer();
					const t0 = performance.now();
					const mod = await WebAssembly.compile(bytes);
					const t1 = performance.now();
					await WebAssembly.instantiate(mod, new Go().importObject);
					const t2 = performance.now();
					window.__compile = {compile: t1 - t0, instantiate: t2 - t1, bytes: bytes.byteLength};
				} catch (e) {
					window.__compile = {error: String(e)};
				}
			};
			document.head.appendChild(s);
			return true;
		})()`)
		got := poll[struct {
			Compile     float64 `json:"compile"`
			Instantiate float64 `json:"instantiate"`
			Bytes       int     `json:"bytes"`
			Error       string  `json:"error"`
		}](tb, "the module compiled and instantiated", `window.__compile`, ``)
		if got.Error != "" {
			b.Fatalf("compiling site/sim.wasm: %s", got.Error)
		}
		compile += got.Compile
		instantiate += got.Instantiate
		tb.close()
		n++
	}
	b.ReportMetric(compile/float64(n), "ms-compile")
	b.ReportMetric(instantiate/float64(n), "ms-instantiate")
	b.ReportMetric((compile+instantiate)/float64(n), "ms-compile+instantiate")
}
