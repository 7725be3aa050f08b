//go:build !js

package browser

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wholePage is a post with the whole simulator in it (kind "full"), one
// with a single control, and the comparison with every control, whose
// fields the whole simulator's must be.
var wholePage = blog{name: "whole", column: "720px", theme: "light", widgets: []string{
	`kind="full" id="full"`,
	`kind="full" controls="retries" id="full-few"`,
	`kind="compare" controls="all" id="all-controls"`,
}}

// wholeParts is, for a widget, the order of what its root shows, the
// parts of its results and its fields' keys.
const wholeParts = `((id) => {
	const root = document.getElementById(id).shadowRoot, body = root.querySelector('.results-body');
	const has = (sel) => !!body.querySelector(sel);
	return {
		order: [...root.querySelector('.shedsim').children].filter(e => !e.hidden).map(e => e.tagName.toLowerCase() + '.' + e.className),
		parts: {bars: has('.policy-bars:not(.client-bars) svg.share-bar'), table: has('table[id$="-compare"] td'), clients: has('.client-bars svg.share-bar'),
			chart: has('.chart svg'), fluid: has('ul[id$="-fluid"] li'),
			advice: body.querySelectorAll('.advice li').length, downloads: body.querySelectorAll('.downloads button').length, link: has('a.open-full')},
		fields: [...root.querySelectorAll('form input, form select')].map(i => i.id.replace(/^shed\d+-/, '')),
	};
})`

type wholeWidget struct {
	Order  []string       `json:"order"`
	Parts  map[string]any `json:"parts"`
	Fields []string       `json:"fields"`
}

// TestEmbedWholeSimulator: kind="full" on a foreign blog is the whole
// simulator, results first: every policy as bars and a table, the client
// strategies, the chart, what to change, the fluid view and the
// downloads, then every field; it fits a
// post's column on a phone and a laptop, and its "Try it" works with
// fewer controls than settings.
func TestEmbedWholeSimulator(t *testing.T) {
	s := startBrowser(t)
	site := siteServer(t, s, true)
	sn := readmeSnippets(t).at(site.URL)
	host := blogServer(t, sn, []blog{wholePage})
	for _, width := range []int64{390, 1280} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			tb := s.newTab(t, recorder, hostRecorder)
			tb.do(fmt.Sprintf("a %d px viewport", width), chromedp.EmulateViewport(width, 900))
			tb.open(host.URL + "/whole.html")
			allWidgetsDone(tb, len(wholePage.widgets))

			full := eval[wholeWidget](tb, wholeParts+`('full')`)
			all := eval[wholeWidget](tb, wholeParts+`('all-controls')`)
			assert.Equal(t, []string{"section.results", "form.widget-controls"}, full.Order, "the results first, then the fields")
			assert.Equal(t, map[string]any{"bars": true, "table": true, "clients": true, "chart": true, "fluid": true, "advice": full.Parts["advice"], "downloads": 2.0, "link": true},
				full.Parts, "the whole simulator's parts")
			assert.Greater(t, full.Parts["advice"], 0.0, "what to change")
			// The README's widget section: kind full's shedsim:result has the
			// advice it shows; the comparison, which shows none, measures
			// none.
			events := eval[map[string]any](tb, `(() => { const m = {};
				for (const r of __shedsimTest.results) m[r.host] = r.detail.view.advice && r.detail.view.advice.length;
				return m; })()`)
			_, fired := events["all-controls"]
			assert.True(t, fired, "the comparison's shedsim:result")
			assert.Equal(t, map[string]any{"full": full.Parts["advice"], "all-controls": nil}, map[string]any{"full": events["full"], "all-controls": events["all-controls"]},
				"the advice in shedsim:result")
			require.NotEmpty(t, all.Fields, "controls=all's fields")
			assert.Equal(t, all.Fields, full.Fields, "kind full has every field, as controls=all does")

			for _, f := range eval[[]fit](tb, fits) {
				t.Logf("at %d px: %s is %.0f px wide", width, f.ID, f.Width)
				assert.Zero(t, f.Out, "%s sticks out of its column by %v px", f.ID, f.Out)
				assert.Zero(t, f.Scroll, "%s scrolls sideways by %v px", f.ID, f.Scroll)
			}
			assert.LessOrEqual(t, eval[float64](tb, `document.documentElement.scrollWidth - document.documentElement.clientWidth`), 0.0,
				"the blog scrolls sideways")
			screenshot(tb, t, fmt.Sprintf("whole-%d", width))

			// "Try it" with one control: the advice's other settings
			// count too, so the run and its link follow the advice.
			before := eval[string](tb, `document.getElementById('full-few').shadowRoot.querySelector('a.open-full').getAttribute('href')`)
			advice := eval[string](tb, `(() => { const root = document.getElementById('full-few').shadowRoot, b = root.querySelector('button.try');
				const text = root.getElementById(b.getAttribute('aria-describedby')).textContent; b.click(); return text; })()`)
			after := poll[string](tb, "the advice's run", `(() => { const root = document.getElementById('full-few').shadowRoot;
				const href = root.querySelector('a.open-full').getAttribute('href');
				return href !== `+js(before)+` && !root.querySelector('[aria-busy="true"]') ? href : false; })()`, ``)
			t.Logf("Try it on %q: %s -> %s", advice, before, after)
			changed := strings.TrimPrefix(after, site.URL+"/index.html?")
			assert.NotEqual(t, after, changed, "the link opens the simulator")
			assert.Regexp(t, regexp.MustCompile(`(^|&)(policy|queue|workers|client|timeout_ms)=`), changed,
				"the advice changes a setting full-few has no field for")
			assert.Empty(t, eval[[]any](tb, `__shedsimTest.errors`), "shedsim:error events")
			assert.Empty(t, eval[[]string](tb, `__hostTest.csp`), "CSP violations")
			tb.noProblems()
		})
	}
}
