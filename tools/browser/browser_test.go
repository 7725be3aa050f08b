//go:build !js

package browser

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/plan"
	"github.com/shedsim/shedsim/sim/report"
)

// recorder runs before the page's scripts in every document of a tab. It
// records the widgets' events, counts the WebAssembly modules instantiated
// and the Go runtimes started (by wrapping Go.prototype.run when
// wasm_exec.js defines Go), and notes when #summary first shows results.
const recorder = `(() => {
	const rec = window.__shedsimTest = {
		results: [], labs: [], plans: [], invalid: [], errors: [],
		instantiated: 0, goRuns: 0, goRunMS: null, firstResultsMS: null,
	};
	const events = {'shedsim:result': 'results', 'shedsim:lab': 'labs', 'shedsim:plan': 'plans',
		'shedsim:invalid': 'invalid', 'shedsim:error': 'errors'};
	for (const type in events) {
		document.addEventListener(type, (e) => {
			rec[events[type]].push({host: e.target.id || e.target.getAttribute('data-shedsim-page') || e.target.tagName, detail: e.detail});
		});
	}
	const counted = (f) => function () {
		return f.apply(this, arguments).then((r) => { rec.instantiated++; return r; });
	};
	WebAssembly.instantiate = counted(WebAssembly.instantiate);
	if (WebAssembly.instantiateStreaming) {
		WebAssembly.instantiateStreaming = counted(WebAssembly.instantiateStreaming);
	}
	let Go;
	Object.defineProperty(window, 'Go', {configurable: true, enumerable: true,
		get() { return Go; },
		set(v) {
			Go = v;
			if (typeof v === 'function' && v.prototype && typeof v.prototype.run === 'function') {
				const run = v.prototype.run;
				v.prototype.run = function () {
					if (rec.goRunMS === null) rec.goRunMS = performance.now();
					rec.goRuns++;
					return run.apply(this, arguments);
				};
			}
		}});
	new MutationObserver(() => {
		if (rec.firstResultsMS !== null) return;
		const s = document.getElementById('summary');
		const text = s ? s.textContent.trim() : '';
		if (text && !text.startsWith('Computing')) rec.firstResultsMS = performance.now();
	}).observe(document, {subtree: true, childList: true, characterData: true});
})();`

// TestBrowser opens the built site in headless Chromium and checks it
// against the engine run natively: issue 3's "How it is checked". The
// subtests share one browser, each in its own tab.
func TestBrowser(t *testing.T) {
	s := startBrowser(t)
	t.Run("DefaultResultsFromDisk", func(t *testing.T) { testDefaultResults(t, s) })
	t.Run("InputChangesResultsAndURL", func(t *testing.T) { testInputChanges(t, s) })
	t.Run("InvalidValueShowsFieldError", func(t *testing.T) { testInvalidValue(t, s) })
	t.Run("LabShowsItsNumbers", func(t *testing.T) { testLab(t, s) })
	t.Run("PlannerShowsItsNumbers", func(t *testing.T) { testPlanner(t, s) })
	t.Run("TwoWidgetsOneRuntime", func(t *testing.T) { testEmbed(t, s) })
	t.Run("NoRequestLeavesTheSite", func(t *testing.T) { testNoOutsideRequests(t, s) })
	t.Run("ParityWithNative", func(t *testing.T) { testParity(t, s) })
	t.Run("BadInputIsAMessage", func(t *testing.T) { testBadInput(t, s) })
	t.Run("GivenSettingThatCountsForNothing", func(t *testing.T) { testGivenSettingThatCountsForNothing(t, s) })
	t.Run("MountOnANonElementIsAMessage", func(t *testing.T) { testMountNonElement(t, s) })
	t.Run("Keyboard", func(t *testing.T) { testKeyboard(t, s) })
	t.Run("NobodyToMeasure", func(t *testing.T) { testNobodyToMeasure(t, s) })
	t.Run("ChosenPolicyFirst", func(t *testing.T) { testChosenPolicyFirst(t, s) })
	t.Run("YourOwnTraffic", func(t *testing.T) { testYourOwnTraffic(t, s) })
}

// setTable pastes text into a table's field, as a paste does: its value,
// then an input event.
func setTable(tb *tab, key, text string) {
	eval[bool](tb, `(() => { const t = document.querySelector('#in-`+key+`'); t.value = `+js(text)+
		`; t.dispatchEvent(new Event('input', {bubbles: true})); return true })()`)
}

// testYourOwnTraffic (issue 26): a rate table pasted into its field draws
// its preview and its line before the run, gives the engine's numbers,
// and goes into the address in its short form; a bad table marks the
// field with its line and column and keeps what was pasted, and so does
// a 50 MB paste, refused by its length.
func testYourOwnTraffic(t *testing.T, s *session) {
	tb := s.newTab(t, recorder)
	tb.open(s.fileURL("index.html"))
	tb.summaryOf("#summary", "")

	day := "time_s,rps\n0,70\n60,180\n90,70\n"
	setTable(tb, "arrivals", day)
	poll[bool](tb, "the rate table's preview and line", `!!document.querySelector('#preview-arrivals svg path') &&
		document.querySelector('#hint-arrivals').textContent.startsWith('3 rows')`, `document.querySelector('#in-arrivals').closest('.field').outerHTML`)
	waitResult(tb, "the results for the table, and the address to hold it", `c.arrivals && c.arrivals.includes('60,180') && location.search.includes('arrivals=0%3A70%2C60%3A180%2C90%3A70')`)
	c := sim.DefaultConfig()
	c.Arrivals = day
	assertRowsMatch(t, tb.readTable("#compare"), c)
	// The rates the table gives are read-only while it is set: nothing
	// typed there is quietly ignored.
	assert.Equal(t, []bool{true, true, false, false}, eval[[]bool](tb, `['normal_rps', 'sale_rps', 'sale_start_s', 'sale_s'].map(k => document.querySelector('#in-' + k).readOnly)`),
		"the normal and sale rates are read-only; the sale's window, set by hand here, is not")

	bad := "time_s,rps\n0,70\n60,180\n30,70\n"
	setTable(tb, "arrivals", bad)
	poll[bool](tb, "the bad table's line and column", `document.querySelector('#err-arrivals').textContent.includes('line 4, column 1')`,
		`document.querySelector('#err-arrivals').outerHTML`)
	assert.Equal(t, bad, eval[string](tb, `document.querySelector('#in-arrivals').value`), "what was pasted stays")

	eval[bool](tb, `(() => { const t = document.querySelector('#in-arrivals'); t.value = 'x'.repeat(50 << 20);
		t.dispatchEvent(new Event('input', {bubbles: true})); return true })()`)
	poll[bool](tb, "a 50 MB paste refused by its length", `document.querySelector('#err-arrivals').textContent.includes('262,144')`,
		`document.querySelector('#err-arrivals').outerHTML`)
	assert.Equal(t, 50<<20, eval[int](tb, `document.querySelector('#in-arrivals').value.length`), "what was pasted stays")

	setTable(tb, "arrivals", "")
	poll[bool](tb, "the rates editable again once the table is gone", `!document.querySelector('#in-normal_rps').readOnly`,
		`document.querySelector('#in-normal_rps').closest('.field').outerHTML`)
}

