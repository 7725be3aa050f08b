//go:build !js

package browser

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// propsPage sets every documented custom property on the post's column,
// an ancestor of its widgets.
var propsPage = blog{name: "props", column: "720px", theme: "light",
	css: `article { --shedsim-accent: #7b1fa2; --shedsim-background: #fff4e6; --shedsim-text: #3e2723;
  --shedsim-font: "DejaVu Sans Mono", monospace; --shedsim-answered: #1565c0; --shedsim-refused: #6a1b9a; --shedsim-timed-out: #000000; }
`,
	widgets: []string{`kind="full" id="p-full"`, `kind="lab" policy="bounded" id="p-lab"`}}

// plainPage is propsPage without its custom properties.
var plainPage = blog{name: "plain", column: "720px", theme: "light", widgets: propsPage.widgets}

// propStyles is, for each widget, the computed styles that each custom
// property sets, and every text whose colour holds less than 4.5:1
// against what is behind it.
const propStyles = `[...document.querySelectorAll('shed-sim')].map((el) => {
	const root = el.shadowRoot, box = root.querySelector('.shedsim'), cs = (sel, p) => { const e = root.querySelector(sel); return e ? getComputedStyle(e).getPropertyValue(p) : 'missing ' + sel; };
	// An outcome's fill: its bars' and charts' parts, or where the run has
	// none (a bounded queue times nothing out), its legend's swatch.
	const fill = (k) => root.querySelector('rect.' + k) ? cs('rect.' + k, 'fill') : cs('.swatch.' + k, 'background-color');
	const lum = (c) => { const m = c.match(/[\d.]+/g).slice(0, 3).map(Number).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
		return 0.2126 * m[0] + 0.7152 * m[1] + 0.0722 * m[2]; };
	const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
	const opaque = (c) => c && c !== 'transparent' && !/rgba\(.*, 0\)$/.test(c);
	const behind = (e) => { for (let n = e; n; n = n.parentElement || (n.getRootNode().host || null)) { const b = getComputedStyle(n).backgroundColor; if (opaque(b)) return b; } return 'rgb(255, 255, 255)'; };
	const low = [];
	for (const e of root.querySelectorAll('*')) {
		const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
		if (!own || !e.getClientRects().length || e.closest('option, .swatch')) continue;
		const c = getComputedStyle(e), colour = e instanceof SVGElement ? c.fill : c.color, bg = behind(e);
		if (parseFloat(c.opacity) < 1 || e.closest('[aria-busy="true"], .pending')) continue;
		const r = ratio(colour, bg);
		if (r < 4.5) low.push(e.tagName.toLowerCase() + '.' + e.getAttribute('class') + ' ' + JSON.stringify(e.textContent.trim().slice(0, 30)) + ': ' + colour + ' on ' + bg + ' is ' + r.toFixed(2) + ':1');
	}
	return {id: el.id, accent: cs('a.open-full', 'color'), background: getComputedStyle(box).backgroundColor, text: getComputedStyle(box).color,
		font: getComputedStyle(box).fontFamily, answered: fill('answered'), refused: fill('refused'), timed_out: fill('timed_out'),
		swatch: cs('.swatch.refused', 'background-color'), gap: cs('svg.share-bar rect', 'stroke'), low};
})`

type propStyle struct {
	ID         string   `json:"id"`
	Accent     string   `json:"accent"`
	Background string   `json:"background"`
	Text       string   `json:"text"`
	Font       string   `json:"font"`
	Answered   string   `json:"answered"`
	Refused    string   `json:"refused"`
	TimedOut   string   `json:"timed_out"`
	Swatch     string   `json:"swatch"`
	Gap        string   `json:"gap"`
	Low        []string `json:"low"`
}

// TestEmbedCustomProperties: each of the README's seven --shedsim-*
// properties, set by the blog on an ancestor, changes what it says it
// colours inside the shadow root, and the outcome colours, which fill
// shapes only, leave every text at 4.5:1 or more against what is behind
// it, with the background's thin gap between a bar's parts.
func TestEmbedCustomProperties(t *testing.T) {
	s := startBrowser(t)
	site := siteServer(t, s, true)
	sn := readmeSnippets(t).at(site.URL)
	host := blogServer(t, sn, []blog{propsPage, plainPage})
	styles := map[string][]propStyle{}
	for _, b := range []blog{plainPage, propsPage} {
		tb := s.newTab(t, recorder)
		tb.do("a 1,280 px viewport", chromedp.EmulateViewport(1280, 900))
		tb.open(host.URL + "/" + b.name + ".html")
		allWidgetsDone(tb, len(b.widgets))
		styles[b.name] = eval[[]propStyle](tb, propStyles)
		tb.noProblems()
		screenshot(tb, t, b.name)
	}
	require.Len(t, styles["plain"], 2)
	require.Len(t, styles["props"], 2)
	for i, got := range styles["props"] {
		plain := styles["plain"][i]
		for _, c := range []struct{ prop, got, plain, want string }{
			{"--shedsim-accent", got.Accent, plain.Accent, "rgb(123, 31, 162)"},
			{"--shedsim-background", got.Background, plain.Background, "rgb(255, 244, 230)"},
			{"--shedsim-text", got.Text, plain.Text, "rgb(62, 39, 35)"},
			{"--shedsim-font", got.Font, plain.Font, `"DejaVu Sans Mono", monospace`},
			{"--shedsim-answered", got.Answered, plain.Answered, "rgb(21, 101, 192)"},
			{"--shedsim-refused", got.Refused, plain.Refused, "rgb(106, 27, 154)"},
			{"--shedsim-timed-out", got.TimedOut, plain.TimedOut, "rgb(0, 0, 0)"},
			{"--shedsim-refused (the legend's swatch)", got.Swatch, plain.Swatch, "rgb(106, 27, 154)"},
			{"--shedsim-background (the gap between a bar's parts)", got.Gap, plain.Gap, "rgb(255, 244, 230)"},
		} {
			assert.Equal(t, c.want, c.got, "%s's %s", got.ID, c.prop)
			assert.NotEqual(t, c.plain, c.got, "%s's %s differs from the widget's own", got.ID, c.prop)
		}
		assert.Empty(t, got.Low, "%s's text under 4.5:1 with the blog's colours", got.ID)
		assert.Empty(t, plain.Low, "%s's text under 4.5:1 with the widget's own colours", plain.ID)
	}
}
