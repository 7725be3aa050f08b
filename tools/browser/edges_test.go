//go:build !js

package browser

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sticksOut lists the visible elements whose right edge lies past the
// viewport's, or past their container's content box (its right edge less
// its padding), or whose left edge lies past the viewport's: what a reader
// sees run to, or off, the screen's edge.
// An element inside a box that scrolls or clips sideways counts against
// that box, not the viewport; the box itself is checked. A chart's labels
// and marks count against the chart's box.
const sticksOut = `(() => {
	const vw = document.documentElement.clientWidth, out = [];
	const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.classList.length ? '.' + [...e.classList].join('.') : '');
	const clips = e => ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(e).overflowX);
	for (const e of document.querySelectorAll('body *')) {
		const r = e.getBoundingClientRect();
		if (r.width === 0 || r.height === 0 || getComputedStyle(e).visibility === 'hidden') continue;
		let inClip = false;
		for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
			if (clips(a)) { inClip = true; break; }
		}
		if (inClip) continue;
		if (r.right > vw + 0.5) { out.push(name(e) + ': right edge at ' + r.right.toFixed(1) + ' px, past the viewport (' + vw + ' px)'); continue; }
		if (r.left < -0.5 && !e.matches('a.skip')) { // the skip link waits off screen for the focus
			out.push(name(e) + ' "' + e.textContent.slice(0, 20) + '": left edge at ' + r.left.toFixed(1) + ' px, past the viewport');
			continue;
		}
		const chart = e.parentElement && e.parentElement.closest('svg');
		if (chart) { // a chart's label or mark, against the chart's own box
			let outer = chart;
			while (outer.parentElement && outer.parentElement.closest('svg')) outer = outer.parentElement.closest('svg');
			const cr = outer.getBoundingClientRect();
			if (r.right > cr.right + 0.5) out.push(name(e) + ' "' + e.textContent.slice(0, 20) + '": right edge at ' + r.right.toFixed(1) + ' px, past its chart ' + name(outer) + ' (' + cr.right.toFixed(1) + ' px)');
			continue;
		}
		const p = e.parentElement;
		if (!p || p === document.body || ['inline', 'contents'].includes(getComputedStyle(p).display)) continue;
		const pr = p.getBoundingClientRect(), cs = getComputedStyle(p);
		const inner = pr.right - parseFloat(cs.paddingRight) - parseFloat(cs.borderRightWidth);
		if (r.right > inner + 0.5) out.push(name(e) + ': right edge at ' + r.right.toFixed(1) + ' px, past its container ' + name(p) + "'s content (" + inner.toFixed(1) + ' px)');
	}
	return out;
})()`

// overlappingLabels lists the labels under a chart's axis (its ticks and
// the sale's name) that run into one another, in the page and in every
// widget's shadow root.
const overlappingLabels = `(() => {
	const roots = [document, ...[...document.querySelectorAll('shed-sim')].map(e => e.shadowRoot).filter(Boolean)];
	const out = [];
	for (const root of roots) {
		for (const svg of root.querySelectorAll('svg:not(svg svg)')) {
			const rows = new Map();
			for (const t of svg.querySelectorAll('text.tick.x, text.sale-label')) {
				const r = t.getBoundingClientRect();
				if (r.width === 0) continue;
				const key = Math.round(r.top);
				if (!rows.has(key)) rows.set(key, []);
				rows.get(key).push({text: t.textContent, left: r.left, right: r.right});
			}
			for (const row of rows.values()) {
				row.sort((a, b) => a.left - b.left);
				for (let i = 1; i < row.length; i++) {
					if (row[i].left < row[i - 1].right - 0.5) out.push((svg.id || svg.getAttribute('class')) + ': "' + row[i - 1].text + '" runs into "' + row[i].text + '"');
				}
			}
		}
	}
	return out;
})()`

// tipsCollisions lists, in every sweep's chart on the page or in a
// widget, the labels that run into one another (the threshold's, the
// value now's, the curves' names, the ticks of both axes and the axis's
// name) and the labels that run into a ring (a crossing of the
// threshold) or a diamond (a flip): issue 28 found "50.0% answered" under
// the rings, "0%" on "100" and "250" on "unbounded".
const tipsCollisions = `(() => {
	const roots = [document, ...[...document.querySelectorAll('shed-sim')].map(e => e.shadowRoot).filter(Boolean)];
	const out = [];
	const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
	for (const root of roots) {
		for (const svg of root.querySelectorAll('svg.tips-sweep')) {
			const labels = [...svg.querySelectorAll('text')].map(t => ({t: t.textContent, r: t.getBoundingClientRect()})).filter(l => l.r.width > 0);
			const marks = [...svg.querySelectorAll('circle.cross, path.flip')].map(m => ({t: m.getAttribute('class'), r: m.getBoundingClientRect()}));
			for (let i = 0; i < labels.length; i++) {
				for (let j = i + 1; j < labels.length; j++) {
					if (hit(labels[i].r, labels[j].r)) out.push('"' + labels[i].t + '" runs into "' + labels[j].t + '"');
				}
				for (const m of marks) {
					if (hit(labels[i].r, m.r)) out.push('"' + labels[i].t + '" runs into a ' + m.t);
				}
			}
		}
	}
	return out;
})()`