// assertRowsMatch checks the comparison table against report.Build of c
// run natively, cell by cell.
func assertRowsMatch(t *testing.T, got table, c sim.Config) {
	t.Helper()
	v, err := report.Build(c)
	require.NoError(t, err)
	require.Len(t, got.Rows, len(v.Rows), "rows of #compare")
	for _, r := range v.Rows {
		key := r.Policy.String()
		for _, col := range []struct{ head, want string }{
			{"Answered", report.PercentOf(r.Answered, r.People)},
			{"Refused", report.PercentOf(r.Refused, r.People)},
			{"Timed out", report.PercentOf(r.TimedOut, r.People)},
			{"Orders answered", report.PercentOf(r.OrdersAnswered, r.Orders)},
			{"Median wait", report.Millis(r.MedianWaitMS)},
			{"p99 wait", report.Millis(r.P99WaitMS)},
			{"Wasted", report.Count(r.Wasted)},
			{"Back to normal", report.BackCell(r)},
		} {
			cell, err := got.cell(key, col.head)
			if assert.NoError(t, err) {
				assert.Equal(t, col.want, cell, "#compare: %s, %s (native report.Build)", key, col.head)
			}
		}
	}
}

func run(t *testing.T, c sim.Config) sim.Result {
	t.Helper()
	r, err := sim.Run(c)
	require.NoError(t, err)
	return r
}

// testDefaultResults: index.html opened as a file shows the default
// results, equal to the engine's natively.
func testDefaultResults(t *testing.T, s *session) {
	tb := s.newTab(t, recorder)
	tb.open(s.fileURL("index.html"))
	summary := tb.summaryOf("#summary", "")

	c := sim.DefaultConfig()
	r := run(t, c)
	v, err := report.Build(c)
	require.NoError(t, err)

	assert.Contains(t, summary, report.Percent(r.Sale.AnsweredShare), "#summary")
	assert.Contains(t, summary, report.Recovered(r), "#summary")

	cmp := tb.readTable("#compare")
	require.Len(t, cmp.Rows, len(sim.Policies), "rows of #compare")
	answered, err := cmp.cell("fifo", "Answered")
	require.NoError(t, err)
	assert.Equal(t, report.Percent(r.Sale.AnsweredShare), answered, "fifo's answered share")
	assertRowsMatch(t, cmp, c)
	assert.Equal(t, 1, tb.count("#compare tr.chosen"), "chosen rows")
	assert.Equal(t, 1, tb.count(`#compare tr.chosen[data-policy="fifo"]`), "the chosen row is fifo's")

	// What the page shows besides the table, where the engine says what.
	assert.Equal(t, len(sim.Policies), tb.count("ul.policy-bars > li.policy-bar[data-policy]"), "policy bars")
	assert.Equal(t, 1, tb.count("svg#chart rect.sale"), "the sale's band on the chart")
	assert.Equal(t, len(v.Chart.Bars), tb.count("svg#chart g.bar"), "bars on the chart")
	assert.Equal(t, len(r.Windows), tb.count("#chart-table tbody tr"), "rows of the chart's table")
	// The chart is written as markup and parsed: it must come out as SVG
	// that is laid out, with its text as text, not as entities.
	assert.Greater(t, eval[float64](tb, `document.querySelector('svg#chart rect.sale').getBBox().width`), 0.0,
		"the sale's band is an SVG rect with a width")
	assert.Equal(t, v.Chart.Bars[0].Label, eval[string](tb, `document.querySelector('svg#chart g.bar title').textContent`),
		"the first bar's title")
	assert.Equal(t, report.Outlook(r).String(), tb.text("#outlook"), "#outlook")
	assert.Equal(t, report.ThisRun(r).String(), tb.text("#this-run"), "#this-run")
	assert.Equal(t, len(v.Advice), tb.count("ol#advice > li"), "advice")
	assert.Equal(t, len(v.Advice), tb.count("ol#advice button.try"), "advice's Try it buttons")
	assert.Equal(t, len(v.Fluid), tb.count("#fluid > li"), "the fluid view's lines")
	assert.NotEmpty(t, tb.text("#hint-queue"), "#hint-queue")
	for _, id := range []string{"sim-form", "in-sample", "results", "stale-note", "download-csv", "download-json", "timing"} {
		assert.Equal(t, 1, tb.count("#"+id), "#%s", id)
	}
	for _, k := range []string{"policy", "workers", "service_ms", "normal_rps", "sale_rps", "sale_start_s", "sale_s", "duration_s",
		"timeout_ms", "retries", "retry_delay_ms", "queue", "refusal_cost_ms", "order_share", "codel_target_ms", "codel_interval_ms", "seed"} {
		assert.Equal(t, 1, tb.count("#sim-form #in-"+k), "#in-%s", k)
		assert.Equal(t, 1, tb.count("#sim-form #err-"+k), "#err-%s", k)
	}
	for _, a := range []string{"data-build-ms", "data-draw-ms"} {
		_, ok := tb.attr("#timing", a)
		assert.True(t, ok, "#timing has %s", a)
	}
	_, stale := tb.attr("#results.stale", "id")
	assert.False(t, stale, "#results is not stale")
	hidden, _ := tb.attr("#stale-note", "hidden")
	assert.Equal(t, "", hidden, "#stale-note is hidden")

	// The page fired shedsim:result with the view.
	got := eval[struct {
		N       int     `json:"n"`
		Policy  string  `json:"policy"`
		SaleRPS float64 `json:"sale_rps"`
	}](tb, `(() => { const r = __shedsimTest.results, d = r.length && r[r.length - 1].detail;
		return {n: r.length, policy: d ? d.view.config.policy : '', sale_rps: d ? d.view.config.sale_rps : 0}; })()`)
	assert.Equal(t, 1, got.N, "shedsim:result events")
	assert.Equal(t, "fifo", got.Policy)
	assert.Equal(t, 150.0, got.SaleRPS)
	tb.noProblems()
}

// testChosenPolicyFirst: a recompute runs nothing on the main thread:
// the submit's task only asks for it, and the task after it only sends
// the runs to the workers, with the last results on show and the
// comparison marked busy; the chosen policy's
// results are drawn as soon as its run is back, before the other five
// policies'; the comparison then matches the engine's natively.
func testChosenPolicyFirst(t *testing.T, s *session) {
	tb := s.newTab(t, recorder)
	tb.open(s.fileURL("index.html"))
	before := tb.summaryOf("#summary", "")
	got := eval[struct {
		Summary string `json:"summary"`
		Rows    string `json:"rows"`
	}](tb, `(() => {
		// Note the comparison's state when the summary changes, and once
		// the recompute has begun.
		const rec = window.__chosen = {};
		new MutationObserver(() => {
			if (rec.rows === undefined) rec.rows = document.querySelector('#results').dataset.rows || '';
		}).observe(document.querySelector('#summary'), {childList: true, characterData: true, subtree: true});
		new MutationObserver(() => {
			if (rec.begun === undefined && document.querySelector('#results').dataset.rows === 'pending') {
				rec.begun = {busy: document.querySelector('#table-box').getAttribute('aria-busy') || '', build: document.querySelector('#timing').dataset.buildMs || ''};
			}
		}).observe(document.querySelector('#results'), {attributes: true, attributeFilter: ['data-rows']});
		const seed = document.querySelector('#in-seed');
		seed.value = '2';
		document.querySelector('#sim-form').requestSubmit();
		return {summary: document.querySelector('#summary').textContent, rows: document.querySelector('#results').dataset.rows || ''};
	})()`)
	c := sim.DefaultConfig()
	c.Seed = 2
	r := run(t, c)
	assert.Equal(t, before, got.Summary, "the submit's task runs nothing: the last results stay on show")
	assert.Empty(t, got.Rows, "the submit's task only asks for the recompute")
	begun := poll[struct {
		Busy  string `json:"busy"`
		Build string `json:"build"`
	}](tb, "the recompute to begin", `window.__chosen.begun || false`, `document.querySelector('#results').dataset.rows`)
	assert.Equal(t, "true", begun.Busy, "the policies are still to run, and the table is marked busy for screen readers")
	assert.Empty(t, begun.Build, "no time for every policy yet")

	summary := tb.summaryOf("#summary", before)
	assert.Equal(t, "Unbounded queue: "+report.SaleShares(r)+"; "+report.Recovered(r)+".", summary, "the chosen policy, from a worker")
	assert.Equal(t, "pending", eval[string](tb, `window.__chosen.rows`), "the chosen policy was drawn before the other policies were all back")
	assertRowsMatch(t, tb.readTable("#compare"), c)
	assert.Equal(t, 0, tb.count("#table-box[aria-busy], #bars[aria-busy], #table-box.pending, #bars.pending"), "measured: neither busy nor dimmed")
	_, ok := tb.attr("#timing", "data-build-ms")
	assert.True(t, ok, "#timing has every policy's time")

	// A change of policy alone keeps the other policies' runs: the
	// comparison is drawn in a task after the change's (which only reads
	// the form and sends the chosen policy's run), the new policy marked.
	eval[bool](tb, `(() => {
		const sel = document.querySelector('#in-policy');
		sel.value = 'codel';
		sel.dispatchEvent(new Event('change', {bubbles: true}));
		return true;
	})()`)
	poll[bool](tb, "the comparison with codel marked", `(() => {
		const row = document.querySelector('#compare tr.chosen');
		return !document.querySelector('#results').dataset.rows && !!row && row.dataset.policy === 'codel';
	})()`, `document.querySelector('#results').dataset.rows`)
	c.Policy = sim.CoDel
	tb.summaryOf("#summary", "")
	assertRowsMatch(t, tb.readTable("#compare"), c)
	tb.noProblems()
}

