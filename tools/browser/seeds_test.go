//go:build !js

package browser

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// TestSeeds checks the simulator's seeds control (issue 10, item 3): over
// 10 seeds the page's table is the one `shedsim --seeds 10` prints for the
// same inputs, cell for cell; the bars carry the seeds' range, recovery as
// counts and, at the post's inputs, the post's own figure; the choice is
// in the URL and comes back with it; a bad value is refused, named and
// kept; and the result is announced once, when the seeds are in.
func TestSeeds(t *testing.T) {
	s := startBrowser(t)
	t.Run("KeyboardAndTheCommandLine", func(t *testing.T) { testSeedsKeyboard(t, s) })
	t.Run("LinkWithRetries", func(t *testing.T) { testSeedsLink(t, s) })
	t.Run("BadValues", func(t *testing.T) { testSeedsBad(t, s) })
	t.Run("Widgets", func(t *testing.T) { testSeedsWidgets(t, s) })
	t.Run("Screens", func(t *testing.T) { testSeedsScreens(t, s) })
}

// announced records every text the page's live region (#announce) is
// given, in window.__announced.
const announced = `(() => {
	window.__announced = [];
	new MutationObserver(records => {
		const e = document.querySelector('#announce');
		const inIt = r => e && (r.target === e || e.contains(r.target));
		if (e && e.textContent && records.some(inIt)) window.__announced.push(e.textContent);
	}).observe(document, {subtree: true, childList: true, characterData: true});
})();`

// waitSeeds waits until the page's seeds are drawn: no part of the
// results is still pending.
func waitSeeds(tb *tab) {
	tb.tb.Helper()
	tb.summaryOf("#summary", "")
	poll[bool](tb, "the seeds to be drawn", `!document.querySelector('#results[data-seeds]') && !document.querySelector('#bars[aria-busy], #table-box[aria-busy]')`,
		`(document.querySelector('#seeds-note') || {}).textContent`)
}

// cliSeeds runs the command line, go run ./tools/shedsim with args, from
// the repository's root, and returns what it printed.
func cliSeeds(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"run", "./tools/shedsim"}, args...)...)
	cmd.Dir = filepath.Join("..", "..")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	require.NoError(t, cmd.Run(), "shedsim %v: %s", args, errOut.String())
	return out.String()
}

// assertTableIsTheCommandLine reads the page's comparison and holds it,
// written as the command line writes a table, to what `shedsim args`
// printed: its title line ends with the table's caption's words, and its
// table is the page's, byte for byte.
func assertTableIsTheCommandLine(t *testing.T, tb *tab, args ...string) table {
	t.Helper()
	page := tb.readTable("#compare")
	require.NotEmpty(t, page.Rows, "the page's table")
	tab := report.Table{Header: page.Head}
	var policies []sim.Policy
	for _, r := range page.Rows {
		tab.Rows = append(tab.Rows, r.Cells)
		p, err := sim.ParsePolicy(r.Key)
		require.NoError(t, err, "the page's row %q names a policy", r.Key)
		policies = append(policies, p)
	}
	// The page titles each family of policies in a row of its own, as the
	// command line titles it in a line.
	tab.Groups = report.PolicyGroups(policies)
	want := []string{}
	for _, g := range tab.Groups {
		want = append(want, g.Title)
	}
	assert.Equal(t, want, eval[[]string](tb, `[...document.querySelectorAll('#compare tr.row-group th')].map(th => th.textContent.trim())`),
		"the page's titles of the policies' families")
	var b bytes.Buffer
	_, err := tab.WriteTo(&b)
	require.NoError(t, err)
	cli := cliSeeds(t, args...)
	title, body, ok := strings.Cut(cli, "\n\n")
	require.True(t, ok, "shedsim prints a line, then its table:\n%s", cli)
	assert.Equal(t, strings.TrimSpace(body), strings.TrimSpace(b.String()), "the page's table against shedsim %v", args)
	note := tb.text("#seeds-note")
	seeds, _, ok := strings.Cut(strings.TrimPrefix(note, "Means over "), ":")
	require.True(t, ok, "the line above the bars %q says which seeds", note)
	assert.True(t, strings.HasSuffix(title, seeds+": mean ± standard deviation between seeds."), "the command line's line %q is over the seeds the page names, %q", title, seeds)
	return page
}

