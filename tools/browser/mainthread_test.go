//go:build !js

package browser

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

// TestMainThread checks what the page's main thread does, counted rather
// than timed (issue 10, item 4; the BenchmarkBrowser benchmarks time it):
// a change's own task only reads the form and sends runs, and with 40
// seeds the advice goes before the seeds' 234 runs.
func TestMainThread(t *testing.T) {
	s := startBrowser(t)
	t.Run("ChangeTaskDrawsNothing", func(t *testing.T) { testChangeTask(t, s) })
	t.Run("AdviceBeforeTheSeeds", func(t *testing.T) { testAdviceBeforeSeeds(t, s) })
}

// testChangeTask: a change of policy, in the task of its change event,
// adds no element to the results, writes no address and sends no run; a
// task after it sends the workers only the chosen policy's run and the
// clients' (every other policy's run stands), and the comparison, the
// address and the rest follow in tasks of their own. A CPU profile at 4x
// CPU found the comparison, the advice's first round and history's
// pushState in that one task, and Chromium's trace the menu's own work
// (its new option laid out) beside the recompute's, 60 to 90 ms of CPU.
func testChangeTask(t *testing.T, s *session) {
	tb := s.newTab(t, recorder, workerRuns)
	tb.open(s.fileURL("index.html"))
	tb.summaryOf("#summary", "")
	waitClients(tb)
	got := eval[struct {
		Added  int    `json:"added"`
		Search string `json:"search"`
		Sent   int    `json:"sent"`
		Runs   []struct {
			Policy string `json:"policy"`
		} `json:"runs"`
	}](tb, `(() => {
		const obs = new MutationObserver(() => {});
		obs.observe(document.querySelector('#results'), {childList: true, subtree: true});
		const sent = window.__workerRuns.length;
		const sel = document.querySelector('#in-policy');
		sel.value = 'skip';
		sel.dispatchEvent(new Event('change', {bubbles: true}));
		let added = 0;
		for (const r of obs.takeRecords()) for (const a of r.addedNodes) if (a.nodeType === 1) added += 1 + a.getElementsByTagName('*').length;
		obs.disconnect();
		return {added, search: location.search, sent, runs: window.__workerRuns.slice(sent)};
	})()`)
	assert.Zero(t, got.Added, "elements the change's task added to the results")
	assert.Equal(t, "", got.Search, "the address, in the change's task")
	assert.Empty(t, got.Runs, "runs the change's task sent")
	runs := poll[[]struct {
		Policy string `json:"policy"`
	}](tb, "the change's runs", fmt.Sprintf(`window.__workerRuns.length >= %d && window.__workerRuns.slice(%d)`, got.Sent+len(sim.Clients), got.Sent), `window.__workerRuns.length`)
	require.Len(t, runs, len(sim.Clients), "runs the task after the change sent: the chosen policy's, and the clients' but its own")
	for _, r := range runs {
		assert.Equal(t, "skip", r.Policy, "every run sent is the new policy's")
	}
	waitResult(tb, "the results for skip", `c.policy === "skip" && location.search === '?policy=skip'`)
	tb.noProblems()
}

// testAdviceBeforeTheSeeds: with 40 seeds the seeds' 234 runs go to the
// workers as runs that wait for the others (later), and the advice's
// rounds, sent after them, are not: shedsim:result, which comes once the
// advice is measured, comes while the seeds are still being run.
func testAdviceBeforeSeeds(t *testing.T, s *session) {
	tb := s.newTab(t, recorder, workerRuns, `document.addEventListener('shedsim:result', () => {
		(window.__seedsAtResult = window.__seedsAtResult || []).push(document.querySelector('#results').dataset.seeds || 'drawn');
	});`)
	tb.open(s.fileURL("index.html") + "?seeds=40")
	waitSeeds(tb)
	got := eval[struct {
		AtResult []string `json:"atResult"`
		Later    int      `json:"later"`
		Now      int      `json:"now"`
	}](tb, `({atResult: window.__seedsAtResult || [], later: __workerRuns.filter(r => r.later).length, now: __workerRuns.filter(r => !r.later).length})`)
	assert.Equal(t, []string{"pending"}, got.AtResult, "the seeds when shedsim:result came")
	assert.Equal(t, 39*len(sim.Policies), got.Later, "the seeds' runs, sent to wait")
	assert.Greater(t, got.Now, 1+len(sim.Policies)+len(sim.Clients), "the advice's runs, sent not to wait")
	tb.noProblems()
}