// testNobodyToMeasure: a link with no traffic at all shows no share of
// nobody ("-", not "0.0%"), says nobody arrived, calls the run unmeasured, and
// offers nothing to try.
func testNobodyToMeasure(t *testing.T, s *session) {
	tb := s.newTab(t, recorder)
	tb.open(s.fileURL("index.html") + "?normal_rps=0&sale_rps=0")
	summary := tb.summaryOf("#summary", "")
	c := sim.DefaultConfig()
	c.NormalRPS, c.SaleRPS = 0, 0
	r := run(t, c)
	require.Equal(t, sim.Unmeasured, r.Recovery)
	assert.Equal(t, "Unbounded queue: nobody arrived from 60 s to 120 s; not measured: nobody arrived after 120 s.", summary, "#summary")
	assertRowsMatch(t, tb.readTable("#compare"), c)
	assert.Equal(t, "nobody arrived", tb.text(`ul.policy-bars li[data-policy="fifo"] .bar-text`), "fifo's bar")
	assert.Equal(t, report.ThisRun(r).String(), tb.text("#this-run"), "#this-run")
	poll[bool](tb, "the advice", `document.querySelectorAll('ol#advice > li').length > 0`, `document.querySelector('ol#advice').outerHTML`)
	assert.Equal(t, 1, tb.count("ol#advice > li"), "one piece of advice")
	assert.Contains(t, tb.text("ol#advice > li"), "nothing to compare", "the advice")
	assert.Equal(t, 0, tb.count("ol#advice button.try"), "nothing to try")
	tb.noProblems()
}

// testInputChanges: typing a value recomputes, puts it in the address,
// and Back restores the previous numbers.
func testInputChanges(t *testing.T, s *session) {
	tb := s.newTab(t, recorder)
	tb.open(s.fileURL("index.html"))
	before := tb.summaryOf("#summary", "")
	assert.Equal(t, "", eval[string](tb, "location.search"))

	tb.typeInto("#in-sale_rps", "200")
	tb.do("pressing Enter", chromedp.SendKeys(chromedp.CSS("#in-sale_rps"), kb.Enter))
	// Typing may recompute on the way (at 2 and 20 a second); wait for 200.
	waitResult(tb, "the results for 200/s and the address to hold them", `c.sale_rps === 200 && location.search.includes('sale_rps=200')`)
	after := tb.text("#summary")
	q, err := url.ParseQuery(strings.TrimPrefix(eval[string](tb, "location.search"), "?"))
	require.NoError(t, err)
	assert.Equal(t, url.Values{"sale_rps": {"200"}}, q, "the address's query holds only what differs from the defaults")

	c := sim.DefaultConfig()
	c.SaleRPS = 200
	r := run(t, c)
	assert.Contains(t, after, report.Percent(r.Sale.AnsweredShare), "#summary at 200/s")
	assertRowsMatch(t, tb.readTable("#compare"), c)

	tb.do("going back", chromedp.Evaluate[chromedp.Void](`history.back()`))
	waitResult(tb, "Back to restore sale_rps 150",
		`c.sale_rps === 150 && document.querySelector('#in-sale_rps').value === '150' && location.search === ''`)
	restored := tb.text("#summary")
	assert.Equal(t, before, restored, "#summary after Back")
	assertRowsMatch(t, tb.readTable("#compare"), sim.DefaultConfig())
	tb.noProblems()
}

// waitResult waits until the page's last shedsim:result is for a config c
// for which cond, a JavaScript expression over c, holds.
func waitResult(tb *tab, what, cond string) {
	tb.tb.Helper()
	poll[bool](tb, what, `(() => {
		const r = __shedsimTest.results;
		if (!r.length) return false;
		const c = r[r.length - 1].detail.view.config;
		return !!(`+cond+`);
	})()`, `location.href + ' results for sale_rps ' + __shedsimTest.results.map(r => r.detail.view.config.sale_rps).join(', ')`)
}