// chooseSeeds moves the seeds menu to want with the arrow keys, from its
// focus, and commits the choice with Enter.
func chooseSeeds(tb *tab, want string) {
	tb.tb.Helper()
	tb.do("focusing the seeds menu", chromedp.Focus(chromedp.CSS("#in-seeds")))
	for range 5 {
		step := eval[int](tb, `(() => { const s = document.querySelector('#in-seeds');
			const to = [...s.options].findIndex(o => o.value === `+js(want)+`);
			return Math.sign(to - s.selectedIndex); })()`)
		if step == 0 {
			break
		}
		key := kb.ArrowDown
		if step < 0 {
			key = kb.ArrowUp
		}
		tb.do("arrowing through the seeds menu", chromedp.SendKeys(chromedp.CSS("#in-seeds"), key))
	}
	require.Equal(tb.tb, want, eval[string](tb, `document.querySelector('#in-seeds').value`), "the seeds menu, by keyboard")
	tb.do("pressing Enter on the seeds menu", chromedp.SendKeys(chromedp.CSS("#in-seeds"), kb.Enter))
}

func testSeedsKeyboard(t *testing.T, s *session) {
	tb := s.newTab(t, recorder, announced)
	tb.open(s.fileURL("index.html"))
	first := tb.summaryOf("#summary", "")
	assert.Equal(t, "1", eval[string](tb, `document.querySelector('#in-seeds').value`), "one seed by default")
	assert.Equal(t, "Seeds", tb.text(`label[for="in-seeds"]`), "the control is labelled")
	assert.True(t, eval[bool](tb, `document.querySelector('#seeds-note').hidden`), "one seed says nothing of seeds")

	mark := eval[int](tb, `window.__announced.length`)
	chooseSeeds(tb, "10")
	waitSeeds(tb)
	summary := tb.text("#summary")
	assert.True(t, strings.HasPrefix(summary, first+" Over 10 seeds: "), "the chosen policy's single run still heads the results, and then its seeds: %q", summary)
	assert.Contains(t, eval[string](tb, `location.search`), "seeds=10", "the choice is in the URL")

	page := assertTableIsTheCommandLine(t, tb, "--seeds", "10")
	assert.Equal(t, "fifo", page.Rows[0].Key)
	assert.Contains(t, page.Rows[0].Class, "chosen", "the chosen policy's row is marked")

	fifo := tb.text(`#bars [data-policy="fifo"] .bar-text`)
	mean, _, _ := strings.Cut(fifo, " answered on average, ")
	assert.Contains(t, summary, " Over 10 seeds: "+mean+" answered on average (", "the headline quotes the unbounded queue's mean over the seeds, as its bar does: %q", summary)
	assert.True(t, strings.HasSuffix(summary, "; back in 10 of 10 seeds."), "and its recovery as counts: %q", summary)
	assert.Contains(t, fifo, "% between seeds; ", "the mean with the seeds' range")
	assert.Contains(t, fifo, "back in 10 of 10 seeds", "recovery as counts")
	assert.Contains(t, fifo, "the post's figure: 8.4%", "the post's figure, at the post's inputs")
	assert.Equal(t, len(page.Rows), tb.count("#bars line.seed-range"), "every bar has its seeds' range")
	assert.Equal(t, 3, tb.count("#bars line.post-mark"), "the post's figure, for the three policies it gives one for")
	assert.Contains(t, tb.text("#seeds-note"), "Means over seeds 1 to 10")

	got := eval[[]string](tb, fmt.Sprintf(`window.__announced.slice(%d)`, mark))
	require.Len(t, got, 1, "the committed choice is announced once: %q", got)
	assert.True(t, strings.HasPrefix(got[0], "Unbounded queue: ") && strings.HasSuffix(got[0], "back in 10 of 10 seeds; the post's figure: 8.4%"),
		"it announces the seeds' result: %q", got[0])

	// Back: one seed again, as the history entry before had it.
	tb.do("going back", chromedp.Evaluate[chromedp.Void](`history.back()`))
	poll[bool](tb, "the seeds menu back at 1", `document.querySelector('#in-seeds').value === '1'`, `location.search`)
	tb.summaryOf("#summary", "")
	poll[bool](tb, "the one-seed table back", `!document.querySelector('#compare').textContent.includes('±')`, `document.querySelector('#compare').textContent`)
	assert.True(t, eval[bool](tb, `document.querySelector('#seeds-note').hidden`))
	tb.noProblems()
}

