//go:build !js

package browser

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/tools/internal/siteserve"
)

// The embedding tests (issue 9): the README's snippets, read from the
// README, pasted into blogs served from another origin than the site, in
// real Chromium. The site is on one loopback port, the blogs on another.

// readmeOrigin is where the README says the site is published; the tests
// put the site's test server there.
const readmeOrigin = "https://example.org"

// snippets are the README's embedding snippets, with the site's address
// in place of https://example.org/shedsim/.
type snippets struct {
	Widget string // <script src=".../loader.js" async> and a <shed-sim>
	Sweep  string // a <shed-sim kind="sweep">, on a page that has the loader
	Chain  string // a <shed-sim> with hops, on a page that has the loader
	CSP    string // the Content-Security-Policy header's value
	Iframe string // the <iframe> of frame.html
	Resize string // the <script> that resizes the iframe
	// NPM is the shell line that installs the npm package and copies its
	// site/ folder; Import the module's lines that load it (npm_test.go).
	NPM, Import string
}

// readmeSnippets reads the code blocks of the README's "Embedding it in a
// blog post" section and tells them apart by what they hold; each must be
// there once.
func readmeSnippets(t *testing.T) snippets {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	readme := string(b)
	start := strings.Index(readme, "\n## Embedding it in a blog post\n")
	require.GreaterOrEqual(t, start, 0, "README.md has the section \"Embedding it in a blog post\"")
	section := readme[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	var s snippets
	found := map[string]int{}
	for _, m := range regexp.MustCompile("(?s)```[a-z]*\n(.*?)```").FindAllStringSubmatch(section, -1) {
		block := strings.TrimSpace(m[1])
		switch {
		case strings.HasPrefix(block, "npm install "):
			s.NPM = block
			found["npm"]++
		case strings.HasPrefix(block, "import "):
			s.Import = block
			found["import"]++
		case strings.HasPrefix(block, "Content-Security-Policy:"):
			s.CSP = strings.TrimSpace(strings.TrimPrefix(block, "Content-Security-Policy:"))
			found["csp"]++
		case strings.Contains(block, `<shed-sim kind="sweep"`) && !strings.Contains(block, "loader.js"):
			s.Sweep = block
			found["sweep"]++
		case strings.Contains(block, ` hops="`) && !strings.Contains(block, "loader.js"):
			s.Chain = block
			found["chain"]++
		case strings.Contains(block, "<shed-sim"):
			s.Widget = block
			found["widget"]++
		case strings.Contains(block, "<iframe"):
			s.Iframe = block
			found["iframe"]++
		case strings.HasPrefix(block, "<script>") && strings.Contains(block, "message"):
			s.Resize = block
			found["resize"]++
		default:
			t.Fatalf("README's embedding section has a code block the tests do not know:\n%s", block)
		}
	}
	assert.Equal(t, map[string]int{"csp": 1, "widget": 1, "sweep": 1, "chain": 1, "iframe": 1, "resize": 1, "npm": 1, "import": 1}, found, "the README's embedding snippets")
	require.Contains(t, s.Widget, readmeOrigin+"/shedsim/loader.js", "the widget snippet loads the loader from the README's address")
	m := regexp.MustCompile(`height="(\d+)"`).FindStringSubmatch(s.Iframe)
	require.NotNil(t, m, "the iframe snippet gives a starting height")
	iframeStart = m[1]
	return s
}

// iframeStart is the iframe snippet's starting height, in px.
var iframeStart string

// at puts the site's origin (such as http://127.0.0.1:41234) where the
// snippet says https://example.org, and its folder for /shedsim/.
func (s snippets) at(siteURL string) snippets {
	r := strings.NewReplacer(readmeOrigin+"/shedsim/", siteURL+"/", readmeOrigin, siteURL)
	return snippets{r.Replace(s.Widget), r.Replace(s.Sweep), r.Replace(s.Chain), r.Replace(s.CSP), r.Replace(s.Iframe), r.Replace(s.Resize), s.NPM, s.Import}
}

// TestEmbedPageShowsTheREADMEsSnippets holds embed.html's snippets, which
// its copy buttons copy, to the README's. It needs no browser.
func TestEmbedPageShowsTheREADMEsSnippets(t *testing.T) {
	want := readmeSnippets(t)
	b, err := os.ReadFile(filepath.Join("..", "..", "site", "embed.html"))
	require.NoError(t, err)
	page := string(b)
	for _, c := range []struct{ id, want string }{{"snippet", want.Widget}, {"sweep-snippet", want.Sweep}, {"iframe-snippet", want.Iframe}, {"resize-snippet", want.Resize}} {
		m := regexp.MustCompile(`(?s)<pre id="` + c.id + `"><code>(.*?)</code></pre>`).FindStringSubmatch(page)
		if assert.NotNil(t, m, "embed.html has #%s", c.id) {
			assert.Equal(t, c.want, html.UnescapeString(m[1]), "embed.html's #%s is the README's", c.id)
		}
	}
}

// blog is a test host page: a blog post with its own stylesheet, into
// which the README's snippets are pasted.
type blog struct {
	name   string // served as /name.html, its stylesheet as /name.css
	column string // the article column's max-width
	css    string // its rules after the common ones
	csp    bool   // served with the README's Content-Security-Policy
	// without lists directives (or sources, such as 'wasm-unsafe-eval')
	// of the README's policy that the page's leaves out (its author forgot
	// them).
	without []string
	theme   string // the widgets' theme under theme="auto"
	// widgets are the attributes of each <shed-sim> of a page that tries
	// kinds and attributes (no README snippets but the loader's, and the
	// sweep's and the chain's if sweep).
	widgets []string
	sweep   bool
}

// blogCSS is every test blog's stylesheet before its own rules.
const blogCSS = `html { overflow-y: scroll; }
body { margin: 0; background: #ffffff; color: #222222; font: 18px/1.6 Georgia, "DejaVu Serif", serif; }
header { display: flex; gap: 12px; align-items: center; background: #f4f1ea; padding: 12px 24px; }
article { max-width: COLUMN; margin: 0 auto; padding: 0 16px; }
table { border-collapse: collapse; }
td, th { border: 1px solid #cccccc; padding: 4px 8px; }
button { background: #eeeeee; color: #111111; border: 1px solid #999999; padding: 6px 12px; }
input { width: 200px; }
h2 { font-size: 26px; color: #333333; }
a { color: #0645ad; }
`

// hostileCSS sets everything a careless theme sets globally, on the
// elements the widget draws with.
const hostileCSS = `* { margin: 9px; padding: 5px; border: 2px dashed #ff00ff; box-sizing: content-box; background-color: #fff8e0;
  text-transform: uppercase; letter-spacing: 0.12em; line-height: 2.4; text-align: right; list-style: square; }
svg { display: inline; width: 24px !important; height: 24px !important; }
rect { fill: #000000 !important; stroke: #00ff00; }
table { width: 100% !important; text-align: right; border-collapse: separate; background: #00ff00; }
button { background: #ff0000 !important; color: #ffff00; border-radius: 0; width: 100%; }
input { width: 100% !important; background: #000000; color: #00ff00; }
h2 { font-size: 3em; color: #800080; }
`

var blogs = []blog{
	{name: "light", column: "720px", theme: "light"},
	{name: "dark", column: "720px", theme: "dark", css: `body { background: #121417; color: #dddddd; }
header { background: #1d2025; }
h2 { color: #eeeeee; }
a { color: #8ab4f8; }
`},
	{name: "narrow", column: "600px", theme: "light"},
	{name: "hostile", column: "720px", theme: "light", css: hostileCSS},
	{name: "strict", column: "720px", theme: "light", csp: true},
}

// kindPages show every kind of widget in a column: a post's 720 px, a
// sidebar's 280 px, and the whole width of the page.
var kindPages = []blog{
	{name: "kinds-720", column: "720px", theme: "light", widgets: allKinds, sweep: true},
	{name: "kinds-280", column: "280px", theme: "light", widgets: allKinds, sweep: true},
	{name: "kinds-full", column: "none", theme: "light", widgets: allKinds, sweep: true},
}

// allKinds is a widget of every kind; the comparison with every control,
// the widest form.
var allKinds = []string{`kind="simulator" id="kind-simulator"`, `kind="full" id="kind-full"`, `kind="compare" controls="all" id="kind-compare"`,
	`kind="chart" id="kind-chart"`, `kind="lab" id="kind-lab"`, `kind="planner" id="kind-planner"`,
	`kind="map" id="kind-map" x_steps="3" y_steps="2" seeds="2"`}

// attributesPage tries the attributes an author sets: theme, the custom
// properties, controls, and ones that are wrong.
var attributesPage = blog{name: "attributes", column: "720px", theme: "light",
	css: "#custom { --shedsim-answered: #1b5e20; --shedsim-accent: #7b1fa2; }\nhtml.night body { background: #101114; color: #eeeeee; }\n",
	widgets: []string{
		`id="dark" kind="compare" theme="dark" sale_rps="200" retries="3"`,
		`id="custom" kind="chart"`,
		`id="bad-controls" kind="compare" controls="retries bogus"`,
		`id="no-controls" kind="lab" controls="none" policy="bounded"`,
		`id="bad-theme" kind="planner" theme="blue" rate_rps="200"`,
	}}

// secondWidget is the widget each blog has besides the README's, of
// another kind.
const secondWidget = `<shed-sim kind="chart" policy="bounded" sale_rps="200" id="second"></shed-sim>`

// page writes b's HTML; without widgets, the same page with nothing
// pasted in (the "before" its elements' styles are compared with).
func (b blog) page(sn snippets, widgets bool) string {
	var post strings.Builder
	post.WriteString(`<h1>What overload does to a checkout</h1>
<p id="p1">A sale sends more people than the workers can serve. <a id="link" href="#last">Skip to the end</a>, or read on.</p>
<h2 id="h2">Every policy in the sale</h2>
<p>Here is every policy side by side, with your own retries:</p>
`)
	if len(b.widgets) > 0 {
		if widgets {
			loader, _, _ := strings.Cut(sn.Widget, "\n")
			post.WriteString(loader + "\n")
			for _, attrs := range b.widgets {
				fmt.Fprintf(&post, "<h2>%s</h2>\n<shed-sim %s></shed-sim>\n", html.EscapeString(attrs), attrs)
			}
			if b.sweep {
				post.WriteString("<h2>Where it flips</h2>\n" + sn.Sweep + "\n<h2>A chain</h2>\n" + sn.Chain + "\n")
			}
		}
	} else {
		if widgets {
			post.WriteString(sn.Widget + "\n")
		}
		post.WriteString(`<p>And the bounded queue over time:</p>
`)
		if widgets {
			post.WriteString(secondWidget + "\n")
		}
		post.WriteString(`<table id="tbl"><tr><th>Policy</th><th>Answered</th></tr><tr><td>Unbounded</td><td>3%</td></tr></table>
<h2>Where scripts are stripped</h2>
`)
		if widgets {
			post.WriteString(sn.Iframe + "\n")
			if !b.csp {
				post.WriteString(sn.Resize + "\n") // the strict page runs no inline script: its loader resizes the iframe
			}
		}
	}
	post.WriteString(`<p id="last">That is all.</p>`)
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>A blog: ` + b.name + `</title>
<link rel="stylesheet" href="/` + b.name + `.css">
</head>
<body>
<header><svg id="logo" width="40" height="20" viewBox="0 0 40 20" aria-hidden="true"><rect id="logo-rect" width="40" height="20" fill="#cc3333"></rect></svg>
<span>A blog</span> <input id="search" type="search" aria-label="Search"> <button id="subscribe" type="button">Subscribe</button></header>
<article id="post">
` + post.String() + `
</article>
</body>
</html>
`
}

// blogServer serves the blogs with the README's snippets pointing at
// siteURL; /NAME-before.html is NAME's page with nothing pasted in.
func blogServer(t *testing.T, sn snippets, pages []blog) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	for _, b := range pages {
		mux.HandleFunc("/"+b.name+".css", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/css; charset=utf-8")
			fmt.Fprint(w, strings.ReplaceAll(blogCSS, "COLUMN", b.column)+b.css)
		})
		for _, widgets := range []bool{true, false} {
			path := "/" + b.name + ".html"
			if !widgets {
				path = "/" + b.name + "-before.html"
			}
			mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
				if b.csp {
					var kept []string
					for _, d := range strings.Split(sn.CSP, ";") {
						words := strings.Fields(d)
						if len(words) == 0 || slices.Contains(b.without, words[0]) {
							continue
						}
						words = slices.DeleteFunc(words, func(w string) bool { return slices.Contains(b.without, w) })
						kept = append(kept, strings.Join(words, " "))
					}
					w.Header().Set("Content-Security-Policy", strings.Join(kept, "; "))
				}
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Header().Set("Cache-Control", "no-store")
				fmt.Fprint(w, b.page(sn, widgets))
			})
		}
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// siteServer serves site/ as a host would publish it: with
// Access-Control-Allow-Origin on sim.wasm, as netlify.toml does, or
// without (cors false).
func siteServer(t *testing.T, s *session, cors bool) *httptest.Server {
	t.Helper()
	files := siteserve.Handler(s.site)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if cors && r.URL.Path == "/sim.wasm" {
			w.Header().Set("Access-Control-Allow-Origin", "*")
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// hostRecorder runs first in every document of a blog's tab: it records
// the page's CSP violations and the heights its iframes post.
const hostRecorder = `(() => {
	const r = window.__hostTest = {csp: [], heights: [], drawn: false};
	document.addEventListener('securitypolicyviolation', (e) => r.csp.push(e.violatedDirective + ' blocked ' + e.blockedURI));
	window.addEventListener('message', (e) => {
		if (e.data && e.data.shedsim === 'height') { r.heights.push(e.data.height); r.drawn = r.drawn || e.data.drawn === true; }
	});
})();`

// widgetState is a JavaScript function of a <shed-sim> element: "" while
// it is still loading or computing, else what it shows ("done", or the
// error it shows).
const widgetState = `((el) => {
	const root = el.shadowRoot;
	if (!root) return '';
	const fatal = root.querySelector('.shedsim-fatal, .shedsim-error:not([hidden])');
	if (fatal && fatal.textContent.trim()) return 'error: ' + fatal.textContent.trim();
	const box = root.querySelector('.shedsim-root');
	if (!box || box.hidden) return '';
	switch (el.getAttribute('kind') || 'simulator') {
	case 'lab': return root.querySelector('[id$="lab-recovered"][data-recovery]') ? 'done' : '';
	case 'planner': { const a = root.querySelector('[id$="plan-answer"]'); return a && a.textContent.trim() ? 'done' : ''; }
	case 'sweep': case 'map': return root.querySelector('[id$="tips-table"]') ? 'done' : '';
	default: {
		const s = root.querySelector('.summary');
		const t = s ? s.textContent.trim() : '';
		// The whole simulator is drawn once its advice and its client
		// strategies are too.
		const whole = el.getAttribute('kind') !== 'full' || (root.querySelector('.advice li') && !root.querySelector('[aria-busy="true"]'));
		return t && !t.startsWith('Computing') && !root.querySelector('[data-rows="pending"], [data-advice="pending"], .results[aria-busy]') && whole ? 'done' : '';
	}
	}
})`

// allWidgetsDone waits until every <shed-sim> on the page shows its
// results; one that shows an error fails the test.
func allWidgetsDone(tb *tab, want int) {
	tb.tb.Helper()
	for i, s := range widgetStates(tb, want) {
		assert.Equal(tb.tb, "done", s, "widget %d", i)
	}
}

// widgetStates waits until every <shed-sim> on the page shows its
// results or an error, and returns what each shows (see widgetState).
func widgetStates(tb *tab, want int) []string {
	tb.tb.Helper()
	got := poll[[]string](tb, "every widget to show its results", `(() => {
		const list = [...document.querySelectorAll('shed-sim')];
		const states = list.map(`+widgetState+`);
		if (list.length !== `+fmt.Sprint(want)+`) return false;
		return states.every(s => s !== '') ? states : false;
	})()`, `[...document.querySelectorAll('shed-sim')].map(e => (e.id || e.getAttribute('kind')) + ': ' + `+widgetState+`(e)).join(' | ')`)
	return got
}

// hostStyle is the computed style of the blog's own elements: what the
// widget must leave alone.
const hostStyle = `(() => {
	const props = ['color', 'background-color', 'font-family', 'font-size', 'line-height', 'width', 'margin-left', 'margin-right',
		'padding-left', 'text-align', 'text-transform', 'display', 'fill', 'border-top-color', 'border-top-width', 'border-radius', 'box-sizing'];
	const out = {};
	for (const sel of ['html', 'body', 'header', '#logo', '#logo-rect', '#search', '#subscribe', 'article', 'h1', '#h2', '#p1', '#link', '#tbl', '#tbl td', '#last']) {
		const e = document.querySelector(sel);
		if (!e) continue;
		const cs = getComputedStyle(e);
		const m = {};
		for (const p of props) m[p] = cs.getPropertyValue(p);
		out[sel] = m;
	}
	return out;
})()`

// palette is what each theme fills the outcomes with (widget.css).
var palette = map[string]map[string]string{
	"light": {"answered": "rgb(46, 125, 91)", "refused": "rgb(217, 154, 30)", "timed_out": "rgb(194, 65, 59)"},
	"dark":  {"answered": "rgb(79, 191, 140)", "refused": "rgb(232, 180, 72)", "timed_out": "rgb(240, 106, 98)"},
}

// widgetFills is the computed fill of each outcome's rects in each widget
// of the page, by the widget's index and the outcome, with its theme.
const widgetFills = `[...document.querySelectorAll('shed-sim')].map((el) => {
	const root = el.shadowRoot, m = {theme: root.querySelector('.shedsim-root').getAttribute('data-theme')};
	for (const k of ['answered', 'refused', 'timed_out']) {
		const fills = [...new Set([...root.querySelectorAll('rect.' + k)].map(r => getComputedStyle(r).fill))];
		m[k] = fills.join(' ');
	}
	return m;
})`

// fits reports, for each <shed-sim>, how far it or anything in it sticks
// out of the article's column (0 when it fits).
const fits = `(() => {
	const col = document.querySelector('article').getBoundingClientRect();
	const inner = col.right - parseFloat(getComputedStyle(document.querySelector('article')).paddingRight);
	return [...document.querySelectorAll('shed-sim')].map((el) => {
		const r = el.getBoundingClientRect();
		const box = el.shadowRoot.querySelector('.shedsim');
		return {id: el.id, width: r.width, out: Math.max(0, r.right - inner), scroll: Math.max(0, box.scrollWidth - box.clientWidth)};
	});
})()`

type fit struct {
	ID     string  `json:"id"`
	Width  float64 `json:"width"`
	Out    float64 `json:"out"`
	Scroll float64 `json:"scroll"`
}

// screenshot keeps a full-page PNG of the tab under the test's artifact
// directory (go test -artifacts keeps it) and logs where. It is the
// viewport's full width: a page taller than the viewport is laid out that
// wide while the shot is taken (the whole page shows, with no scrollbar),
// and chromedp's FullScreenshot kept only the width beside a scrollbar,
// its right 15 px cut off (which made text seem to run to the screen's
// edge). Blocks the page renders only near the screen (content-visibility:
// auto, style.css) are rendered for the shot, which would show them blank.
func screenshot(tb *tab, t *testing.T, name string) {
	t.Helper()
	tb.do("rendering every block for a screenshot", chromedp.Evaluate[chromedp.Void](`[document, ...[...document.querySelectorAll('shed-sim')].map(e => e.shadowRoot).filter(Boolean)]
		.flatMap(r => [...r.querySelectorAll('*')]).filter(e => getComputedStyle(e).contentVisibility === 'auto').forEach(e => { e.style.contentVisibility = 'visible'; })`))
	png, err := chromedp.Run(tb.ctx, chromedp.Action[[]byte](func(ctx context.Context, tg *chromedp.Target) ([]byte, error) {
		type size struct {
			W float64 `json:"w"`
			H float64 `json:"h"`
		}
		sz, err := chromedp.Evaluate[size](`({w: innerWidth, h: document.documentElement.scrollHeight})`)(ctx, tg)
		if err != nil {
			return nil, err
		}
		yes := true
		r, err := cdp.Call(ctx, tg, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format: page.CaptureScreenshotFormatPng, FromSurface: &yes, CaptureBeyondViewport: &yes,
			Clip: &page.Viewport{Width: sz.W, Height: sz.H, Scale: 1}})
		if err != nil {
			return nil, err
		}
		return r.Data, nil
	}))
	require.NoError(t, err, "a screenshot of %s", name)
	path := filepath.Join(t.ArtifactDir(), name+".png")
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot: %s", path)
}

// viewportShot keeps a PNG of what the tab's viewport shows, as
// screenshot does.
func viewportShot(tb *tab, t *testing.T, name string) {
	t.Helper()
	png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err, "a screenshot of %s", name)
	path := filepath.Join(t.ArtifactDir(), name+".png")
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot: %s", path)
}

// TestEmbedOnAForeignBlog pastes the README's snippets into five blogs on
// another origin than the site (light, dark, a 600 px column, a hostile
// stylesheet, the README's strict CSP) and checks what a reader sees:
// issue 9's "How it is checked".
func TestEmbedOnAForeignBlog(t *testing.T) {
	s := startBrowser(t)
	site := siteServer(t, s, true)
	sn := readmeSnippets(t).at(site.URL)
	host := blogServer(t, sn, append(append([]blog(nil), blogs...), append(kindPages, attributesPage)...))
	origins := []string{site.URL + "/", host.URL + "/"}

	var lightWidget map[string]map[string]string // the light blog's widget's own styles, for the hostile one
	for _, b := range blogs {
		t.Run(b.name, func(t *testing.T) {
			// Before: the same page with nothing pasted in.
			before := s.newTab(t)
			before.do("a 1,280 px viewport", chromedp.EmulateViewport(1280, 900))
			before.do("opening "+b.name+"-before", chromedp.Navigate(host.URL+"/"+b.name+"-before.html"))
			want := eval[map[string]map[string]string](before, hostStyle)
			require.NotEmpty(t, want, "the blog's elements")
			before.close()

			tb := s.newTab(t, recorder, hostRecorder)
			tb.do("a 1,280 px viewport", chromedp.EmulateViewport(1280, 900))
			tb.open(host.URL + "/" + b.name + ".html")
			allWidgetsDone(tb, 2)

			// The engine started once, after the blog had painted.
			counts := eval[struct {
				Instantiated int     `json:"instantiated"`
				GoRuns       int     `json:"goRuns"`
				GoRunMS      float64 `json:"goRunMS"`
			}](tb, `__shedsimTest`)
			assert.Equal(t, 1, counts.Instantiated, "WebAssembly modules instantiated for two widgets")
			assert.Equal(t, 1, counts.GoRuns, "Go runtimes started for two widgets")
			fcp := eval[float64](tb, `(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: -1}).startTime`)
			t.Logf("%s: first contentful paint at %.0f ms, the engine started at %.0f ms", b.name, fcp, counts.GoRunMS)
			assert.Positive(t, fcp, "the blog painted")
			assert.Less(t, fcp, counts.GoRunMS, "the blog paints before the engine starts (first paint %.0f ms, engine %.0f ms)", fcp, counts.GoRunMS)

			// The widgets use their own palette, in the blog's theme.
			for i, f := range eval[[]map[string]string](tb, widgetFills) {
				assert.Equal(t, b.theme, f["theme"], "widget %d's theme on the %s blog", i, b.name)
				for k, colour := range palette[b.theme] {
					if i == 1 && k == "timed_out" {
						continue // the bounded queue's chart may have no timed-out part
					}
					assert.Equal(t, colour, f[k], "widget %d's %s rects", i, k)
				}
			}

			// The blog's elements look as they did before.
			got := eval[map[string]map[string]string](tb, hostStyle)
			for sel, props := range want {
				for p, v := range props {
					assert.Equal(t, v, got[sel][p], "%s's %s on the %s blog, before and after the widgets", sel, p, b.name)
				}
			}

			// Nothing of the blog's reaches the widget's own elements:
			// the hostile blog's widget is styled as the light one's.
			own := eval[map[string]map[string]string](tb, `(() => {
				const root = document.querySelector('shed-sim').shadowRoot, out = {};
				const props = ['fill', 'display', 'background-color', 'border-top-width', 'border-top-style', 'margin-top', 'padding-left',
					'text-transform', 'letter-spacing', 'text-align', 'list-style-type', 'box-sizing', 'line-height'];
				for (const sel of ['.shedsim', 'svg.share-bar', 'rect.answered', 'input', 'h3', '.policy-bars', '.legend li', 'details summary', 'a.open-full']) {
					const e = root.querySelector(sel);
					if (!e) { out[sel] = {missing: 'yes'}; continue; }
					const cs = getComputedStyle(e), m = {};
					for (const p of props) m[p] = cs.getPropertyValue(p);
					out[sel] = m;
				}
				return out;
			})()`)
			switch b.name {
			case "light":
				lightWidget = own
			case "hostile":
				require.NotNil(t, lightWidget, "the light blog ran first")
				for sel, props := range lightWidget {
					for p, v := range props {
						if p == "line-height" {
							continue // in px, after the inherited font size
						}
						assert.Equal(t, v, own[sel][p], "the widget's %s's %s on the hostile blog and the light one", sel, p)
					}
				}
			}

			// The iframe: scrolled to, as a reader does, it loads, posts
			// its height and is resized to it (by the README's lines, or
			// on the strict blog by the loader itself).
			tb.do("scrolling to the iframe", chromedp.Evaluate[chromedp.Void](`document.querySelector('iframe').scrollIntoView()`))
			poll[bool](tb, "the iframe's widget to show its results", `__hostTest.drawn`, `JSON.stringify(__hostTest)`)
			h := poll[float64](tb, "the iframe to be as tall as it says", `(() => {
				const f = document.querySelector('iframe'), hs = __hostTest.heights;
				const last = hs[hs.length - 1];
				return hs.length && last > 300 && Math.abs(parseFloat(getComputedStyle(f).height) - last) < 1 ? last : false;
			})()`, `JSON.stringify({heights: __hostTest.heights, iframe: getComputedStyle(document.querySelector('iframe')).height})`)
			t.Logf("%s: the iframe of frame.html is %.0f px tall (the snippet starts it at %s)", b.name, h, iframeStart)
			// A full-page screenshot does not repaint an iframe from
			// another origin, so the iframe gets a screenshot of its own,
			// of the viewport scrolled to it, once its widget has drawn.
			tb.do("scrolling to the iframe", chromedp.Evaluate[chromedp.Void](`document.querySelector('iframe').scrollIntoView()`))
			viewportShot(tb, t, b.name+"-iframe")
			assert.NotEqual(t, iframeStart, fmt.Sprint(h), "the iframe was resized from its starting height")

			tb.do("back to the top", chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`))
			screenshot(tb, t, b.name)

			// Widgets the blog's own script adds and removes.
			tb.do("adding a planner and removing the chart", chromedp.Evaluate[chromedp.Void](`(() => {
				const p = document.createElement('shed-sim');
				p.setAttribute('kind', 'planner');
				p.id = 'added';
				document.querySelector('#tbl').after(p);
				document.querySelector('#second').remove();
			})()`))
			allWidgetsDone(tb, 2)
			assert.Equal(t, 1, eval[int](tb, `__shedsimTest.goRuns`), "the added widget shares the engine")
			assert.Empty(t, eval[[]any](tb, `__shedsimTest.errors`), "shedsim:error events")

			// Nothing went wrong, nothing went elsewhere.
			assert.Empty(t, eval[[]string](tb, `__hostTest.csp`), "CSP violations on the %s blog", b.name)
			tb.noProblems()
			requests, _, _ := tb.logged()
			var outside []string
			for _, u := range requests {
				// (A blob: URL of the blog's or the iframe's origin is
				// the engine's workers, made in the page: not a request.)
				if !strings.HasPrefix(u, origins[0]) && !strings.HasPrefix(u, origins[1]) && !strings.HasPrefix(u, "data:") &&
					!strings.HasPrefix(u, "blob:"+origins[0]) && !strings.HasPrefix(u, "blob:"+origins[1]) {
					outside = append(outside, u)
				}
			}
			assert.Empty(t, outside, "requests outside the blog's origin and the site's")
			streamed := false
			for _, u := range requests {
				streamed = streamed || u == site.URL+"/sim.wasm"
				assert.NotEqual(t, site.URL+"/sim.wasm.js", u, "the base64 copy is not needed over http with the CORS header")
			}
			assert.True(t, streamed, "sim.wasm is fetched")
			framed := false
			for _, u := range requests {
				framed = framed || strings.HasPrefix(u, site.URL+"/frame.html?")
			}
			assert.True(t, framed, "the iframe's requests are among those checked")
		})
	}

	t.Run("attributes", func(t *testing.T) { testAttributes(t, s, host.URL, site.URL) })

	// Every kind in a post's column and in a sidebar's, on a phone and a
	// laptop.
	for _, b := range kindPages {
		for _, width := range []int64{390, 1280} {
			t.Run(fmt.Sprintf("%s/%d", b.name, width), func(t *testing.T) {
				tb := s.newTab(t, recorder, hostRecorder)
				tb.do(fmt.Sprintf("a %d px viewport", width), chromedp.EmulateViewport(width, 900))
				tb.open(host.URL + "/" + b.name + ".html")
				allWidgetsDone(tb, len(b.widgets)+2) // and the README's sweep and chain
				// The chain's widget draws its services, the entry first.
				poll[bool](tb, "the chain's widget to draw its hops' charts", `!!document.querySelector('shed-sim[hops]').shadowRoot.querySelector('[id$="chain-2-chart"]')`,
					`document.querySelector('shed-sim[hops]').shadowRoot.querySelector('.chain') ? 'a chain box' : 'no chain box'`)
				assert.Equal(t, []string{"checkout (entry)", "payments", "bank"},
					eval[[]string](tb, `[...document.querySelector('shed-sim[hops]').shadowRoot.querySelectorAll('.chain-name')].map(e => e.textContent)`),
					"%s at %d px: the chain's widget draws its services in the order of the calls", b.name, width)
				for _, f := range eval[[]fit](tb, fits) {
					t.Logf("%s at %d px: %s is %.0f px wide", b.name, width, f.ID, f.Width)
					assert.Zero(t, f.Out, "%s sticks out of its column by %v px", f.ID, f.Out)
					assert.Zero(t, f.Scroll, "%s scrolls sideways by %v px", f.ID, f.Scroll)
				}
				assert.LessOrEqual(t, eval[float64](tb, `document.documentElement.scrollWidth - document.documentElement.clientWidth`), 0.0,
					"the blog scrolls sideways")
				assert.Empty(t, eval[[]string](tb, `__hostTest.csp`), "CSP violations")
				assert.Empty(t, eval[[]string](tb, overlappingLabels), "%s at %d px: axis labels that overlap", b.name, width)
				tb.noProblems()
				screenshot(tb, t, fmt.Sprintf("%s-%d", b.name, width))
			})
		}
	}
}