// testInvalidValue: a value the engine refuses marks its field with the
// engine's message, keeps what was typed and leaves the last results up,
// marked stale.
func testInvalidValue(t *testing.T, s *session) {
	tb := s.newTab(t, recorder)
	tb.open(s.fileURL("index.html"))
	tb.summaryOf("#summary", "")
	tableBefore := tb.readTable("#compare")
	barsBefore := tb.text("ul.policy-bars")

	c := sim.DefaultConfig()
	c.Workers = -5
	var want string
	for _, fe := range sim.FieldErrors(c.Validate()) {
		if fe.Field == "workers" {
			want = fe.Msg
		}
	}
	require.NotEmpty(t, want, "natively, Validate refuses workers -5")

	tb.typeInto("#in-workers", "-5")
	poll[bool](tb, "#in-workers to be marked invalid with the message about -5",
		`document.querySelector('#in-workers').getAttribute('aria-invalid') === 'true' &&
			document.querySelector('#err-workers').textContent.includes('-5')`,
		`document.querySelector('#in-workers').outerHTML + ' ' + document.querySelector('#err-workers').outerHTML`)

	assert.Equal(t, want, tb.text("#err-workers"), "#err-workers holds sim.Config.Validate's message")
	_, hidden := tb.attr("#err-workers", "hidden")
	assert.False(t, hidden, "#err-workers is shown")
	desc, _ := tb.attr("#in-workers", "aria-describedby")
	assert.Contains(t, strings.Fields(desc), "err-workers", "#in-workers is described by its message")
	assert.Equal(t, 1, tb.count(".field.invalid #in-workers"), "the field's wrapper is .field.invalid")
	assert.Equal(t, 1, tb.count(".field.invalid"), "only one field is invalid")
	assert.Equal(t, "-5", eval[string](tb, `document.querySelector('#in-workers').value`), "what was typed stays")

	assert.Equal(t, 1, tb.count("#results.stale"), "#results is marked stale")
	_, hidden = tb.attr("#stale-note", "hidden")
	assert.False(t, hidden, "#stale-note is shown")
	assert.Contains(t, tb.text("#summary"), want, "#summary names the problem")
	assert.Equal(t, tableBefore, tb.readTable("#compare"), "the previous numbers stay in #compare")
	assert.Equal(t, barsBefore, tb.text("ul.policy-bars"), "the previous bars stay")
	n := eval[int](tb, `__shedsimTest.invalid.filter(e => e.detail.errors.some(x => x.field === 'workers')).length`)
	assert.Positive(t, n, "shedsim:invalid fired for workers")

	// Fixing it clears the mark and recomputes.
	tb.typeInto("#in-workers", "8")
	poll[bool](tb, "#in-workers to be valid again",
		`!document.querySelector('#in-workers').hasAttribute('aria-invalid') && !document.querySelector('#results').classList.contains('stale')`,
		`document.querySelector('#in-workers').outerHTML + ' ' + document.querySelector('#results').className`)
	assertRowsMatch(t, tb.readTable("#compare"), sim.DefaultConfig())

	// A day is a valid run, and few attempts at one person a second, but
	// longer than the page draws: the field says so and names the command
	// line.
	tb.typeInto("#in-normal_rps", "1")
	tb.typeInto("#in-duration_s", "86400")
	poll[bool](tb, "#in-duration_s to be marked invalid for a day's run",
		`document.querySelector('#in-duration_s').getAttribute('aria-invalid') === 'true'`,
		`document.querySelector('#in-duration_s').outerHTML + ' ' + document.querySelector('#err-duration_s').outerHTML`)
	msg := tb.text("#err-duration_s")
	assert.Contains(t, msg, "at most 3,600 s", "#err-duration_s names the page's limit")
	assert.Contains(t, msg, "shedsim --duration-s", "#err-duration_s names the command line")
	assert.Equal(t, 1, tb.count(".field.invalid"), "only the run length is invalid")
	tb.noProblems()

	// A link whose policy is none of the menu's: the menu shows what the
	// link said, marked, beside the field's message, not a blank; the
	// status names the first problem and counts the rest.
	link := s.newTab(t)
	link.open(s.fileURL("index.html") + "?policy=nope&workers=0")
	poll[bool](link, "#in-policy to be marked invalid for policy=nope",
		`document.querySelector('#in-policy').getAttribute('aria-invalid') === 'true'`,
		`document.querySelector('#in-policy').outerHTML`)
	assert.Equal(t, "nope", eval[string](link, `document.querySelector('#in-policy').value`), "the menu shows the link's value")
	assert.Contains(t, link.text("#err-policy"), `"nope"`, "#err-policy names the link's value")
	assert.Contains(t, link.text("#summary"), "(and 1 more field is marked)", "#summary counts the other problem")
	link.noProblems()
}

// labIndex is the index in sim.Lab of a combination.
func labIndex(t *testing.T, p sim.Policy, retries int, saleRPS, timeoutMS float64) (int, sim.Config) {
	t.Helper()
	for i, c := range sim.Lab() {
		if c.Policy == p && c.Retries == retries && c.SaleRPS == saleRPS && c.TimeoutMS == timeoutMS {
			return i, c
		}
	}
	t.Fatalf("%v, %d retries, %v/s, %v ms is not in sim.Lab", p, retries, saleRPS, timeoutMS)
	return 0, sim.Config{}
}

// testLab: the lab's radios choose a run; what it shows is the engine's.
func testLab(t *testing.T, s *session) {
	tb := s.newTab(t, recorder)
	tb.open(s.fileURL("lab.html"))
	poll[bool](tb, "the lab's first run", `__shedsimTest.labs.length > 0`, `document.querySelector('#app').textContent.slice(0, 200)`)

	check := func(p sim.Policy, retries int, saleRPS, timeoutMS float64, wantRecovery sim.Recovery) {
		t.Helper()
		i, c := labIndex(t, p, retries, saleRPS, timeoutMS)
		for _, id := range []string{
			"lab-policy-" + p.String(),
			fmt.Sprintf("lab-retries-%d", retries),
			fmt.Sprintf("lab-sale_rps-%v", saleRPS),
			fmt.Sprintf("lab-timeout_ms-%v", timeoutMS),
		} {
			require.Equal(t, 1, tb.count("#lab-form #"+id), "radio #%s", id)
			tb.do("clicking "+id, chromedp.Click(chromedp.CSS(`label[for="`+id+`"]`)))
		}
		poll[bool](tb, fmt.Sprintf("the lab to show run %d", i),
			fmt.Sprintf(`(() => { const l = __shedsimTest.labs; return l.length > 0 && l[l.length - 1].detail.index === %d; })()`, i),
			`JSON.stringify(__shedsimTest.labs.map(l => l.detail.index))`)

		r := run(t, c)
		require.Equal(t, wantRecovery, r.Recovery, "natively, run %d recovers so", i)
		rec, _ := tb.attr("#lab-recovered", "data-recovery")
		assert.Equal(t, string(r.Recovery), rec, "#lab-recovered's data-recovery for run %d", i)
		cls, _ := tb.attr("#lab-recovered", "class")
		assert.Contains(t, strings.Fields(cls), "verdict-"+string(wantRecovery), "#lab-recovered's class")
		shares := tb.text("#lab-shares-text")
		for _, x := range []float64{r.Sale.AnsweredShare, r.Sale.RefusedShare, r.Sale.TimedOutShare} {
			assert.Contains(t, shares, report.Percent(x), "#lab-shares-text for run %d", i)
		}
		assert.Contains(t, shares, report.Count(r.Sale.People), "#lab-shares-text for run %d", i)
		assert.Contains(t, tb.text("#lab-summary"), report.Percent(r.Sale.AnsweredShare), "#lab-summary")
		assert.Contains(t, tb.text("#lab-recovered"), ": "+report.Recovered(r)+".", "#lab-recovered")
		assert.Equal(t, report.Outlook(r).String(), tb.text("#lab-outlook"), "#lab-outlook")
		assert.Equal(t, report.ThisRun(r).String(), tb.text("#lab-this-run"), "#lab-this-run")
		assert.Equal(t, len(report.Timeline(r).Bars), tb.count("svg#lab-chart g.bar"), "bars of #lab-chart")
		poll[bool](tb, "the lab chart's table", `!!document.querySelector('#lab-chart-table:not([aria-busy]) tbody tr')`, ``)
		assert.Equal(t, len(r.Windows), tb.count("#lab-chart-table tbody tr"), "rows of #lab-chart-table")
		q, err := url.ParseQuery(strings.TrimPrefix(eval[string](tb, "location.search"), "?"))
		require.NoError(t, err)
		if p != sim.FIFO {
			assert.Equal(t, p.String(), q.Get("policy"), "the address holds the policy")
		}
	}
	check(sim.FIFO, 3, 150, 2000, sim.Stuck)
	check(sim.Bounded, 3, 150, 2000, sim.Normal)
	tb.noProblems()
}