// testSeedsLink: a link with seeds=10 and other inputs opens with the
// control set and the spread drawn, the same as the command line's for
// those inputs; they are not the post's, so no post's figure is marked.
func testSeedsLink(t *testing.T, s *session) {
	tb := s.newTab(t, recorder)
	tb.open(s.fileURL("index.html") + "?retries=1&seeds=10")
	waitSeeds(tb)
	assert.Equal(t, "10", eval[string](tb, `document.querySelector('#in-seeds').value`))
	assertTableIsTheCommandLine(t, tb, "--seeds", "10", "--retries", "1")
	assert.Contains(t, tb.text(`#bars [data-policy="fifo"] .bar-text`), "back in 0 of 10 seeds, stuck in 10", "the post: one retry leaves the unbounded queue stuck")
	assert.Zero(t, tb.count("#bars line.post-mark"), "no post's figure for inputs that are not the post's")
	assert.Contains(t, eval[string](tb, `location.search`), "seeds=10", "the link keeps its seeds")
	tb.noProblems()
}

// testSeedsBad: a link's seeds that the page does not run are refused on
// the field, with the fix, and kept as typed; choosing a good one fixes it.
func testSeedsBad(t *testing.T, s *session) {
	for _, bad := range []string{"7", "abc", "0"} {
		tb := s.newTab(t, recorder)
		tb.open(s.fileURL("index.html") + "?seeds=" + bad)
		msg := poll[string](tb, "the seeds field's message", `(() => { const e = document.querySelector('#err-seeds'); return e && !e.hidden && e.textContent; })()`, `document.querySelector('#summary').textContent`)
		assert.Equal(t, `"`+bad+`" is not a number of seeds the page runs: choose 1, 10 or 40 (shedsim --seeds runs any number up to 1,000 on the command line)`, msg)
		assert.Equal(t, bad, eval[string](tb, `document.querySelector('#in-seeds').value`), "what the link said is kept")
		v, _ := tb.attr("#in-seeds", "aria-invalid")
		assert.Equal(t, "true", v)
		assert.Contains(t, tb.text("#summary"), "Seeds: ", "the status line names the field")
		assert.Contains(t, eval[string](tb, `location.search`), "seeds="+bad, "the address keeps it too")
		chooseSeeds(tb, "1")
		tb.summaryOf("#summary", "")
		poll[bool](tb, "the message gone", `document.querySelector('#err-seeds').hidden`, `document.querySelector('#err-seeds').textContent`)
		assert.NotContains(t, eval[string](tb, `location.search`), "seeds=", "one seed is the default, left out")
		tb.noProblems()
		tb.close()
	}
}

// testSeedsWidgets: a compare widget with seeds="10" (frame.html takes
// the attributes from its address) draws the seeds' table and bars; a
// chart, which draws one run, refuses the attribute and says so.
func testSeedsWidgets(t *testing.T, s *session) {
	tb := s.newTab(t, recorder)
	tb.open(s.fileURL("frame.html") + "?kind=compare&seeds=10")
	got := poll[[]string](tb, "the widget's seeds", `(() => {
		const root = document.querySelector('shed-sim').shadowRoot;
		const rows = root && root.querySelectorAll('table.seeds tbody tr[data-policy]');
		if (!rows || rows.length !== `+strconv.Itoa(len(sim.Policies))+` || root.querySelector('.results[data-seeds]')) return false;
		return [...root.querySelectorAll('.bar-text')].map(e => e.textContent);
	})()`, `document.querySelector('shed-sim').shadowRoot.textContent.slice(0, 300)`)
	require.Len(t, got, len(sim.Policies))
	for _, text := range got {
		assert.Contains(t, text, " of 10 seeds", "every bar counts its seeds")
	}
	assert.Contains(t, eval[string](tb, `document.querySelector('shed-sim').shadowRoot.querySelector('a.open-full').href`), "seeds=10",
		"the link to the full simulator keeps the seeds")
	tb.noProblems()

	chart := s.newTab(t, recorder)
	chart.open(s.fileURL("frame.html") + "?kind=chart&seeds=10")
	msg := poll[string](chart, "the chart's refusal", `(() => {
		const root = document.querySelector('shed-sim').shadowRoot;
		return root && [...root.querySelectorAll('[role="alert"]')].map(e => e.textContent).join(' ');
	})()`, `document.querySelector('shed-sim').shadowRoot.textContent.slice(0, 300)`)
	assert.Contains(t, msg, "seeds", "the chart names the attribute it does not take")
}

