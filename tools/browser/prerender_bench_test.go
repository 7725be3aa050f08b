//go:build !js

package browser

import (
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/shedsim/shedsim/tools/internal/siteserve"
)

// slowPhone is the throttled profile, Lighthouse's mobile one: a
// 1.6 Mbps download and 750 kbps upload with 150 ms round trips, and a CPU
// four times slower (a mid-range phone).
var slowPhone = network.Conditions{Latency: 150, DownloadThroughput: 1.6e6 / 8, UploadThroughput: 750e3 / 8}

const slowPhoneCPU = 4

// engineTimes runs in every document of the benchmark's tabs: it notes
// when the loader said the engine was ready, and when the engine's own
// first results (shedsim:result) came.
const engineTimes = `(() => {
	new MutationObserver(() => {
		if (window.__engineReadyMS === undefined && document.documentElement.getAttribute('data-shedsim') === 'ready') window.__engineReadyMS = performance.now();
	}).observe(document, {attributes: true, subtree: true, attributeFilter: ['data-shedsim']});
	document.addEventListener('shedsim:result', () => {
		if (window.__engineResultsMS === undefined) window.__engineResultsMS = performance.now();
	});
})();`

// BenchmarkBrowserThrottledFirstPaint opens the simulator page over http
// from a loopback server on the slow phone's profile (network throttled by
// Network.emulateNetworkConditionsByRule, the CPU by
// Emulation.setCPUThrottlingRate), a new tab per iteration with nothing
// cached, and reports, in milliseconds from the start of the navigation:
// the first contentful paint; the first results, when #summary first
// showed them (the prerendered default run, parsed with the page); the
// engine downloaded (sim.wasm's response end), the engine ready (the
// loader's shedsim registered and its workers started); and the engine's
// own first results (shedsim:result, every policy and the advice drawn).
// Before the page was prerendered, the reader saw "Loading the
// simulator…" until the engine drew its results.
//
// It serves the site twice: as tools/serve does, every file as it is, and
// compressed, as a static host (netlify.toml's) serves it, where the
// engine is a quarter of the bytes.
func BenchmarkBrowserThrottledFirstPaint(b *testing.B) {
	s := startBrowser(b)
	raw := s.serve(b)
	gz := httptest.NewServer(gzipped(siteserve.Handler(s.site)))
	b.Cleanup(gz.Close)
	b.Run("as-is", func(b *testing.B) { throttledFirstPaint(b, s, raw.URL+"/") })
	b.Run("gzip", func(b *testing.B) { throttledFirstPaint(b, s, gz.URL+"/") })
}

// gzipped compresses h's answers for a client that accepts gzip, as a
// static host does.
func gzipped(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") || r.Header.Get("Range") != "" {
			h.ServeHTTP(w, r)
			return
		}
		zw := gzip.NewWriter(w)
		defer zw.Close()
		h.ServeHTTP(&gzipWriter{ResponseWriter: w, zw: zw}, r)
	})
}

// gzipWriter writes an answer's body through zw, with the headers of a
// compressed one.
type gzipWriter struct {
	http.ResponseWriter
	zw *gzip.Writer
}

func (g *gzipWriter) WriteHeader(code int) {
	g.Header().Del("Content-Length")
	g.Header().Set("Content-Encoding", "gzip")
	g.ResponseWriter.WriteHeader(code)
}

func (g *gzipWriter) Write(p []byte) (int, error) { return g.zw.Write(p) }

func throttledFirstPaint(b *testing.B, s *session, addr string) {
	var paint, first, wasm, ready, engine float64
	n := 0
	for b.Loop() {
		tb := s.newTab(b, recorder, engineTimes)
		tb.do("the slow phone's profile", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if _, err := cdp.Call(ctx, tg, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
				MatchedNetworkConditions: []*network.Conditions{&slowPhone}}); err != nil {
				return err
			}
			_, err := cdp.Call(ctx, tg, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: slowPhoneCPU})
			return err
		}))
		tb.open(addr)
		tb.summaryOf("#summary", "")
		engine += poll[float64](tb, "the engine's first results", `window.__engineResultsMS`, `document.querySelector('#summary').textContent`)
		paint += poll[float64](tb, "the first contentful paint",
			`(() => { const p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : false; })()`, `''`)
		first += eval[float64](tb, `__shedsimTest.firstResultsMS`)
		wasm += eval[float64](tb, `(() => { const r = performance.getEntriesByType('resource').find(e => /\/sim\.wasm$/.test(e.name)); return r ? r.responseEnd : -1; })()`)
		ready += eval[float64](tb, `window.__engineReadyMS`)
		tb.close()
		n++
	}
	b.ReportMetric(paint/float64(n), "ms-first-paint")
	b.ReportMetric(first/float64(n), "ms-first-results")
	b.ReportMetric(wasm/float64(n), "ms-wasm-downloaded")
	b.ReportMetric(ready/float64(n), "ms-engine-ready")
	b.ReportMetric(engine/float64(n), "ms-engine-results")
	b.ReportMetric(0, "ns/op")
}
