//go:build !js

package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/tools/internal/siteserve"
)

// tabTimeout bounds everything one test does in its tab, so that a page
// that never gets ready fails the test instead of hanging it.
const tabTimeout = 60 * time.Second

// pollTimeout bounds one wait for the page to reach a state.
const pollTimeout = 30 * time.Second

// chromiumPath finds Chromium: /usr/bin/chromium, or chromium on PATH.
func chromiumPath() string {
	if fi, err := os.Stat("/usr/bin/chromium"); err == nil && !fi.IsDir() {
		return "/usr/bin/chromium"
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	return ""
}

// siteDir is the built site, found from the test's working directory
// (tools/browser), with the files make site generates.
func siteDir(tb testing.TB) string {
	tb.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "site"))
	require.NoError(tb, err)
	for _, f := range []string{"sim.wasm", "sim.wasm.js", "wasm_exec.js", "index.html", "loader.js"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			tb.Fatalf("%s is missing: run make site first", filepath.Join(dir, f))
		}
	}
	if stale := staleSource(filepath.Dir(dir), filepath.Join(dir, "sim.wasm")); stale != "" {
		tb.Fatalf("site/sim.wasm is older than %s, so the page would be compared with an engine it was not built from: run make site first", stale)
	}
	return dir
}

// staleSource returns a Go source of the page's module (under sim/ and
// wasm/, or go.mod) changed after wasm was built, or "".
func staleSource(root, wasm string) string {
	built, err := os.Stat(wasm)
	if err != nil {
		return ""
	}
	newer := ""
	check := func(path string) {
		if fi, err := os.Stat(path); err == nil && fi.ModTime().After(built.ModTime()) && newer == "" {
			newer, _ = filepath.Rel(root, path)
		}
	}
	check(filepath.Join(root, "go.mod"))
	for _, d := range []string{"sim", "wasm"} {
		_ = filepath.WalkDir(filepath.Join(root, d), func(path string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
				check(path)
			}
			return nil
		})
	}
	return newer
}

// session is one headless Chromium, shared by the tabs of a test, and the
// site it opens.
type session struct {
	ctx  context.Context // the browser's chromedp context
	site string          // absolute path of site/
}

// startBrowser starts Chromium with a fresh profile; it stops when tb ends.
func startBrowser(tb testing.TB) *session {
	tb.Helper()
	path := chromiumPath()
	if path == "" {
		tb.Fatal("chromium not found: apt-get install -y chromium")
	}
	site := siteDir(tb)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		// Shared memory in /tmp rather than /dev/shm, which is 64 MB in a
		// Debian container by default: too small, tabs crash.
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(tb.TempDir()),
	)
	ctx, cancel := chromedp.NewContext(allocCtx)
	tb.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	// The first Do starts the browser and binds it to ctx, which has no
	// deadline; a browser that does not start in time is cancelled.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(ctx) }()
	select {
	case err := <-started:
		if err != nil {
			tb.Fatalf("starting %s: %v", path, err)
		}
	case <-time.After(30 * time.Second):
		cancel()
		tb.Fatalf("%s did not start in 30 s", path)
	}
	return &session{ctx: ctx, site: site}
}

// fileURL is the file:// address of a page of the site.
func (s *session) fileURL(name string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(s.site, name))}).String()
}

// serve serves the site over http on 127.0.0.1, in process, with
// tools/serve's handler. It stops when tb ends.
func (s *session) serve(tb testing.TB) *httptest.Server {
	tb.Helper()
	srv := httptest.NewServer(siteserve.Handler(s.site))
	tb.Cleanup(srv.Close)
	return srv
}

// tab is one browser tab, with what it logged and requested.
type tab struct {
	tb    testing.TB
	ctx   context.Context
	close func() // closes the tab; Cleanup calls it too

	mu       sync.Mutex
	requests []string // every URL the tab requested, in order
	problems []string // console errors and uncaught exceptions
	warnings []string // console warnings
	// browser are the errors the browser itself logs (a refused CORS
	// fetch, a resource that failed), as its console shows them in red.
	browser []string
	trace   traceLog // the trace events, while tracing (trace_test.go)
}

// newTab opens a tab in s's browser that closes when tb ends and gives up
// after tabTimeout. Each script runs in every new document of the tab
// before the page's own scripts.
func (s *session) newTab(tb testing.TB, scripts ...string) *tab {
	tb.Helper()
	t := &tab{tb: tb}
	ctx, cancel := chromedp.NewContext(s.ctx, chromedp.WithListener(t.listen))
	ctx, cancelTimeout := context.WithTimeout(ctx, tabTimeout)
	var once sync.Once
	t.close = func() {
		once.Do(func() {
			cancelTimeout()
			cancel()
		})
	}
	tb.Cleanup(t.close)
	t.ctx = ctx
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return fmt.Errorf("network.enable: %w", err)
		}
		if _, err := cdp.Call(ctx, tg, cdplog.Enable, cdp.Empty{}); err != nil {
			return fmt.Errorf("log.enable: %w", err)
		}
		for _, src := range scripts {
			if _, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument,
				page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
				return fmt.Errorf("page.addScriptToEvaluateOnNewDocument: %w", err)
			}
		}
		return nil
	}))
	require.NoError(tb, err, "opening a tab")
	return t
}