// testPlanner: the post's numbers in the planner give the post's answer.
func testPlanner(t *testing.T, s *session) {
	tb := s.newTab(t, recorder)
	tb.open(s.fileURL("planner.html"))
	poll[bool](tb, "the planner's first answer", `__shedsimTest.plans.length > 0`, `document.querySelector('#app').textContent.slice(0, 200)`)

	in := plan.Input{RateRPS: 150, ServiceMS: 80, Target: 0.05}
	p, err := plan.Compute(in)
	require.NoError(t, err)
	require.Equal(t, 19, p.Servers, "natively")
	require.NotNil(t, p.OneFewer)
	require.Equal(t, "4.35%", fmt.Sprintf("%.2f%%", p.Answer.Wait*100), "natively")
	require.Equal(t, "7.56%", fmt.Sprintf("%.2f%%", p.OneFewer.Wait*100), "natively")

	checked := eval[bool](tb, `document.querySelector('#wait-any').checked && !document.querySelector('#wait-over').checked`)
	assert.True(t, checked, "#wait-any is the default")
	tb.typeInto("#in-rate_rps", "150")
	tb.typeInto("#in-service_ms", "80")
	tb.typeInto("#in-target", "5%")
	tb.do("pressing Enter", chromedp.SendKeys(chromedp.CSS("#in-target"), kb.Enter))
	poll[bool](tb, "the plan for 150/s at 80 ms, 5%", `(() => {
		const l = __shedsimTest.plans; const d = l.length && l[l.length - 1].detail;
		return !!d && d.plan.input.rate_rps === 150 && d.plan.input.service_ms === 80 && d.plan.input.target === 0.05;
	})()`, `JSON.stringify(__shedsimTest.plans.map(p => p.detail.plan.input))`)

	assert.Contains(t, tb.text("#plan-answer"), "19", "#plan-answer")
	assert.Contains(t, tb.text("#plan-answer-detail"), "4.35%", "#plan-answer-detail")
	assert.Contains(t, tb.text("#plan-one-fewer"), "7.56%", "#plan-one-fewer")
	assert.Contains(t, tb.text("#plan-one-fewer"), "18", "#plan-one-fewer")
	assert.Equal(t, 1, tb.count("details#plan-nearby-details"), "#plan-nearby-details")
	nearby := tb.readTable("#plan-nearby")
	assert.Len(t, nearby.Rows, len(p.Nearby), "rows of #plan-nearby")
	assert.Equal(t, 1, tb.count(`#plan-nearby tr.answer[data-servers="19"]`), "the answer's row")
	assert.Equal(t, 1, tb.count("svg#plan-chart"), "#plan-chart")
	q, err := url.ParseQuery(strings.TrimPrefix(eval[string](tb, "location.search"), "?"))
	require.NoError(t, err)
	assert.Equal(t, url.Values{"rate_rps": {"150"}, "service_ms": {"80"}}, q, "the address (5% is the default target)")
	tb.noProblems()
}

// inWidget is a JavaScript expression of the shadow root of the
// <shed-sim> element sel selects, or null.
func inWidget(sel string) string {
	return `((document.querySelector(` + js(sel) + `) || {}).shadowRoot || null)`
}

// widgetsReady waits until both of embed.html's widgets show results.
func widgetsReady(tb *tab) {
	tb.tb.Helper()
	poll[bool](tb, "both widgets to show results", `(() => {
		const done = (root) => { const e = root && root.querySelector('.summary');
			const s = e ? e.textContent.trim() : ''; return s !== '' && !s.startsWith('Computing') && !root.querySelector('.results[aria-busy]'); };
		const retries = `+inWidget("#demo-retries")+`;
		return done(`+inWidget("#demo-bounded")+`) && done(retries) && !!retries.querySelector('svg.timeline');
	})()`, `[...document.querySelectorAll('shed-sim')].map(e => e.id + ': ' + (e.shadowRoot ? e.shadowRoot.textContent : 'no shadow root').slice(0, 120)).join(' | ')`)
}

// widgetText is the trimmed text of the element sel selects in the
// shadow root of the widget host selects.
func widgetText(tb *tab, host, sel string) string {
	tb.tb.Helper()
	return eval[string](tb, `(() => { const r = `+inWidget(host)+`; const e = r && r.querySelector(`+js(sel)+`); return e ? e.textContent.trim() : ''; })()`)
}

// testEmbed: two widgets on one page share one Go runtime, and each shows
// its own run, in its own shadow root.
func testEmbed(t *testing.T, s *session) {
	tb := s.newTab(t, recorder, workerRuns)
	tb.open(s.fileURL("embed.html"))
	widgetsReady(tb)

	counts := eval[struct {
		Instantiated int `json:"instantiated"`
		GoRuns       int `json:"goRuns"`
	}](tb, `__shedsimTest`)
	assert.Equal(t, 1, counts.Instantiated, "WebAssembly modules instantiated")
	assert.Equal(t, 1, counts.GoRuns, "Go runtimes started")
	assert.Equal(t, 1, tb.count(`script[src$="wasm_exec.js"]`), "wasm_exec.js loaded once")
	assert.Equal(t, 1, tb.count(`script[src$="sim.wasm.js"]`), "sim.wasm.js loaded once")

	// Each widget is its own, with its own ids, in the page and in each
	// shadow root.
	dup := eval[[]string](tb, `(() => { const dup = [];
		for (const root of [document, ...[...document.querySelectorAll('shed-sim')].map(e => e.shadowRoot)]) {
			const seen = {};
			for (const e of root.querySelectorAll('[id]')) { if (seen[e.id]) dup.push(e.id); seen[e.id] = true; }
		}
		return dup; })()`)
	assert.Empty(t, dup, "ids used twice on embed.html")
	assert.Empty(t, eval[[]string](tb, `[...document.querySelectorAll('shed-sim *')].map(e => e.outerHTML.slice(0, 80))`),
		"the widgets draw in their shadow roots, not among the page's elements")

	bounded := sim.DefaultConfig()
	bounded.Policy, bounded.SaleRPS = sim.Bounded, 200
	rb := run(t, bounded)
	assert.Contains(t, widgetText(tb, "#demo-bounded", ".summary"), report.Percent(rb.Sale.AnsweredShare), "#demo-bounded's summary")
	sample, ok := sim.SampleByKey("retries")
	require.True(t, ok, "sim has the retries sample")
	rr := run(t, sample.Config)
	assert.Contains(t, widgetText(tb, "#demo-retries", ".summary"), report.Percent(rr.Sale.AnsweredShare), "#demo-retries's summary")
	assert.Equal(t, len(rr.Windows), eval[int](tb, inWidget("#demo-retries")+`.querySelectorAll('table.windows tbody tr').length`), "#demo-retries's chart table")

	// Both fire shedsim:result, with their own configs, as events of
	// their <shed-sim> elements, once their workers' runs are all back.
	poll[bool](tb, "both widgets' shedsim:result", `new Set(__shedsimTest.results.map(r => r.host)).size >= 2`, `JSON.stringify(__shedsimTest.results.map(r => r.host))`)
	got := eval[map[string]string](tb, `(() => { const m = {};
		for (const r of __shedsimTest.results) m[r.host] = r.detail.view.config.policy + ' ' + r.detail.view.config.sale_rps + ' ' + r.detail.view.config.retries;
		return m; })()`)
	assert.Equal(t, map[string]string{
		"demo-bounded": fmt.Sprintf("bounded 200 %d", bounded.Retries),
		"demo-retries": fmt.Sprintf("%s %v %d", sample.Config.Policy, sample.Config.SaleRPS, sample.Config.Retries),
	}, got, "shedsim:result by widget")
	// Neither shows what to change, so neither measures it (the README's
	// widget section): each sends its workers the chosen policy's run and
	// every policy's, and its view's advice is null.
	assert.Equal(t, []any{nil, nil}, eval[[]any](tb, `__shedsimTest.results.map(r => r.detail.view.advice)`), "no advice in the events")
	assert.Equal(t, 2*(1+len(sim.Policies)), eval[int](tb, `__workerRuns.length`), "runs sent to the workers")

	// The snippets and their copy buttons.
	assert.Contains(t, tb.text("#snippet"), "<shed-sim")
	assert.Contains(t, tb.text("#iframe-snippet"), "<iframe")
	for _, id := range []string{"snippet", "iframe-snippet", "resize-snippet"} {
		sel := `button[data-shedsim-copy="` + id + `"]`
		require.Equal(t, 1, tb.count(sel), sel)
		tb.do("clicking "+sel, chromedp.Click(chromedp.CSS(sel)))
		poll[bool](tb, "#"+id+"-status to say what happened", `document.querySelector('#`+id+`-status').textContent.trim() !== ''`, ``)
	}
	tb.noProblems()
}

