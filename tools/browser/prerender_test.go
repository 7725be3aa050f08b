//go:build !js

package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// prerenderedParts are the parts of the simulator page that site/index.html
// holds drawn (wasm/prerender.go), as loader.js's PRERENDERED_PARTS lists
// them, with the comparison's block whole and the frame of the results.
const prerenderedParts = `(() => {
	const out = {};
	for (const id of ['summary', 'glance', 'bars-title', 'bars', 'table-box', 'about-numbers', 'chart-title', 'chart-box', 'lines',
		'sample-about', 'hint-queue', 'hint-service_p99_ms']) {
		const e = document.getElementById(id);
		out[id] = e ? e.innerHTML : 'no #' + id;
	}
	const block = document.querySelector('#results-body > section[aria-labelledby="bars-title"]');
	out.comparison = block ? block.outerHTML : 'no comparison';
	const results = document.getElementById('results');
	out.frame = results ? [results, ...results.children].filter(e => e.id !== 'engine-loading').map(e => e.cloneNode(false).outerHTML).join('') : 'no #results';
	return JSON.stringify(out);
})()`

// progressState is the loading line and its progress bar.
type progressState struct {
	Text  string  `json:"text"`
	Value float64 `json:"value"`
	Max   float64 `json:"max"`
}

// loadingLines runs in every document of a tab: it records each state
// of the engine's loading line, its text and its bar's value (-1 for none:
// indeterminate).
const loadingLines = `(() => {
	window.__loadingLines = [];
	new MutationObserver(() => {
		const l = document.getElementById('engine-loading'), p = l && l.querySelector('progress');
		if (!l || l.hidden || !p) return;
		const s = {text: l.textContent, value: p.hasAttribute('value') ? p.value : -1, max: p.max};
		const last = __loadingLines[__loadingLines.length - 1];
		if (!last || last.text !== s.text || last.value !== s.value) __loadingLines.push(s);
	}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
})();`

// heldEngine holds back a tab's requests for the engine (sim.wasm and
// sim.wasm.js), as a slow network would, until release lets them go.
type heldEngine struct {
	tb   *tab
	mu   sync.Mutex
	held []fetch.RequestID
	gone bool // released: later requests go on at once
}

// holdEngine starts holding tb's requests for the engine.
func holdEngine(tb *tab) *heldEngine {
	h := &heldEngine{tb: tb}
	require.NoError(tb.tb, chromedp.Listen(tb.ctx, func(ev any) {
		if ev, ok := ev.(*fetch.EventRequestPaused); ok {
			h.mu.Lock()
			h.held = append(h.held, ev.RequestID)
			h.mu.Unlock()
		}
	}))
	tb.do("holding back sim.wasm", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		// A first visit's: the site's service worker, which an earlier tab
		// of the test registered, would answer from its cache, unheld.
		if _, err := cdp.Call(ctx, tg, network.SetBypassServiceWorker, network.SetBypassServiceWorkerParams{Bypass: true}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/sim.wasm*"}}})
		return err
	}))
	return h
}

// requests is how many requests for the engine are held.
func (h *heldEngine) requests() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.held)
}

// waitHeld waits until the page has asked for the engine (after
// wasm_exec.js, which it loads first), and fails the test if it does not.
func (h *heldEngine) waitHeld() {
	h.tb.tb.Helper()
	for deadline := time.Now().Add(pollTimeout); h.requests() == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			h.tb.tb.Fatalf("the page did not ask for sim.wasm in %v", pollTimeout)
		}
	}
}

// release lets the held requests go on, and stops holding.
func (h *heldEngine) release() {
	h.mu.Lock()
	ids := h.held
	h.held, h.gone = nil, true
	h.mu.Unlock()
	h.tb.do("releasing sim.wasm", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, id := range ids {
			if _, err := cdp.Call(ctx, tg, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id}); err != nil {
				return err
			}
		}
		_, err := cdp.Call(ctx, tg, fetch.Disable, cdp.Empty{})
		return err
	}))
}