// cutCaptions lists the captions of Where it tips' tables that run past
// the right edge of their scrolling box, where the reader cannot read
// them.
const cutCaptions = `(() => [...document.querySelectorAll('.tips-table-box .table-wrap')].filter(w => w.getClientRects().length > 0).flatMap(w => {
	const c = w.querySelector('caption'), r = c.getBoundingClientRect(), box = w.getBoundingClientRect();
	return r.right > box.right + 0.5 ? [c.parentElement.id + "'s caption runs to " + r.right.toFixed(1) + ' px, past its box (' + box.right.toFixed(1) + ' px)'] : [];
}))()`

// hiddenColumns lists the comparisons (of the policies, over seeds, of the
// clients) whose scrolling box hides some of their width, by how much.
// (Where it tips' tables, a row a step or a value, scroll by design.)
const hiddenColumns = `(() => [...document.querySelectorAll('.table-wrap')].filter(w => w.querySelector('table.compare') && w.getClientRects().length > 0 && w.scrollWidth > w.clientWidth + 0.5)
	.map(w => (w.querySelector('table') || {}).id + ' hides ' + (w.scrollWidth - w.clientWidth) + ' px'))()`

// labelSizes is the least on-screen size, in px, of each kind of label
// in the chart sel selects (its computed font size times the chart's
// scale, rotated or not), by the label's class.
func labelSizes(sel string) string {
	return `(() => { const svg = document.querySelector(` + js(sel) + `); if (!svg) return {};
	const out = {};
	for (const t of svg.querySelectorAll('text')) {
		const m = t.getScreenCTM(); // its scale, rotated or not
		const px = parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
		out[t.classList[0]] = Math.min(out[t.classList[0]] ?? Infinity, px);
	}
	return out; })()`
}

// sweepLines is, for each curve of the sweep's chart, its stroke, its
// dashes and its direct label's box, to tell the curves apart.
const sweepLines = `(() => [...document.querySelectorAll('#tips-chart polyline.curve')].map(c => {
	const pol = [...c.classList].find(k => k.startsWith('pol-'));
	const l = document.querySelector('#tips-chart text.end-label.' + pol);
	const r = l ? l.getBoundingClientRect() : null;
	return {policy: pol, stroke: getComputedStyle(c).stroke, dash: getComputedStyle(c).strokeDasharray,
		label: l ? l.textContent : '', top: r ? r.top : 0, bottom: r ? r.bottom : 0};
}))()`

type sweepLine struct {
	Policy, Stroke, Dash, Label string
	Top, Bottom                 float64
}

// checkTipsChart checks the sweep's or the map's chart at a width: its
// labels at least the simulator's charts' 11 px on screen (issue 10's
// review: a phone's sweep had 6 px labels), and, on a sweep, every curve
// told apart from the others by its dashes and its name at its end, the
// names not overlapping where the curves are near-equal (the bounded
// queue under priority, CoDel under LIFO).
func checkTipsChart(t *testing.T, tb *tab, width int64) {
	sizes := eval[map[string]float64](tb, labelSizes("#tips-chart"))
	require.NotEmpty(t, sizes, "the chart's labels")
	for class, px := range sizes {
		assert.GreaterOrEqual(t, px, 11.0, "at %d px the chart's %s labels are %.1f px on screen", width, class, px)
	}
	lines := eval[[]sweepLine](tb, sweepLines)
	if len(lines) == 0 {
		return // a map
	}
	seen := map[string]string{}
	for _, l := range lines {
		assert.NotEmpty(t, l.Label, "%s: its curve is named at its end", l.Policy)
		if other, ok := seen[l.Stroke+" "+l.Dash]; ok {
			t.Errorf("%s and %s are drawn alike: %s, dashes %s", other, l.Policy, l.Stroke, l.Dash)
		}
		seen[l.Stroke+" "+l.Dash] = l.Policy
	}
	dashes := map[string]bool{}
	for _, l := range lines {
		dashes[l.Dash] = true
	}
	assert.Len(t, dashes, len(lines), "every curve dashed its own way, apart from its hue")
	for i, a := range lines {
		for _, b := range lines[i+1:] {
			assert.True(t, a.Bottom <= b.Top+0.5 || b.Bottom <= a.Top+0.5, "at %d px the names %q (%v..%v) and %q (%v..%v) overlap", width, a.Label, a.Top, a.Bottom, b.Label, b.Top, b.Bottom)
		}
	}
}

