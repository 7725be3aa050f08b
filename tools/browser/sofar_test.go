//go:build !js

package browser

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

// sentenceRecorder keeps every text the tips page's sentence and status
// line show, in order, in window.__said, and how many sentences were in
// when the sweep's event came (window.__said.atEvent).
const sentenceRecorder = `(() => {
	const said = window.__said = {sentences: [], status: [], atEvent: -1};
	const look = () => {
		const s = document.getElementById('tips-sentence'), st = document.querySelector('.tips .summary');
		const t = s ? s.textContent.trim() : '', u = st ? st.textContent.trim() : '';
		if (t && t !== said.sentences[said.sentences.length - 1]) said.sentences.push(t);
		if (u && u !== said.status[said.status.length - 1]) said.status.push(u);
	};
	new MutationObserver(look).observe(document, {subtree: true, childList: true, characterData: true});
	document.addEventListener('shedsim:sweep', () => { look(); said.atEvent = said.sentences.length; });
})();`

// TestSweepSaysSoFar: while a sweep's settings come back, its sentence
// says how many are in ("So far, 5 of 24 settings: ..."), and only the
// last, once every setting is, states the conclusion plainly (issue 28:
// with 3 of 24 in, a widget said the unbounded queue got back at every
// step). The status line counts browser threads, not "workers", which
// are the model's servers.
func TestSweepSaysSoFar(t *testing.T) {
	s := startBrowser(t)
	tb := s.newTab(t, tipsRecorder, sentenceRecorder)
	tb.open(s.fileURL("tips.html") + "?knob=retries&from=0&to=3&steps=4&seeds=5")
	waitTips(tb, "sweeps", 1)
	said := eval[struct {
		Sentences []string `json:"sentences"`
		Status    []string `json:"status"`
		AtEvent   int      `json:"atEvent"`
	}](tb, `window.__said`)
	require.Positive(t, said.AtEvent, "the sweep's sentence was drawn")
	partial, final := said.Sentences[:said.AtEvent-1], said.Sentences[said.AtEvent-1:]
	require.NotEmpty(t, partial, "the sentence was drawn before every setting was in: %q", said.Sentences)
	for _, p := range partial {
		assert.True(t, strings.HasPrefix(p, "So far, "), "a sentence drawn before the last setting says so: %q", p)
		assert.Contains(t, p, " of "+strconv.Itoa(4*len(sim.Policies))+" settings: over retries from 0 to 3", "it counts the settings: 4 steps, every policy")
	}
	require.Len(t, final, 1, "one sentence once every setting is in")
	assert.True(t, strings.HasPrefix(final[0], "Over retries from 0 to 3"), "the finished sweep's sentence: %q", final[0])
	assert.NotContains(t, final[0], "So far")
	for _, st := range said.Status {
		assert.NotRegexp(t, `\bworkers?\b`, st, "the status line names browser threads, not the model's workers")
	}
	assert.Regexp(t, `^`+strconv.Itoa(4*len(sim.Policies))+` settings, `+strconv.Itoa(20*len(sim.Policies))+` runs, in \d+ browser threads?\.$`, said.Status[len(said.Status)-1], "the finished status")
	tb.noProblems()
}