// TestPrerendered checks issue 10's item 5, the page readable before its
// engine arrives: site/index.html holds the form and the default run's
// results, the same bytes the engine draws; while the engine downloads
// the page shows its progress, and what the reader types meanwhile is
// kept, focus and caret too, and run once the engine is there; without
// the engine, or without JavaScript, the page still reads.
func TestPrerendered(t *testing.T) {
	s := startBrowser(t)
	srv := s.serve(t)
	addr := srv.URL + "/" // index.html, which the server redirects to its folder
	c := sim.DefaultConfig()
	headline := report.Headline(run(t, c))

	// The engine drawn, as a reader with the engine sees the page.
	drawn := s.newTab(t, recorder)
	drawn.open(addr)
	drawn.summaryOf("#summary", "")
	poll[bool](drawn, "the chart's table", `!!document.querySelector('#chart-table tbody tr')`, `''`)
	var engine map[string]string
	require.NoError(t, json.Unmarshal([]byte(eval[string](drawn, prerenderedParts)), &engine))
	drawn.noProblems()

	t.Run("BytesTheEngineDraws", func(t *testing.T) {
		tb := s.newTab(t, recorder)
		held := holdEngine(tb)
		tb.do("opening "+addr, chromedp.Navigate(addr))
		poll[bool](tb, "the engine's request, held", `document.documentElement.getAttribute('data-shedsim') === 'loading'`, `''`)
		var before map[string]string
		require.NoError(t, json.Unmarshal([]byte(eval[string](tb, prerenderedParts)), &before))
		for k, want := range engine {
			assert.Equal(t, want, before[k], "%s: the prerendered markup is not what the engine draws: run go run ./wasm -prerender site/index.html "+
				"(the results' frame, which both write, is wasm/markup/frame.go's writeResults)", k)
		}
		held.waitHeld()

		// Back to the shop's numbers works before the engine: the form is
		// the prerendered one again, and the engine runs the default.
		tb.typeInto("#in-workers", "12")
		tb.do("clicking Back to the shop's numbers", chromedp.Click("#reset"))
		assert.Equal(t, "8", eval[string](tb, `document.getElementById('in-workers').value`), "the shop's workers again")
		held.release()
		poll[bool](tb, "the engine", `document.documentElement.getAttribute('data-shedsim') === 'ready'`, `document.documentElement.getAttribute('data-shedsim')`)
		assert.Equal(t, headline, tb.summaryOf("#summary", ""), "the engine runs the shop's numbers")
		assert.Equal(t, "", eval[string](tb, `location.search`), "and the address names none")
		tb.noProblems()
	})

	t.Run("ReadableWhileTheEngineDownloads", func(t *testing.T) {
		tb := s.newTab(t, recorder)
		tb.do("a phone's width", chromedp.EmulateViewport(390, 900))
		held := holdEngine(tb)
		tb.do("opening "+addr, chromedp.Navigate(addr))
		poll[bool](tb, "the loading line", `(() => { const l = document.getElementById('engine-loading'); return !!l && !l.hidden && l.textContent.includes('Loading the simulator'); })()`,
			`document.getElementById('engine-loading').outerHTML`)
		assert.Equal(t, headline, tb.text("#summary"), "the headline before the engine")
		assert.Equal(t, len(sim.Policies), tb.count("#bars li.policy-bar[data-policy]"), "the bars before the engine")
		assert.Equal(t, len(sim.Policies), tb.count("#compare tbody tr[data-policy]"), "the table before the engine")
		assert.Equal(t, 1, tb.count("svg#chart rect.sale"), "the chart before the engine")
		assert.Equal(t, "", eval[string](tb, `document.querySelector('#engine-loading progress').getAttribute('value') || ''`),
			"held before its first byte, the progress bar is indeterminate")
		_, disabled := tb.attr("#run", "disabled")
		assert.False(t, disabled, "Run works before the engine (it waits for it)")
		viewportShot(tb, t, "prerendered-390-engine-held")
		tb.do("a laptop's width", chromedp.EmulateViewport(1280, 800))
		viewportShot(tb, t, "prerendered-1280-engine-held")
		tb.do("a phone's width", chromedp.EmulateViewport(390, 900))

		// The reader changes the sale's rate before the engine arrives,
		// presses Enter (which must not leave the page), and leaves the
		// caret after the first digit.
		tb.typeInto("#in-sale_rps", "120")
		tb.do("pressing Enter", chromedp.KeyEvent(kb.Enter))
		eval[bool](tb, `(() => { document.getElementById('in-sale_rps').setSelectionRange(1, 1); return true; })()`)
		assert.Equal(t, "/", eval[string](tb, `location.pathname + location.search`), "Enter stays on the page")
		held.waitHeld()
		held.release()
		poll[bool](tb, "the engine", `document.documentElement.getAttribute('data-shedsim') === 'ready'`, `document.documentElement.getAttribute('data-shedsim')`)
		typed := c
		typed.SaleRPS = 120
		want := report.Headline(run(t, typed))
		assert.Equal(t, want, tb.summaryOf("#summary", headline), "what was typed before the engine is run")
		assert.Equal(t, "120", eval[string](tb, `document.getElementById('in-sale_rps').value`), "the typed value is kept")
		assert.Equal(t, "in-sale_rps", eval[string](tb, `document.activeElement.id`), "the focus is kept")
		assert.Equal(t, 1, eval[int](tb, `document.activeElement.selectionStart`), "the caret is kept")
		assert.Contains(t, eval[string](tb, `location.search`), "sale_rps=120", "the address holds what was typed")
		assert.Equal(t, 0, tb.count("#engine-loading"), "the loading line is gone")
		viewportShot(tb, t, "prerendered-390-engine-arrived")
		tb.noProblems()
	})

	t.Run("ALinksOwnSettings", func(t *testing.T) {
		// A link's settings are in the form before the engine, whose
		// results say that they are the shop's own; the engine runs the
		// link's.
		tb := s.newTab(t, recorder)
		held := holdEngine(tb)
		tb.do("opening a link", chromedp.Navigate(addr+"?retries=3&policy=bounded"))
		poll[bool](tb, "the loading line", `(() => { const l = document.getElementById('engine-loading'); return !!l && !l.hidden; })()`, `''`)
		assert.Equal(t, "3", eval[string](tb, `document.getElementById('in-retries').value`), "the link's retries in the form")
		assert.Equal(t, "bounded", eval[string](tb, `document.getElementById('in-policy').value`), "the link's policy in the form")
		_, stale := tb.attr("#results.stale", "id")
		assert.True(t, stale, "the shop's results are marked as not the link's")
		assert.Contains(t, tb.text("#stale-note"), "shop's own numbers", "and say so")
		held.release()
		poll[bool](tb, "the engine", `document.documentElement.getAttribute('data-shedsim') === 'ready'`, `document.documentElement.getAttribute('data-shedsim')`)
		linked := c
		linked.Retries, linked.Policy = 3, sim.Bounded
		assert.Equal(t, report.Headline(run(t, linked)), tb.summaryOf("#summary", headline), "the engine runs the link's settings")
		_, stale = tb.attr("#results.stale", "id")
		assert.False(t, stale, "the results are the link's")
		assert.Equal(t, "?policy=bounded&retries=3", eval[string](tb, `location.search`), "the link stays")
		tb.noProblems()
	})

	t.Run("ProgressInBytes", func(t *testing.T) {
		// A network slow enough for the download to take a few seconds:
		// the line counts sim.wasm's bytes as they come, out of its size.
		tb := s.newTab(t, recorder)
		tb.do("a slow network", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			return slowNetwork(ctx, tg, 1.5e6)
		}))
		raw, _ := wasmSizes(t)
		total := fmt.Sprintf("of %.1f MB", float64(raw)/1e6)
		tb.do("opening "+addr, chromedp.Navigate(addr))
		got := poll[progressState](tb, "the download's progress", `(() => {
			const l = document.getElementById('engine-loading'), p = l && l.querySelector('progress');
			return p && p.value > 0 && p.value < p.max ? {text: l.textContent, value: p.value, max: p.max} : false;
		})()`, `document.getElementById('engine-loading').outerHTML`)
		assert.Equal(t, float64(raw), got.Max, "the progress bar's end is sim.wasm's size")
		assert.Contains(t, got.Text, total, "the line says how much there is to download")
		t.Logf("the loading line: %q (%.0f of %.0f bytes)", got.Text, got.Value, got.Max)
		viewportShot(tb, t, "prerendered-progress")
		poll[bool](tb, "the engine", `document.documentElement.getAttribute('data-shedsim') === 'ready'`, `document.documentElement.getAttribute('data-shedsim')`)
		tb.summaryOf("#summary", "")
		tb.noProblems()
	})

	t.Run("FromDisk", func(t *testing.T) {
		// From file:// the engine comes as sim.wasm.js, by a <script>
		// that says nothing of its progress: the line says it is loading,
		// with an indeterminate bar, never a figure it cannot know.
		tb := s.newTab(t, recorder, loadingLines)
		tb.open(s.fileURL("index.html"))
		tb.summaryOf("#summary", "")
		var lines []progressState
		require.NoError(t, json.Unmarshal([]byte(eval[string](tb, `JSON.stringify(__loadingLines)`)), &lines))
		require.NotEmpty(t, lines, "the loading line was shown")
		t.Logf("the loading line from disk: %+v", lines)
		assert.Equal(t, "Loading the simulator…", strings.TrimSpace(lines[0].Text), "the first state of the line")
		for _, l := range lines {
			assert.Equal(t, -1.0, l.Value, "%q: the bar is indeterminate", l.Text)
			assert.NotContains(t, l.Text, "MB", "%q: no figure", l.Text)
		}
		tb.noProblems()
	})

	t.Run("EngineBlocked", func(t *testing.T) {
		tb := s.newTab(t, recorder)
		tb.do("blocking sim.wasm and sim.wasm.js", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: []*network.BlockPattern{{URLPattern: srv.URL + "/sim.wasm*", Block: true}}})
			return err
		}))
		tb.do("opening "+addr, chromedp.Navigate(addr))
		poll[bool](tb, "the loader to give up", `document.documentElement.getAttribute('data-shedsim') === 'error'`, `document.documentElement.getAttribute('data-shedsim')`)
		assert.Equal(t, headline, tb.text("#summary"), "the headline without the engine")
		assert.Equal(t, len(sim.Policies), tb.count("#compare tbody tr[data-policy]"), "the table without the engine")
		assert.Equal(t, 1, tb.count("svg#chart"), "the chart without the engine")
		assert.Contains(t, tb.text(".shedsim-fatal"), "could not start", "the page says the engine did not load")
		_, hidden := tb.attr("#engine-loading", "hidden")
		assert.True(t, hidden, "the loading line is hidden")
		_, disabled := tb.attr("#run", "disabled")
		assert.True(t, disabled, "Run is disabled: there is no engine to run it")
		screenshot(tb, t, "prerendered-engine-blocked")
		_, problems, _ := tb.logged()
		for _, p := range problems {
			assert.Contains(t, p, "shedsim", "only the loader's own report of the failure")
		}
	})

	t.Run("WithoutJavaScript", func(t *testing.T) {
		tb := s.newTab(t)
		tb.do("turning JavaScript off", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}))
		tb.do("opening "+addr, chromedp.Navigate(addr))
		read := func(a chromedp.Action[string]) string {
			v, err := chromedp.Run(tb.ctx, a)
			require.NoError(t, err)
			return v
		}
		attr := func(sel, name string) bool {
			v, err := chromedp.Run(tb.ctx, chromedp.AttributeValue(sel, name))
			require.NoError(t, err)
			return v.Exists
		}
		// Read through the DOM domain: the page runs no script.
		summary, note := read(chromedp.Text("#summary")), read(chromedp.Text(".form-actions noscript p"))
		runDisabled, resetDisabled := attr("#run", "disabled"), attr("#reset", "disabled")
		assert.Equal(t, headline, summary, "the headline without JavaScript")
		assert.Contains(t, note, "JavaScript", "the form says why it does not run")
		assert.True(t, runDisabled, "Run is disabled without JavaScript")
		assert.True(t, resetDisabled, "Back to the shop's numbers is disabled without JavaScript")
		screenshot(tb, t, "prerendered-without-javascript")
	})
}

// slowNetwork throttles every download of tg to bytesPerS. Chromium has
// changed what Network.emulateNetworkConditionsByRule requires (148 asks
// for offline beside the rules, which older protocol clients do not send),
// so the parameters are sent as the protocol names them, offline included.
func slowNetwork(ctx context.Context, tg cdp.Session, bytesPerS float64) error {
	byRule := cdp.Command[map[string]any, network.EmulateNetworkConditionsByRuleResult]{Method: network.CommandEmulateNetworkConditionsByRule}
	_, err := cdp.Call(ctx, tg, byRule, map[string]any{
		"offline": false,
		"matchedNetworkConditions": []map[string]any{{
			"urlPattern": "", "latency": 0, "downloadThroughput": bytesPerS, "uploadThroughput": -1,
		}},
	})
	return err
}