// testAttributes: what an author sets on <shed-sim> does what the README
// says, and what is wrong is a message that names it.
func testAttributes(t *testing.T, s *session, host, site string) {
	tb := s.newTab(t, recorder)
	tb.do("a 1,280 px viewport", chromedp.EmulateViewport(1280, 900))
	tb.open(host + "/attributes.html")
	states := widgetStates(tb, len(attributesPage.widgets))
	type widget struct {
		Theme    string   `json:"theme"`
		Fill     string   `json:"fill"`
		Accent   string   `json:"accent"`
		Href     string   `json:"href"`
		Inputs   []string `json:"inputs"`
		FormShow bool     `json:"formShown"`
		Problem  string   `json:"problem"`
	}
	got := eval[map[string]widget](tb, `(() => { const out = {};
		for (const el of document.querySelectorAll('shed-sim')) {
			const root = el.shadowRoot, a = root.querySelector('a.open-full'), rect = root.querySelector('rect.answered');
			const form = root.querySelector('form');
			out[el.id] = {theme: root.querySelector('.shedsim-root').getAttribute('data-theme'),
				fill: rect ? getComputedStyle(rect).fill : '', accent: a ? getComputedStyle(a).color : '',
				href: a ? a.getAttribute('href') : '',
				inputs: [...root.querySelectorAll('input[type="text"], select')].map(i => i.id),
				formShown: !!form && !!form.offsetParent,
				problem: [...root.querySelectorAll('.shedsim-error:not([hidden])')].map(e => e.textContent.trim()).join(' ')};
		}
		return out; })()`)
	t.Logf("states %q", states)

	assert.Equal(t, "dark", got["dark"].Theme, `theme="dark" on a light blog`)
	assert.Equal(t, palette["dark"]["answered"], got["dark"].Fill, `theme="dark"'s fills`)
	assert.Equal(t, site+"/index.html?sale_rps=200&retries=3", got["dark"].Href, "the link opens the same run in the simulator")
	assert.Empty(t, got["dark"].Inputs, "kind compare has no controls unless it is given some")

	assert.Equal(t, "rgb(27, 94, 32)", got["custom"].Fill, "--shedsim-answered")
	assert.Equal(t, "rgb(123, 31, 162)", got["custom"].Accent, "--shedsim-accent")

	if assert.Len(t, got["bad-controls"].Inputs, 1, "the named control that is a setting") {
		assert.True(t, strings.HasSuffix(got["bad-controls"].Inputs[0], "-in-retries"), "the control is retries: %s", got["bad-controls"].Inputs[0])
	}
	assert.Contains(t, got["bad-controls"].Problem, `"bogus" is not a setting`, "the one that is not is named")

	assert.False(t, got["no-controls"].FormShow, `the lab with controls="none" shows no form`)
	assert.Equal(t, site+"/lab.html?policy=bounded", got["no-controls"].Href, "the lab's link opens the same run in the lab")

	assert.Contains(t, got["bad-theme"].Problem, `theme: "blue" is not a theme`, "a theme that is not one is named")
	assert.Equal(t, "light", got["bad-theme"].Theme, "and the widget follows the blog meanwhile")
	assert.Equal(t, site+"/planner.html?rate_rps=200", got["bad-theme"].Href, "the planner's link opens the same plan in the planner")
	assert.Empty(t, eval[[]any](tb, `__shedsimTest.errors`), "shedsim:error events")
	screenshot(tb, t, "attributes")

	// The blog's own theme switch (a class on <html>) turns the widgets
	// with theme="auto" dark, and leaves theme="dark" as it is.
	tb.do("the blog's night mode", chromedp.Evaluate[chromedp.Void](`document.documentElement.classList.add('night')`))
	poll[bool](tb, "the auto widgets to turn dark", `(() => { const t = (id) => document.getElementById(id).shadowRoot.querySelector('.shedsim-root').getAttribute('data-theme');
		return t('custom') === 'dark' && t('no-controls') === 'dark' && t('dark') === 'dark'; })()`,
		`[...document.querySelectorAll('shed-sim')].map(e => e.id + ' ' + e.shadowRoot.querySelector('.shedsim-root').getAttribute('data-theme')).join(', ')`)
	tb.do("back to day", chromedp.Evaluate[chromedp.Void](`document.documentElement.classList.remove('night')`))
	poll[bool](tb, "the auto widgets to turn light again", `(() => { const t = (id) => document.getElementById(id).shadowRoot.querySelector('.shedsim-root').getAttribute('data-theme');
		return t('custom') === 'light' && t('dark') === 'dark'; })()`, ``)
	tb.noProblems()
}