// edgePages are the site's pages as a reader opens them, each with what
// to wait for before it is drawn whole.
var edgePages = []struct {
	name, page, query string
	scripts           []string
	wait              func(tb *tab)
}{
	{"simulator", "index.html", "", nil, waitWhole},
	{"seeds-40", "index.html", "?seeds=40", nil, func(tb *tab) { waitWhole(tb); waitSeeds(tb) }},
	{"chain", "index.html", "?sample=chain-retries", nil, func(tb *tab) { waitWhole(tb); waitChain(tb) }},
	{"lab", "lab.html", "", nil, waitQuiet},
	{"planner", "planner.html", "", nil, waitQuiet},
	{"sweep", "tips.html", tipsSweepQuery, []string{tipsRecorder}, func(tb *tab) { waitTips(tb, "sweeps", 1) }},
	{"sweep-default", "tips.html", "", []string{tipsRecorder}, func(tb *tab) { waitTips(tb, "sweeps", 1) }},
	{"map", "tips.html", "?kind=map", []string{tipsRecorder}, func(tb *tab) { waitTips(tb, "maps", 1) }},
	{"embed", "embed.html", "", nil, waitQuiet},
}

// waitWhole waits until the simulator page has drawn every part.
func waitWhole(tb *tab) {
	tb.tb.Helper()
	tb.summaryOf("#summary", "")
	poll[bool](tb, "every part drawn", `!document.querySelector('#results[aria-busy], #results[data-rows], #results[data-advice]') && !!document.querySelector('#clients-table td:not(:empty)')`, `document.getElementById('results').outerHTML.slice(0, 300)`)
}

// waitChain waits until the simulator page has drawn its chain's second
// hop's chart: the last part it draws of the two-hop chains these tests
// open.
func waitChain(tb *tab) {
	tb.tb.Helper()
	poll[bool](tb, "the last hop's chart", `!!document.querySelector('#chain-2-chart') && !document.querySelector('#chain').hidden`,
		`document.querySelector('#chain').outerHTML.slice(0, 300)`)
}

// waitQuiet waits until the engine is ready and nothing on the page is
// being measured.
func waitQuiet(tb *tab) {
	tb.tb.Helper()
	poll[bool](tb, "the engine, and nothing busy", `document.documentElement.getAttribute('data-shedsim') === 'ready' && !document.querySelector('[aria-busy="true"]')`,
		`document.documentElement.getAttribute('data-shedsim')`)
}

// TestNothingPastTheEdge opens every page of the site at a phone's width
// (390 px) and a laptop's (1,280 px), light and dark, and checks that
// nothing runs off the screen or past its column (the seeds table at 40
// seeds, the map's summary, the chain sample's 20,000/s axis), that no
// table hides columns on the laptop (the chain's 14 did), and keeps a
// full-page screenshot of each.
func TestNothingPastTheEdge(t *testing.T) {
	s := startBrowser(t)
	for _, p := range edgePages {
		for _, width := range []int64{390, 1280} {
			t.Run(fmt.Sprintf("%s-%d", p.name, width), func(t *testing.T) {
				tb := s.newTab(t, p.scripts...)
				tb.do(fmt.Sprintf("a %d px viewport", width), chromedp.EmulateViewport(width, 900))
				tb.open(s.fileURL(p.page) + p.query)
				p.wait(tb)
				for _, scheme := range []string{"light", "dark"} {
					tb.do("a "+scheme+" colour scheme", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
						_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
							Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
						return err
					}))
					screenshot(tb, t, fmt.Sprintf("%s-%d-%s", p.name, width, scheme))
				}
				assert.Empty(t, eval[[]string](tb, sticksOut), "%s at %d px: what runs past the edge", p.page+p.query, width)
				assert.Empty(t, eval[[]string](tb, overlappingLabels), "%s at %d px: axis labels that overlap", p.page+p.query, width)
				if width == 1280 {
					assert.Empty(t, eval[[]string](tb, hiddenColumns), "%s at 1,280 px: tables that hide columns", p.page+p.query)
				}
				if p.page == "tips.html" {
					checkTipsChart(t, tb, width)
					assert.Empty(t, eval[[]string](tb, tipsCollisions), "%s at %d px: the chart's labels that collide", p.page+p.query, width)
					assert.Empty(t, eval[[]string](tb, cutCaptions), "%s at %d px: captions cut off", p.page+p.query, width)
				}
				tb.noProblems()
			})
		}
	}
}
