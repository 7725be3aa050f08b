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

// frameRecorder keeps every message an iframe of frame.html posts to the
// page, in window.__frame.
const frameRecorder = `(() => {
	const r = window.__frame = [];
	window.addEventListener('message', (e) => { if (e.data && e.data.shedsim === 'height') r.push({height: e.data.height, drawn: e.data.drawn, theme: e.data.theme}); });
})();`

type frameMessage struct {
	Height float64 `json:"height"`
	Drawn  bool    `json:"drawn"`
	Theme  string  `json:"theme"`
}

// TestEmbedIframeOnADarkBlog pastes the README's iframe into a dark blog,
// with the README's resizing lines or with the loader, both read from the
// README (issue 28, item 7): the frame, which cannot see the blog, takes
// its dark theme from either, and it posts its height only once it shows
// its results, so that the blog's iframe keeps its starting height while
// it loads and grows once, not to a loading line's 82 px and back.
func TestEmbedIframeOnADarkBlog(t *testing.T) {
	s := startBrowser(t)
	site := siteServer(t, s, true)
	sn := readmeSnippets(t).at(site.URL)
	loader, _, _ := strings.Cut(sn.Widget, "\n")
	mux := http.NewServeMux()
	for _, c := range []struct{ path, with string }{
		{"/lines.html", sn.Resize},
		{"/loader.html", loader},
	} {
		mux.HandleFunc(c.path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A dark blog</title>
<style>body { background: #121417; color: #dddddd; font: 18px/1.6 Georgia, serif; } article { max-width: 720px; margin: 0 auto; }</style></head>
<body><article><h1>A dark blog</h1>
`+sn.Iframe+"\n"+c.with+`
<p>That is all.</p></article></body></html>`)
		})
	}
	host := httptest.NewServer(mux)
	t.Cleanup(host.Close)
	start := iframeStart
	for _, page := range []string{"lines", "loader"} {
		t.Run(page, func(t *testing.T) {
			tb := s.newTab(t, recorder, frameRecorder)
			tb.do("a 1,280 px viewport", chromedp.EmulateViewport(1280, 900))
			tb.do("opening the dark blog", chromedp.Navigate(host.URL+"/"+page+".html"))
			got := poll[[]frameMessage](tb, "the frame to be dark and its height set", `(() => {
				const m = window.__frame, last = m[m.length - 1];
				return last && last.theme === 'dark' && Math.abs(parseFloat(getComputedStyle(document.querySelector('iframe')).height) - last.height) < 1 ? m : false;
			})()`, `JSON.stringify(window.__frame)`)
			require.NotEmpty(t, got)
			assert.True(t, got[0].Drawn, "the first height posted is of the results, not of a loading line: %v", got)
			for _, m := range got {
				assert.Equal(t, got[0].Height, m.Height, "the iframe grows once, from %s px: %v", start, got)
			}
			assert.NotEqual(t, start, fmt.Sprint(got[0].Height), "the iframe takes the frame's height")
			assert.Equal(t, "dark", got[len(got)-1].Theme, "the frame's widget is dark on a dark blog")
			tb.noProblems()
			viewportShot(tb, t, "dark-blog-iframe-"+page)
		})
	}
}