// testSeedsScreens keeps screenshots of 40 seeds at a phone's width and a
// laptop's, and checks that nothing scrolls sideways.
func testSeedsScreens(t *testing.T, s *session) {
	for _, width := range []int64{390, 1280} {
		tb := s.newTab(t, recorder)
		tb.do(fmt.Sprintf("a %d px viewport", width), chromedp.EmulateViewport(width, 900))
		tb.open(s.fileURL("index.html") + "?seeds=40")
		waitSeeds(tb)
		over := eval[float64](tb, `document.documentElement.scrollWidth - document.documentElement.clientWidth`)
		assert.LessOrEqual(t, over, 0.0, "%d px scrolls sideways by %v px", width, over)
		screenshot(tb, t, fmt.Sprintf("seeds-40-%d", width))
		// The comparison alone, the bars and the table, to look at.
		png, err := chromedp.Run(tb.ctx, chromedp.Screenshot(chromedp.CSS(`#results .block`)))
		require.NoError(t, err, "a screenshot of the comparison")
		require.NoError(t, os.WriteFile(filepath.Join(t.ArtifactDir(), fmt.Sprintf("seeds-40-%d-comparison.png", width)), png, 0o644))
		tb.noProblems()
		tb.close()
	}
}

// BenchmarkBrowserSeeds is issue 10's 40 seeds x 6 policies in Chromium,
// from disk: the page's own recompute with the seeds control at 40, from
// the form's submit until every seed's run is back and drawn
// ("ms-seeds"), with one worker (navigator.hardwareConcurrency set to 1
// before the page starts its pool) and with one a core. The seed changes
// each time, so that nothing is reused. It also reports when the chosen
// policy's single run was drawn ("ms-first", #timing's), and the main
// thread's longest task meanwhile (Long Tasks API; 0 when none passed 50
// ms) and how many passed 50 ms a recompute.
func BenchmarkBrowserSeeds(b *testing.B) {
	s := startBrowser(b)
	for _, bc := range []struct {
		name, script string
	}{
		{"OneWorker", `Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', {get: () => 1});`},
		{"EveryCore", ``},
	} {
		b.Run(bc.name, func(b *testing.B) {
			tb := s.newTab(b, recorder, longTasks, bc.script)
			tb.open(s.fileURL("index.html") + "?seeds=40")
			waitSeeds(tb)
			workers := eval[int](tb, `shedsimWorkers.size`)
			var seedsMS, firstMS, longest float64
			tasks, n := 0, 0
			for b.Loop() {
				mark := eval[float64](tb, `(() => {
					window.__seedsMS = 0;
					const results = document.querySelector('#results');
					const t0 = performance.now();
					new MutationObserver((_, obs) => {
						if (!results.hasAttribute('data-seeds')) { window.__seedsMS = performance.now() - t0; obs.disconnect(); }
					}).observe(results, {attributes: true, attributeFilter: ['data-seeds']});
					const seed = document.querySelector('#in-seed');
					seed.value = String(Number(seed.value) + 40);
					document.querySelector('#sim-form').requestSubmit();
					return t0;
				})()`)
				// 240 runs on one worker of a loaded machine can outlast
				// pollTimeout: wait up to four times as long.
				ms, err := chromedp.Run(tb.ctx, chromedp.Poll[float64](`window.__seedsMS`, chromedp.WithPollingTimeout(4*pollTimeout), chromedp.WithPollingInterval(20*time.Millisecond)))
				if err != nil {
					tb.fatal("waiting for 40 seeds ("+tb.text("#seeds-note")+")", err)
				}
				seedsMS += ms
				firstMS += eval[float64](tb, `+document.querySelector('#timing').dataset.firstMs`)
				got := eval[[]float64](tb, fmt.Sprintf(`window.__longTasks.tasks.filter(t => t.start > %v).map(t => t.ms)`, mark))
				for _, ms := range got {
					longest = max(longest, ms)
				}
				tasks += len(got)
				n++
			}
			b.ReportMetric(float64(workers), "workers")
			b.ReportMetric(seedsMS/float64(n), "ms-seeds")
			b.ReportMetric(firstMS/float64(n), "ms-first")
			b.ReportMetric(longest, "ms-longest-task")
			b.ReportMetric(float64(tasks)/float64(n), "long-tasks")
			b.ReportMetric(0, "ns/op")
		})
	}
}