// TestEmbedUnderAPolicyMissingDirectives: a blog whose policy leaves out
// what the README says to add gets a console error from the loader that
// names what to add, and whatever still can work does: without connect-src
// and style-src the engine starts from the base64 copy (script-src allows
// it), unstyled; without 'wasm-unsafe-eval' nothing can, and each widget
// says so; without frame-src the widgets work and the browser blocks the
// iframe (a frame-src violation, no height posted).
func TestEmbedUnderAPolicyMissingDirectives(t *testing.T) {
	s := startBrowser(t)
	site := siteServer(t, s, true)
	sn := readmeSnippets(t).at(site.URL)
	for _, c := range []struct {
		name, reason string
		without      []string
		named        []string // in the loader's console errors
		widget       string   // in each widget's message
		works        bool     // the widgets show results
	}{
		{"connect-and-style", "sim.wasm's fetch and widget.css are refused; the base64 copy is a script", []string{"connect-src", "style-src"},
			[]string{site.URL + " in connect-src", site.URL + " in style-src"}, "style-src", true},
		{"wasm", "no WebAssembly may compile: nothing to fall back to", []string{"'wasm-unsafe-eval'"},
			[]string{"add 'wasm-unsafe-eval' in script-src"}, "could not start", false},
		{"frame", "the iframe is refused; the widgets need no frame", []string{"frame-src"},
			[]string{site.URL + " in frame-src"}, "done", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, d := range c.without {
				require.Contains(t, sn.CSP, d, "the README's policy has %s", d)
			}
			b := blog{name: "forgetful", column: "720px", theme: "light", csp: true, without: c.without}
			host := blogServer(t, sn, []blog{b})
			tb := s.newTab(t, recorder, hostRecorder)
			tb.do("opening the blog", chromedp.Navigate(host.URL+"/forgetful.html"))
			for i, st := range widgetStates(tb, 2) {
				assert.Contains(t, st, c.widget, "widget %d's message (%s)", i, c.reason)
			}
			if c.works {
				poll[bool](tb, "the widgets' results, unstyled", `[...document.querySelectorAll('shed-sim')].every(e => {
					const s = e.shadowRoot.querySelector('.summary'); return s && s.textContent.trim() && !s.textContent.startsWith('Computing'); })`, ``)
			}
			_, problems, _ := tb.logged()
			for _, want := range c.named {
				named := false
				for _, p := range problems {
					named = named || strings.Contains(p, "shedsim:") && strings.Contains(p, want)
				}
				assert.True(t, named, "a console error says %q (%s); the page logged:\n  %s", want, c.reason, strings.Join(problems, "\n  "))
			}
			if slices.Contains(c.without, "frame-src") {
				// The browser blocks the iframe (it shows nothing of the
				// site): a violation of frame-src, and no height posted.
				tb.do("scrolling to the iframe", chromedp.Evaluate[chromedp.Void](`document.querySelector('iframe').scrollIntoView()`))
				blocked := poll[[]string](tb, "the iframe to be refused", `__hostTest.csp.length ? __hostTest.csp : false`, `JSON.stringify(__hostTest)`)
				assert.Equal(t, []string{"frame-src blocked " + site.URL}, slices.Compact(blocked), "what the policy blocked (a frame of another origin is named by its origin)")
				assert.Empty(t, eval[[]float64](tb, `__hostTest.heights`), "heights posted by a frame that did not load")
				viewportShot(tb, t, "forgetful-frame-src")
			}
		})
	}
}