// listen records the tab's requests and console problems. It runs in the
// tab's event loop, so it only appends.
func (t *tab) listen(ev any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if ev.Request != nil {
			t.requests = append(t.requests, ev.Request.URL)
		}
	case *runtime.EventConsoleAPICalled:
		switch ev.Type {
		case runtime.ConsoleAPICalledTypeError, runtime.ConsoleAPICalledTypeAssert:
			t.problems = append(t.problems, "console."+string(ev.Type)+": "+consoleText(ev.Args))
		case runtime.ConsoleAPICalledTypeWarning:
			t.warnings = append(t.warnings, consoleText(ev.Args))
		}
	case *cdplog.EventEntryAdded:
		if e := ev.Entry; e != nil && e.Level == cdplog.EntryLevelError {
			t.browser = append(t.browser, string(e.Source)+": "+e.Text+" "+e.URL)
		}
	case *tracing.EventDataCollected:
		t.trace.add(ev.Value)
	case *tracing.EventTracingComplete:
		t.trace.complete()
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + d.Exception.Description
		}
		t.problems = append(t.problems, fmt.Sprintf("uncaught exception at %s:%d: %s", d.URL, d.LineNumber+1, msg))
	}
}

// consoleText joins a console call's arguments as the console shows them.
func consoleText(args []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		switch {
		case len(a.Value) > 0:
			var s string
			if json.Unmarshal(a.Value, &s) == nil {
				parts = append(parts, s)
			} else {
				parts = append(parts, string(a.Value))
			}
		case a.Description != "":
			parts = append(parts, a.Description)
		default:
			parts = append(parts, string(a.Type))
		}
	}
	return strings.Join(parts, " ")
}

// browserErrors returns a copy of the errors the browser logged itself.
func (t *tab) browserErrors() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.browser...)
}

// logged returns copies of what the tab recorded so far.
func (t *tab) logged() (requests, problems, warnings []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.requests...), append([]string(nil), t.problems...), append([]string(nil), t.warnings...)
}

// fatal ends the test with err and what the page logged.
func (t *tab) fatal(what string, err error) {
	t.tb.Helper()
	_, problems, warnings := t.logged()
	msg := fmt.Sprintf("%s: %v", what, err)
	if len(problems) > 0 {
		msg += "\nthe page logged:\n  " + strings.Join(problems, "\n  ")
	}
	if len(warnings) > 0 {
		msg += "\nwarnings:\n  " + strings.Join(warnings, "\n  ")
	}
	t.tb.Fatal(msg)
}

// do runs actions in the tab.
func (t *tab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	t.tb.Helper()
	if err := chromedp.Do(t.ctx, actions...); err != nil {
		t.fatal(what, err)
	}
}

// eval evaluates a JavaScript expression in the tab and decodes its value.
func eval[T any](t *tab, expr string) T {
	t.tb.Helper()
	v, err := chromedp.Run(t.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.fatal("evaluating "+short(expr), err)
	}
	return v
}

// poll waits until expr is truthy and returns its value; what names the
// state waited for. On a timeout it reports diag, a JavaScript expression
// evaluated then, as the state the page was in.
func poll[T any](t *tab, what, expr, diag string) T {
	t.tb.Helper()
	v, err := chromedp.Run(t.ctx, chromedp.Poll[T](expr, chromedp.WithPollingTimeout(pollTimeout), chromedp.WithPollingInterval(20*time.Millisecond)))
	if err != nil {
		state := ""
		if diag != "" {
			if s, derr := chromedp.Run(t.ctx, chromedp.Evaluate[string](`(() => { try { return String(`+diag+`); } catch (e) { return 'diagnosis failed: ' + e; } })()`)); derr == nil {
				state = "\nthe page: " + s
			}
		}
		t.fatal("waiting for "+what+state, err)
	}
	return v
}