// rendered waits until a page of the site shows its results.
func rendered(tb *tab, name string) {
	tb.tb.Helper()
	switch name {
	case "index.html":
		tb.summaryOf("#summary", "")
	case "lab.html":
		poll[bool](tb, "#lab-recovered", `!!document.querySelector('#lab-recovered[data-recovery]')`, ``)
	case "planner.html":
		poll[bool](tb, "#plan-answer", `!!document.querySelector('#plan-answer') && document.querySelector('#plan-answer').textContent.trim() !== ''`, ``)
	case "embed.html":
		widgetsReady(tb)
	default:
		tb.tb.Fatalf("no check for %s", name)
	}
}

var pages = []string{"index.html", "lab.html", "planner.html", "embed.html"}

// testNoOutsideRequests: every page, opened from disk and over http, asks
// for nothing outside the site.
func testNoOutsideRequests(t *testing.T, s *session) {
	srv := s.serve(t)
	siteFile := s.fileURL("") // file:///.../site
	siteFile = strings.TrimSuffix(siteFile, "/") + "/"
	for _, scheme := range []string{"file", "http"} {
		for _, name := range pages {
			t.Run(scheme+"/"+strings.TrimSuffix(name, ".html"), func(t *testing.T) {
				tb := s.newTab(t)
				addr, prefix := s.fileURL(name), siteFile
				if scheme == "http" {
					addr, prefix = srv.URL+"/"+name, srv.URL+"/"
				}
				tb.open(addr)
				rendered(tb, name)
				requests, _, warnings := tb.logged()
				require.NotEmpty(t, requests, "requests seen")
				var outside []string
				for _, u := range requests {
					if !strings.HasPrefix(u, prefix) && !strings.HasPrefix(u, "data:") && !strings.HasPrefix(u, "blob:") {
						outside = append(outside, u)
					}
				}
				assert.Empty(t, outside, "requests outside %s", prefix)
				// The loader's two paths: sim.wasm.js from disk, sim.wasm
				// streamed over http, without falling back.
				fetched := func(f string) bool {
					for _, u := range requests {
						if strings.HasPrefix(u, prefix) && filepath.Base(strings.SplitN(u, "?", 2)[0]) == f {
							return true
						}
					}
					return false
				}
				if scheme == "file" {
					assert.True(t, fetched("sim.wasm.js"), "sim.wasm.js is read from disk")
					assert.False(t, fetched("sim.wasm"), "sim.wasm is not fetched from disk")
				} else {
					assert.True(t, fetched("sim.wasm"), "sim.wasm is streamed over http")
					assert.False(t, fetched("sim.wasm.js"), "sim.wasm.js is not needed over http")
					assert.Empty(t, warnings, "console warnings (a fallback from sim.wasm?)")
				}
				tb.noProblems()
			})
		}
	}
}

// series is c asking for its series at step s (sim.Config.SeriesStepS).
func series(c sim.Config, s float64) sim.Config {
	c.SeriesStepS = s
	return c
}

// testParity: shedsim.run in the browser returns exactly the bytes of
// json.Marshal(sim.Run(c)) natively, series included.
func testParity(t *testing.T, s *session) {
	tb := s.newTab(t)
	tb.open(s.fileURL("index.html"))

	jitter := sim.DefaultConfig()
	jitter.Policy, jitter.Retries, jitter.RetryJitterMS = sim.Bounded, 3, 500
	cases := []struct {
		name   string
		config sim.Config
	}{
		{"default", sim.DefaultConfig()},
		{"bounded, 3 retries, jitter", jitter},
		{"the default's series, at 1 s", series(sim.DefaultConfig(), 1)},
		{"the series of bounded, 3 retries, jitter, at 7 s", series(jitter, 7)},
		{"a chain's series, each hop's too, at 3 s", series(chainSample(t, "chain-istio"), 3)},
	}
	// issue 26's tables, and issue 25's chains behind proxies (rules 40
	// to 44): one retrying with no limit, Envoy's budget, gRPC's throttle
	for _, key := range []string{"table-sale", "morning", "histogram", "chain-retries", "chain-envoy-budget", "chain-grpc"} {
		sample, ok := sim.SampleByKey(key)
		require.True(t, ok, key)
		cases = append(cases, struct {
			name   string
			config sim.Config
		}{"sample " + key, sample.Config})
	}
	lab := sim.Lab()
	for _, i := range []int{0, 26, 67, 107, len(lab) - 1} {
		cases = append(cases, struct {
			name   string
			config sim.Config
		}{fmt.Sprintf("lab %d (%s, %d retries, %v/s, %v ms)", i, lab[i].Policy, lab[i].Retries, lab[i].SaleRPS, lab[i].TimeoutMS), lab[i]})
	}
	for _, tc := range cases {
		in, err := json.Marshal(tc.config)
		require.NoError(t, err)
		want, err := json.Marshal(run(t, tc.config))
		require.NoError(t, err)
		got := eval[string](tb, `shedsim.run(`+js(string(in))+`)`)
		if got != string(want) {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			lo := max(0, i-60)
			t.Errorf("%s: the browser's shedsim.run differs from native json.Marshal(sim.Run(c)) at byte %d of %d (native %d):\n browser: …%s…\n  native: …%s…",
				tc.name, i, len(got), len(want), got[lo:min(len(got), i+60)], want[lo:min(len(want), i+60)])
		}
	}

	// labIndex agrees with sim.Lab's order.
	i, _ := labIndex(t, sim.FIFO, 3, 150, 2000)
	assert.Equal(t, i, eval[int](tb, `shedsim.labIndex('fifo', 3, 150, 2000)`), "shedsim.labIndex")
	tb.noProblems()
}

// testBadInput: bad JSON and a panicking call come back as messages, and
// the page keeps working.
// testGivenSettingThatCountsForNothing: a link's key and an element's
// attribute that would change nothing are named, with the setting that
// would make them count (issue 14, item 1), as on the command line.
func testGivenSettingThatCountsForNothing(t *testing.T, s *session) {
	tb := s.newTab(t, recorder)
	tb.open(s.fileURL("index.html") + "?retry_jitter_ms=5")
	msg := poll[string](tb, "the link's setting to be named", `(document.querySelector('#app-error') || {}).textContent || ''`, `document.body.innerText.slice(0, 500)`)
	assert.Contains(t, msg, "This link's settings have a problem: retry_jitter_ms: needs retries above 0")

	tb = s.newTab(t, recorder)
	tb.open(s.fileURL("index.html"))
	tb.summaryOf("#summary", "")
	eval[int](tb, `(() => { const d = document.createElement('div'); d.id = 'given'; document.body.append(d);
		return shedsim.mount(d, 'simulator', {retries: '3', budget_tokens: '1'}) })()`)
	msg = poll[string](tb, "the widget's attribute to be named", `(document.querySelector('#given .shedsim-error') || {}).textContent || ''`, `document.querySelector('#given').innerText.slice(0, 500)`)
	assert.Contains(t, msg, "This widget's attributes have a problem: budget_tokens: needs client budget (the client is fixed)")
}