// TestEmbedFrame: frame.html, what the iframe shows, is one widget with
// its results first and nothing of the site around it, in the theme its
// address names.
func TestEmbedFrame(t *testing.T) {
	s := startBrowser(t)
	site := siteServer(t, s, true)
	tb := s.newTab(t, recorder)
	tb.do("an iframe's 720 px", chromedp.EmulateViewport(720, 640))
	tb.open(site.URL + "/frame.html?kind=compare&sale_rps=200&theme=dark")
	allWidgetsDone(tb, 1)
	got := eval[struct {
		Theme  string   `json:"theme"`
		Site   int      `json:"site"`
		Order  []string `json:"order"`
		Href   string   `json:"href"`
		Scroll float64  `json:"scroll"`
	}](tb, `(() => { const root = document.querySelector('shed-sim').shadowRoot;
		return {theme: root.querySelector('.shedsim-root').getAttribute('data-theme'),
			site: document.querySelectorAll('nav, header, footer, h1').length,
			order: [...root.querySelector('.shedsim').children].filter(e => !e.hidden).map(e => e.tagName.toLowerCase() + '.' + e.className),
			href: root.querySelector('a.open-full').getAttribute('href'),
			scroll: document.documentElement.scrollWidth - document.documentElement.clientWidth};
	})()`)
	assert.Equal(t, "dark", got.Theme, "theme=dark in the address")
	assert.Zero(t, got.Site, "the site's navigation, header, footer and title")
	assert.Equal(t, []string{"section.results"}, got.Order, "what the frame shows: the results, first (kind compare has no controls)")
	assert.Equal(t, site.URL+"/index.html?sale_rps=200", got.Href, "the link opens the same run in the simulator")
	assert.LessOrEqual(t, got.Scroll, 0.0, "the frame scrolls sideways")
	tb.noProblems()
	screenshot(tb, t, "frame-dark")
}

