//go:build !js

package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fallback is what a <shed-sim> of the page shows before (or without)
// the loader: its box and the text and link inside it, as the reader
// sees them.
type fallback struct {
	Width   float64 `json:"width"`   // the fallback paragraph's, in CSS px
	Height  float64 `json:"height"`  // in CSS px
	Text    string  `json:"text"`    // the element's rendered text (innerText)
	Href    string  `json:"href"`    // the fallback link's address
	Shown   bool    `json:"shown"`   // the fallback paragraph has a box on the page
	Upgrade bool    `json:"upgrade"` // the element has a shadow root
	Open    string  `json:"open"`    // the upgraded widget's own link to the site (a.open-full)
}

const readFallbacks = `[...document.querySelectorAll('shed-sim')].map((el) => {
	const a = el.querySelector('a'), p = el.querySelector('p');
	const r = p ? p.getBoundingClientRect() : {width: 0, height: 0};
	const open = el.shadowRoot && el.shadowRoot.querySelector('a.open-full');
	return {width: r.width, height: r.height, text: el.innerText.trim(), href: a ? a.href : '',
		shown: !!p && p.getClientRects().length > 0, upgrade: !!el.shadowRoot, open: open ? open.href : ''};
})`

// TestEmbedFallbackUnderAStrictPolicy pastes the README's two <shed-sim>
// snippets, read from the README, into a blog whose
// Content-Security-Policy blocks the loader (script-src 'self', as issue
// 28 found on a real blog), and into one whose policy is the README's.
// Blocked, each element shows its sentence and a link, and the link is
// the one the working widget ends with: the same run on the site. Allowed,
// the fallback gives way to the widget.
func TestEmbedFallbackUnderAStrictPolicy(t *testing.T) {
	s := startBrowser(t)
	site := siteServer(t, s, true)
	sn := readmeSnippets(t).at(site.URL)
	loader, widget, ok := strings.Cut(sn.Widget, "\n")
	require.True(t, ok, "the widget snippet is the loader's line, then the element")
	require.Contains(t, loader, "loader.js")
	body := loader + "\n<h2>Every policy</h2>\n" + widget + "\n<h2>Where it flips</h2>\n" + sn.Sweep + "\n"

	mux := http.NewServeMux()
	for _, c := range []struct{ path, csp string }{
		{"/blocked.html", "default-src 'self'; script-src 'self'; style-src 'self'"},
		{"/allowed.html", sn.CSP},
	} {
		mux.HandleFunc(c.path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Security-Policy", c.csp)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>A strict blog</title></head>
<body><article><h1>What overload does to a checkout</h1>
`+body+`<p id="last">That is all.</p></article></body></html>`)
		})
	}
	host := httptest.NewServer(mux)
	t.Cleanup(host.Close)

	// Allowed: the widgets draw, and their own links are what the
	// fallbacks must link to.
	tb := s.newTab(t, recorder, hostRecorder)
	tb.do("a 1,280 px viewport", chromedp.EmulateViewport(1280, 900))
	tb.open(host.URL + "/allowed.html")
	allWidgetsDone(tb, 2)
	upgraded := eval[[]fallback](tb, readFallbacks)
	require.Len(t, upgraded, 2)
	for i, f := range upgraded {
		assert.True(t, f.Upgrade, "widget %d is upgraded", i)
		assert.False(t, f.Shown, "widget %d's fallback gives way to the widget", i)
		assert.NotEmpty(t, f.Open, "widget %d ends with a link to the site", i)
	}
	assert.Empty(t, eval[[]string](tb, `__hostTest.csp`), "CSP violations under the README's policy")
	tb.noProblems()

	// Blocked: the loader never runs; the fallbacks show, with the links.
	for _, width := range []int64{390, 1280} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			tb := s.newTab(t, recorder, hostRecorder)
			tb.do(fmt.Sprintf("a %d px viewport", width), chromedp.EmulateViewport(width, 900))
			tb.do("opening the blocked blog", chromedp.Navigate(host.URL+"/blocked.html"))
			blocked := poll[[]string](tb, "the policy to block the loader", `__hostTest.csp.length ? __hostTest.csp : false`, `JSON.stringify(__hostTest)`)
			assert.Contains(t, blocked, "script-src-elem blocked "+site.URL+"/loader.js", "what the policy blocked")
			got := eval[[]fallback](tb, readFallbacks)
			require.Len(t, got, 2)
			for i, f := range got {
				assert.False(t, f.Upgrade, "widget %d is not upgraded: its loader is blocked", i)
				assert.True(t, f.Shown, "widget %d shows its fallback", i)
				assert.Greater(t, f.Width, float64(width)/2, "widget %d's fallback takes the column's width, not 0 px", i)
				assert.Greater(t, f.Height, 16.0, "widget %d's fallback is a line or more tall", i)
				assert.Contains(t, f.Text, "The load-shedding simulator draws here once its script runs.", "widget %d's sentence", i)
				assert.Equal(t, upgraded[i].Open, f.Href, "widget %d's fallback links to the run the widget would link to", i)
				assert.True(t, strings.HasPrefix(f.Href, site.URL+"/"), "widget %d's link is to the site: %s", i, f.Href)
			}
			assert.Equal(t, "", eval[string](tb, `document.documentElement.getAttribute('data-shedsim') || ''`), "the loader did not run")
			screenshot(tb, t, fmt.Sprintf("strict-blocked-%d", width))
		})
	}
}