func testBadInput(t *testing.T, s *session) {
	tb := s.newTab(t, recorder)
	tb.open(s.fileURL("index.html"))
	before := tb.summaryOf("#summary", "")

	var answer struct {
		Error  string            `json:"error"`
		Errors []json.RawMessage `json:"errors"`
		View   json.RawMessage   `json:"view"`
	}
	for _, tc := range []struct {
		call, reason string
		wantErrors   bool // {"errors": [...]} rather than {"error"}
	}{
		{`shedsim.view("{not json")`, "bad JSON is an error, not a throw", false},
		{`shedsim.view("[1, 2]")`, "a JSON array is not a config", false},
		{`shedsim.run("{\"workers\": 8} {}")`, "two objects are not one", false},
		{`shedsim.plan("{")`, "the planner reads JSON too", false},
		{`shedsim.view({workers: "many"})`, "a field the engine cannot read is a field error", true},
		{`shedsim.lab(-1)`, "a lab index out of range", true},
		// Issue 14: what JSON.stringify made a plausible wrong run, or an
		// internal error, is named (the JS values are read one by one).
		{`shedsim.run({sale_rps: NaN})`, "NaN is refused, not the default", true},
		{`shedsim.run({timeout_ms: Infinity})`, "Infinity is refused", true},
		{`(() => { const o = {workers: 8}; o.self = o; return shedsim.run(o) })()`, "a circular object is read, not a bug", true},
		{`shedsim.run({get workers() { throw new Error("boom") }})`, "a getter that throws", true},
		{`shedsim.run({workers: 10n ** 30n})`, "a BigInt out of range", true},
		{`shedsim.run({workers: 13n})`, "a BigInt is refused, named by its key (issue 27, item 1)", true},
		{`shedsim.view(Object.freeze({workers: "many"}))`, "a frozen object is read", true},
		{`(() => { const p = Proxy.revocable({}, {}); p.revoke(); return shedsim.view(p.proxy) })()`, "a revoked Proxy", false},
		{`shedsim.runTotals(10n)`, "a worker's entry point answers a caller's mistake", false},
		{`shedsim.run({retries: 3, budget_tokens: 1})`, "a setting that counts for nothing", true},
		{`shedsim.view(true)`, "true is not a config", false},
		{`shedsim.view(() => 1)`, "a function is not a config", false},
		{`shedsim.lab(NaN)`, "NaN is not entry 0", true},
		{`shedsim.lab(1.5)`, "1.5 is not entry 1", true},
	} {
		out := eval[string](tb, tc.call)
		require.NoError(t, json.Unmarshal([]byte(out), &answer), "%s returned %q: %s", tc.call, out, tc.reason)
		assert.NotContains(t, out, "internal error", "%s: %s", tc.call, tc.reason)
		if tc.wantErrors {
			assert.NotEmpty(t, answer.Errors, "%s: %s; got %s", tc.call, tc.reason, out)
		} else {
			assert.NotEmpty(t, answer.Error, "%s: %s; got %s", tc.call, tc.reason, out)
		}
		assert.Empty(t, answer.View, "%s has no view", tc.call)
		answer.Error, answer.Errors, answer.View = "", nil, nil
	}
	// Short answers, whatever the input's size, and without "internal
	// error".
	for _, call := range []string{
		`shedsim.run({policy: "x".repeat(30_000_000)})`,
		`shedsim.view(Object.fromEntries(Array.from({length: 1000}, (_, i) => ["unknown_" + i, 1])))`,
		`shedsim.view(JSON.stringify(Object.fromEntries(Array.from({length: 20000}, (_, i) => ["unknown_" + i, 1]))))`,
	} {
		out := eval[string](tb, call)
		assert.Less(t, len(out), 3000, "%s: a short answer: %.300s", call, out)
		assert.NotContains(t, out, "internal error", call)
		assert.Contains(t, out, `"errors"`, call)
	}
	// More keys than any configuration has are refused by their count
	// (issue 27, item 1: 80,000 took 31 s to read one by one).
	assert.Contains(t, eval[string](tb, `shedsim.view(Object.fromEntries(Array.from({length: 80000}, (_, i) => ["unknown_" + i, 1])))`),
		"the input has 80,000 keys, more than any configuration needs")
	// The DOM's own values: a detached element is drawn into, and unmount
	// of a BigInt is no widget (mount's hostile arguments, which log to
	// the console, are testMountNonElement's).
	assert.Positive(t, eval[int](tb, `shedsim.mount(document.createElement('div'), 'chart')`), "a detached element takes a widget")
	assert.False(t, eval[bool](tb, `shedsim.unmount(10n)`), "unmount of a BigInt")
	assert.Equal(t, 3, eval[int](tb, `JSON.parse(shedsim.lab("3")).index`), "a lab index as a string")
	// A Go panic inside a call (Int of a string) comes back as -1.
	assert.Equal(t, -1, eval[int](tb, `shedsim.labIndex('fifo', 'three', 150, 2000)`), "labIndex recovers from a panic")

	// Still alive: the engine answers and the form recomputes.
	assert.Equal(t, "ready", eval[string](tb, `document.documentElement.getAttribute('data-shedsim')`))
	assert.Equal(t, 0, tb.count(".shedsim-fatal"), "no fatal message")
	out := eval[string](tb, `shedsim.view("{}")`)
	require.NoError(t, json.Unmarshal([]byte(out), &answer))
	assert.NotEmpty(t, answer.View, "shedsim.view({}) after the bad calls")
	tb.typeInto("#in-sale_rps", "200")
	tb.do("pressing Enter", chromedp.SendKeys(chromedp.CSS("#in-sale_rps"), kb.Enter))
	waitResult(tb, "the results for 200/s", `c.sale_rps === 200`)
	assert.NotEqual(t, before, tb.text("#summary"), "#summary at 200/s")
	c := sim.DefaultConfig()
	c.SaleRPS = 200
	assertRowsMatch(t, tb.readTable("#compare"), c)
	tb.noProblems()
}

// testMountNonElement: shedsim.mount and shedsim.page given something that
// is not an element return 0, as main_js.go documents, and the runtime
// that every widget shares keeps running.
func testMountNonElement(t *testing.T, s *session) {
	type outcome struct {
		Returned string // what the call returned, or what it threw
		State    string // data-shedsim afterwards
		View     string // the start of shedsim.view's answer afterwards
	}
	want := outcome{"0", "ready", `{"view":`}
	for _, call := range []string{`shedsim.mount("x")`, `shedsim.mount({})`, `shedsim.mount(document.createTextNode("x"))`, `shedsim.page("x", "lab")`,
		// Issue 27, item 1: a BigInt ended the runtime before any recover.
		`shedsim.mount(10n)`, `shedsim.mount({nodeType: 10n})`, `shedsim.page(10n, "lab")`,
		`shedsim.mount(document.createElement("div"), 10n)`, `shedsim.mount(document.createElement("div"), "lab", {a: 10n})`} {
		tb := s.newTab(t, recorder)
		tb.open(s.fileURL("index.html"))
		tb.summaryOf("#summary", "")
		var got outcome
		got.Returned = eval[string](tb, `(() => { try { return String(`+call+`); } catch (e) { return 'threw ' + e; } })()`)
		got.State = eval[string](tb, `document.documentElement.getAttribute('data-shedsim')`)
		got.View = eval[string](tb, `(() => { try { return shedsim.view('{}').slice(0, 8); } catch (e) { return 'threw ' + e; } })()`)
		if strings.Contains(call, `{a: 10n}`) {
			assert.Contains(t, eval[string](tb, `(() => { const d = document.createElement("div"); shedsim.mount(d, "lab", {a: 10n}); return d.textContent })()`),
				`attribute "a" is a BigInt, not a string`, "a BigInt attribute is named in the element")
		}
		if got != want {
			_, problems, warnings := tb.logged()
			t.Errorf("%s: got %+v, want %+v: the runtime every widget shares must survive a bad argument.\nThe page logged %q (warnings %q) and shows %q",
				call, got, want, problems, warnings, tb.text(".shedsim-fatal"))
		}
		tb.close()
	}
}