// TestEmbedWithoutCORS: a site served without Access-Control-Allow-Origin
// on sim.wasm (as python3 -m http.server serves it) still draws the
// widgets, from the base64 copy, and the loader says so in one warning
// that names the header and says the widgets work, with no error of its
// own (issue 28, item 8: an author reads red as broken). The browser's
// own red line for the refused fetch, which no script can silence, comes
// on the first visit only: on the next, the loader reads the base64 copy
// without trying sim.wasm, and the console has no error at all.
func TestEmbedWithoutCORS(t *testing.T) {
	s := startBrowser(t)
	site := siteServer(t, s, false)
	sn := readmeSnippets(t).at(site.URL)
	host := blogServer(t, sn, blogs[:1])
	for _, visit := range []string{"first", "next"} {
		t.Run(visit, func(t *testing.T) {
			tb := s.newTab(t, recorder)
			tb.open(host.URL + "/light.html")
			allWidgetsDone(tb, 2)
			requests, problems, warnings := tb.logged()
			assert.Empty(t, problems, "console errors (the widgets work)")
			assert.Contains(t, requests, site.URL+"/sim.wasm.js", "the widgets read the base64 copy")
			var ours []string
			for _, w := range warnings {
				if strings.HasPrefix(w, "shedsim:") {
					ours = append(ours, w)
				}
			}
			// The iframe streams sim.wasm from its own origin, the site's,
			// on every visit; the blog tries on the first only.
			wasm := 0
			for _, u := range requests {
				if u == site.URL+"/sim.wasm" {
					wasm++
				}
			}
			if visit == "first" {
				assert.Equal(t, 2, wasm, "the first visit tries to stream sim.wasm (and the iframe streams it)")
				t.Logf("the browser's own errors on the first visit: %q", tb.browserErrors())
				if assert.Len(t, ours, 1, "one warning from the loader") {
					assert.Contains(t, ours[0], `"Access-Control-Allow-Origin: *"`, "it names the header")
					assert.Contains(t, ours[0], "The widgets still work", "it says they work")
				}
				return
			}
			assert.Equal(t, 1, wasm, "the next visit does not try sim.wasm again (the iframe's own fetch is the one)")
			assert.Empty(t, ours, "no warning on the next visit")
			assert.Empty(t, tb.browserErrors(), "the browser's own errors on the next visit")
		})
	}
}
