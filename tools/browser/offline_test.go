//go:build !js

package browser

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOffline opens the site over http once, as a reader does before a
// train ride, lets its service worker keep the site's files (and finds
// its web app manifest, for installing it), stops the
// server and opens every page again (issue 28, item 3: reloading offline
// showed the browser's error page): each loads, its engine starts from
// the kept sim.wasm and it draws its results. From disk, where service
// workers do not run, the loader registers none.
func TestOffline(t *testing.T) {
	s := startBrowser(t)
	srv := s.serve(t)
	tb := s.newTab(t, tipsRecorder)
	tb.open(srv.URL + "/index.html")
	poll[bool](tb, "the service worker to keep the site and take the page", `!!navigator.serviceWorker.controller`,
		`navigator.serviceWorker.controller ? 'controlled' : 'not yet'`)
	version, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`caches.keys().then(k => k.join(' '))`, chromedp.EvalAwaitPromise))
	require.NoError(t, err, "the page's caches")
	assert.Regexp(t, `^shedsim-[0-9a-f]{12}$`, version, "one cache, named by the files' hash")
	start, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`fetch(document.querySelector('link[rel="manifest"]').href).then(r => r.json()).then(m => m.start_url)`,
		chromedp.EvalAwaitPromise))
	require.NoError(t, err, "the page links a web app manifest")
	assert.Equal(t, "index.html", start, "the manifest starts the installed app at the simulator")
	srv.Close() // offline: nothing answers at the site's address any more

	for _, p := range append(edgePages, struct {
		name, page, query string
		scripts           []string
		wait              func(tb *tab)
	}{"frame", "frame.html", "?kind=compare&sale_rps=200", nil, func(tb *tab) { allWidgetsDone(tb, 1) }}) {
		if p.name == "seeds-40" || p.name == "sweep-default" {
			continue // the same pages as simulator and sweep, with more to run
		}
		t.Run(p.name, func(t *testing.T) {
			tb.tb = t
			tb.open(srv.URL + "/" + p.page + p.query)
			p.wait(tb)
			assert.True(t, eval[bool](tb, `!!navigator.serviceWorker.controller`), "%s is answered by the service worker", p.page)
		})
	}
	tb.tb = t
	tb.noProblems()

	disk := s.newTab(t)
	disk.open(s.fileURL("index.html"))
	waitWhole(disk)
	assert.False(t, eval[bool](disk, `!!(navigator.serviceWorker && navigator.serviceWorker.controller)`), "no service worker from disk")
	disk.noProblems()
	assert.Empty(t, disk.browserErrors(), "the browser's own errors from disk (the manifest, the worker)")
}