// unlabelled lists the form controls with no <label for> in their own
// root (the page, or a widget's shadow root), or taken out of the tab
// order.
const unlabelled = `(() => {
	const bad = [];
	for (const root of [document, ...[...document.querySelectorAll('shed-sim')].map(e => e.shadowRoot).filter(Boolean)]) {
		for (const e of root.querySelectorAll('input, select, textarea')) {
			const name = e.id ? '#' + e.id : e.outerHTML.slice(0, 60);
			if (!e.id || !root.querySelector('label[for="' + CSS.escape(e.id) + '"]')) bad.push(name + ': no <label for>');
			if (e.tabIndex < 0) bad.push(name + ': tabindex ' + e.tabIndex);
		}
	}
	return bad;
})()`

// controlsIn counts the form controls on the page and in its widgets'
// shadow roots.
const controlsIn = `[document, ...[...document.querySelectorAll('shed-sim')].map(e => e.shadowRoot).filter(Boolean)]
	.reduce((n, root) => n + root.querySelectorAll('input, select, textarea').length, 0)`

// tabTo presses Tab until the element with id has the focus and returns
// the ids it passed through.
func tabTo(tb *tab, id string, most int) []string {
	tb.tb.Helper()
	var path []string
	for range most {
		tb.do("pressing Tab", chromedp.KeyEvent(kb.Tab))
		got := eval[string](tb, `(() => { let a = document.activeElement;
			while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
			return a ? (a.id || a.tagName.toLowerCase() + (a.className ? '.' + a.className : '')) : ''; })()`)
		path = append(path, got)
		if got == id {
			return path
		}
	}
	tb.tb.Fatalf("Tab did not reach #%s in %d presses: %s", id, most, strings.Join(path, " → "))
	return nil
}

// testKeyboard: every control has a label and can be reached with Tab; the
// simulator's first setting and the lab's radios work from the keyboard.
func testKeyboard(t *testing.T, s *session) {
	for _, name := range []string{"index.html", "lab.html", "planner.html", "embed.html"} {
		tb := s.newTab(t, recorder)
		tb.open(s.fileURL(name))
		rendered(tb, name)
		assert.Empty(t, eval[[]string](tb, unlabelled), "%s: controls without a label or out of the tab order", name)
		controls := eval[int](tb, controlsIn)
		assert.Positive(t, controls, "%s has controls", name)

		switch name {
		case "index.html":
			path := tabTo(tb, "in-policy", 40)
			t.Logf("index.html: Tab reaches #in-policy after %s", strings.Join(path, " → "))
			tb.do("pressing Tab", chromedp.KeyEvent(kb.Tab))
			assert.Equal(t, "in-workers", eval[string](tb, `document.activeElement.id`), "Tab after #in-policy")
			tb.do("pressing Shift+Tab", chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
			require.Equal(t, "in-policy", eval[string](tb, `document.activeElement.id`), "Shift+Tab back to #in-policy")
		case "lab.html":
			tabTo(tb, "lab-policy-fifo", 40)
			tb.do("pressing ArrowRight", chromedp.KeyEvent(kb.ArrowRight))
			i, _ := labIndex(t, sim.Skip, 0, 150, 2000)
			poll[bool](tb, "ArrowRight to choose the next policy",
				fmt.Sprintf(`(() => { const l = __shedsimTest.labs; return document.querySelector('#lab-policy-skip').checked && l[l.length - 1].detail.index === %d; })()`, i),
				`document.activeElement.id + ' ' + JSON.stringify(__shedsimTest.labs.map(l => l.detail.index))`)
		case "planner.html":
			tabTo(tb, "in-rate_rps", 40)
		case "embed.html":
			tabTo(tb, "shed1-in-retries", 40)
		}
		tb.noProblems()
	}
}

// TestEmbedPageListsEveryKey holds embed.html's list of attributes and the
// loader's KEYS, which it watches, to sim.Config's JSON keys: a setting
// the engine grows must reach both. It needs no browser.
func TestEmbedPageListsEveryKey(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", "site", name))
		require.NoError(t, err)
		return string(b)
	}
	embed, loader := read("embed.html"), read("loader.js")
	typ := reflect.TypeFor[sim.Config]()
	for i := range typ.NumField() {
		key, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if key == "" || key == "-" {
			continue
		}
		assert.True(t, strings.Contains(embed, "<code>"+key+"</code>"), "embed.html lists the attribute %s", key)
		assert.True(t, strings.Contains(loader, "'"+key+"'"), "loader.js's KEYS has %s", key)
	}
}

// TestLayout opens the three pages at a phone's width and a laptop's: no
// page scrolls sideways, at 1,280 px the comparison shows every column
// without scrolling, and a print leaves the simulator's <details> (the
// chart as a table, the fluid view) as they are, printing their summaries
// (issue 28: opened, the default run printed 27 pages), and writes the
// settings as text, gone again after it (TestPrint prints the pages).
func TestLayout(t *testing.T) {
	s := startBrowser(t)
	for _, width := range []int64{360, 1280} {
		for _, page := range []string{"index.html", "lab.html", "planner.html"} {
			tb := s.newTab(t)
			tb.do(fmt.Sprintf("a %d px viewport", width), chromedp.EmulateViewport(width, 900))
			tb.open(s.fileURL(page))
			if page == "index.html" {
				tb.summaryOf("#summary", "")
			}
			over := eval[float64](tb, `document.documentElement.scrollWidth - document.documentElement.clientWidth`)
			assert.LessOrEqual(t, over, 0.0, "%s at %d px scrolls sideways by %v px", page, width, over)
			if page == "index.html" && width == 1280 {
				hidden := eval[float64](tb, `(() => { const w = document.querySelector('#compare').closest('.table-wrap'); return w.scrollWidth - w.clientWidth; })()`)
				assert.LessOrEqual(t, hidden, 0.0, "the comparison at 1,280 px hides %v px of its columns", hidden)
			}
			if page == "index.html" {
				closed := `document.querySelectorAll('[data-shedsim-page] details:not([open])').length`
				settings := `document.querySelectorAll('[data-shedsim-page] p.print-settings').length`
				before := eval[float64](tb, closed)
				require.Positive(t, before, "the simulator has closed <details>")
				assert.Equal(t, before, eval[float64](tb, `(() => { dispatchEvent(new Event('beforeprint')); return `+closed+`; })()`),
					"a print leaves them closed: their summaries print")
				assert.Equal(t, 1.0, eval[float64](tb, settings), "the settings as text, for the print")
				assert.Zero(t, eval[float64](tb, `(() => { dispatchEvent(new Event('afterprint')); return `+settings+`; })()`),
					"gone again after it")
			}
			tb.noProblems()
			tb.close()
		}
	}
}

// chainSample is the Config of the sample named key, a chain (rule 40).
func chainSample(t *testing.T, key string) sim.Config {
	t.Helper()
	sample, ok := sim.SampleByKey(key)
	require.True(t, ok, key)
	require.NotEmpty(t, sample.Config.Hops, key)
	return sample.Config
}