func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// js quotes s as a JavaScript string literal.
func js(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// open navigates to addr and waits until the loader says the engine is
// ready (data-shedsim="ready"); a page whose engine failed fails the test
// with the page's message.
func (t *tab) open(addr string) {
	t.tb.Helper()
	t.do("opening "+addr, chromedp.Navigate(addr))
	state := poll[string](t, "data-shedsim to be ready on "+addr, `(() => {
		const s = document.documentElement.getAttribute('data-shedsim');
		if (s === 'error') {
			const e = document.querySelector('.shedsim-fatal, .shedsim-error');
			return 'error: ' + (e ? e.textContent : 'no message shown');
		}
		return s === 'ready' ? 'ready' : false;
	})()`, `document.documentElement.getAttribute('data-shedsim')`)
	if state != "ready" {
		t.fatal("the engine did not start on "+addr, errors.New(state))
	}
}

// noProblems fails the test if the page logged an error or threw.
func (t *tab) noProblems() {
	t.tb.Helper()
	_, problems, _ := t.logged()
	if len(problems) > 0 {
		t.tb.Errorf("the page logged %d problem(s):\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
}

// text is the trimmed textContent of the element sel selects, "" if none.
func (t *tab) text(sel string) string {
	t.tb.Helper()
	return eval[string](t, `(() => { const e = document.querySelector(`+js(sel)+`); return e ? e.textContent.trim() : ''; })()`)
}

// attr is an attribute of the element sel selects; ok is false when the
// element or the attribute is missing.
func (t *tab) attr(sel, name string) (value string, ok bool) {
	t.tb.Helper()
	r := eval[attrValue](t, `(() => { const e = document.querySelector(`+js(sel)+`);
		const v = e ? e.getAttribute(`+js(name)+`) : null;
		return {value: v === null ? '' : v, ok: v !== null}; })()`)
	return r.Value, r.OK
}

type attrValue struct {
	Value string `json:"value"`
	OK    bool   `json:"ok"`
}

// count is how many elements sel selects.
func (t *tab) count(sel string) int {
	t.tb.Helper()
	return eval[int](t, `document.querySelectorAll(`+js(sel)+`).length`)
}

// typeInto replaces the value of the text field sel with keys, typed, then
// presses Enter, which commits it as a person does.
func (t *tab) typeInto(sel, keys string) {
	t.tb.Helper()
	t.do("typing "+keys+" into "+sel,
		chromedp.Focus(chromedp.CSS(sel)),
		chromedp.Evaluate[chromedp.Void](`document.querySelector(`+js(sel)+`).select()`),
		chromedp.SendKeys(chromedp.CSS(sel), keys),
	)
	if got := eval[string](t, `document.querySelector(`+js(sel)+`).value`); got != keys {
		t.tb.Fatalf("%s holds %q after typing %q", sel, got, keys)
	}
}

// summaryOf waits until the summary sel shows results (not empty, not
// "Computing…") other than not, and no simulator on the page is still
// waiting for its workers' runs: of its chosen policy (.results
// aria-busy), of the policies of its comparison (data-rows="pending") or
// of its advice (data-advice="pending"); and returns it; or returns the
// error at once if shedsim shows that it hit a bug.
func (t *tab) summaryOf(sel, not string) string {
	t.tb.Helper()
	return poll[string](t, sel+" to show results", `(() => {
		const e = document.querySelector(`+js(sel)+`);
		const bug = [...document.querySelectorAll('.shedsim-error')].find(b => b.classList.contains('shedsim-fatal') || b.textContent.includes('hit a bug'));
		if (bug) return 'shedsim failed: ' + bug.textContent;
		if (!e || document.querySelector('[data-rows="pending"], [data-advice="pending"], .results[aria-busy]')) return false;
		const s = e.textContent.trim();
		return s && !s.startsWith('Computing') && s !== `+js(not)+` ? s : false;
	})()`, `(document.querySelector(`+js(sel)+`) || {textContent: 'no '+`+js(sel)+`}).textContent`)
}

// table is an HTML table's header and body, as text.
type table struct {
	Head []string `json:"head"`
	Rows []struct {
		Key    string   `json:"key"` // data-policy or data-servers
		Class  string   `json:"class"`
		Cells  []string `json:"cells"`
		Hidden bool     `json:"hidden"`
	} `json:"rows"`
}

// readTable reads the table sel selects.
func (t *tab) readTable(sel string) table {
	t.tb.Helper()
	return eval[table](t, `(() => {
		const tb = document.querySelector(`+js(sel)+`);
		if (!tb) return {head: [], rows: []};
		return {
			head: [...tb.querySelectorAll('thead th')].map(th => th.textContent.trim()),
			rows: [...tb.querySelectorAll('tbody tr:not(.row-group)')].map(tr => ({
				key: tr.dataset.policy || tr.dataset.servers || '',
				class: tr.className,
				cells: [...tr.children].map(c => c.textContent.trim()),
				hidden: !tr.offsetParent,
			})),
		};
	})()`)
}

// cell is the text in the column headed head of the row keyed key.
func (tb table) cell(key, head string) (string, error) {
	col := -1
	for i, h := range tb.Head {
		if h == head {
			col = i
		}
	}
	if col < 0 {
		return "", fmt.Errorf("no column %q in %q", head, tb.Head)
	}
	for _, r := range tb.Rows {
		if r.Key == key {
			if col >= len(r.Cells) {
				return "", fmt.Errorf("row %s has %d cells, no column %d", key, len(r.Cells), col)
			}
			return r.Cells[col], nil
		}
	}
	return "", fmt.Errorf("no row %q", key)
}
