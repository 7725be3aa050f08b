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

// box is an element's getBoundingClientRect, and the viewport's height.
type box struct {
	ID     string  `json:"id"`
	Top    float64 `json:"top"`
	Bottom float64 `json:"bottom"`
	Height float64 `json:"height"` // the viewport's (innerHeight)
	Text   string  `json:"text"`
}

// in reports whether b lies wholly inside the viewport, to half a pixel
// (layout rounds to a sixty-fourth of one).
func (b box) in() bool { return b.Top >= -0.5 && b.Bottom <= b.Height+0.5 }

// boxOf is the box of the element sel selects (ID "" if none).
func boxOf(tb *tab, sel string) box {
	tb.tb.Helper()
	return eval[box](tb, `(() => { const e = document.querySelector(`+js(sel)+`); if (!e) return {id: ''};
		const r = e.getBoundingClientRect();
		return {id: e.id, top: r.top, bottom: r.bottom, height: innerHeight, text: e.textContent.trim()}; })()`)
}

// settle waits two animation frames, for the scroll that focusing makes.
func settle(tb *tab) {
	tb.tb.Helper()
	tb.do("asking for two frames", chromedp.Evaluate[chromedp.Void](`window.__frames = 0; requestAnimationFrame(() => requestAnimationFrame(() => { window.__frames = 2; }))`))
	poll[bool](tb, "two frames", `window.__frames === 2`, `window.__frames`)
}

// lastFieldJS is the id of the form's last field a reader can reach
// without opening anything (not in a closed <details>).
const lastFieldJS = `[...document.querySelectorAll('#sim-form input, #sim-form select')]
	.filter(e => e.getClientRects().length > 0 && !e.closest('details:not([open])')).pop().id`

// TestCauseAndEffectOnOneScreen is issue 10's item 2: at a phone's width
// (390 x 844) and a laptop's (1,280 x 800), a reader who focuses a field
// (the first, Retries, the last) sees the chosen policy's headline, the
// field and, on the laptop, its chart over time (the glance pinned with
// the headline), all inside the viewport, from the first screen on,
// without scrolling; on the phone the first screen already holds the
// headline, and the charts are tall enough to read. The pinned headline
// covers no chart scrolled to. The results follow the post's order: the
// bars, the table, the chart over time and its two lines, what to change,
// and the clients' comparison after. It keeps screenshots of both widths,
// light and dark.
func TestCauseAndEffectOnOneScreen(t *testing.T) {
	s := startBrowser(t)
	for _, size := range []struct {
		name          string
		width, height int64
		laptop        bool
	}{
		{"phone", 390, 844, false},
		{"laptop", 1280, 800, true},
	} {
		t.Run(size.name, func(t *testing.T) {
			tb := s.newTab(t)
			tb.do(fmt.Sprintf("a %d x %d viewport", size.width, size.height), chromedp.EmulateViewport(size.width, size.height))
			tb.open(s.fileURL("index.html"))
			headline := tb.summaryOf("#summary", "")
			viewportShot(tb, t, size.name+"-first-screen")

			// The post's order, top to bottom, at every width.
			order := []string{"#bars", "#table-box", "#chart-box", "#lines", "#advice-title", "#clients-title"}
			var last box
			for i, sel := range order {
				b := boxOf(tb, sel)
				require.NotEmpty(t, b.ID, "the page has %s", sel)
				if i > 0 {
					assert.Greater(t, b.Top, last.Top, "%s comes after %s", sel, order[i-1])
				}
				last = b
			}

			// The first screen, on load, holds a result: the headline, and
			// on the laptop the chosen policy's chart over time.
			b := boxOf(tb, "#summary")
			assert.Equal(t, headline, b.Text)
			assert.True(t, b.in(), "on load the headline is on the first screen (0..%d px), not at %v..%v", size.height, b.Top, b.Bottom)
			glance := boxOf(tb, "#glance-chart")
			if size.laptop {
				require.NotEmpty(t, glance.ID, "the laptop's pinned chart")
				assert.True(t, glance.in(), "laptop: on load the chart over time is on the first screen (0..%d px), not at %v..%v", size.height, glance.Top, glance.Bottom)
				assert.GreaterOrEqual(t, glance.Bottom-glance.Top, 100.0, "laptop: the pinned chart is %v px tall", glance.Bottom-glance.Top)
				assert.Equal(t, eval[int](tb, `document.querySelectorAll('svg#chart g.bar').length`), eval[int](tb, `document.querySelectorAll('svg#glance-chart g.bar').length`),
					"the pinned chart is the chart over time")
			} else {
				assert.Equal(t, 0.0, glance.Bottom-glance.Top, "phone: no pinned chart, which would cover the fields")
			}
			// Readable charts: at least 180 px tall, with labels of 11 px
			// or more, at either width.
			for _, sel := range []string{"svg#chart", "svg#mech-queue"} {
				c := boxOf(tb, sel)
				require.NotEmpty(t, c.ID, "the page has %s", sel)
				assert.GreaterOrEqual(t, c.Bottom-c.Top, 180.0, "%s: %s is %v px tall", size.name, sel, c.Bottom-c.Top)
				font := eval[float64](tb, `parseFloat(getComputedStyle(document.querySelector(`+js(sel+" text.tick")+`)).fontSize) * document.querySelector(`+js(sel)+`).getScreenCTM().d`)
				assert.GreaterOrEqual(t, font, 11.0, "%s: %s's labels are %v px", size.name, sel, font)
			}
			scrolled := eval[float64](tb, `scrollY`)

			lastField := eval[string](tb, lastFieldJS)
			require.NotEqual(t, "in-retries", lastField)
			for _, id := range []string{"in-sample", "in-retries", lastField} {
				tb.do("focusing #"+id, chromedp.Focus(chromedp.CSS("#"+id)))
				// Let the scroll that focusing makes settle.
				settle(tb)
				field, summary := boxOf(tb, "#"+id), boxOf(tb, "#summary")
				assert.True(t, field.in(), "%s: focused #%s is in the viewport: %v..%v of %v", size.name, id, field.Top, field.Bottom, field.Height)
				assert.True(t, summary.in(), "%s, #%s focused: the headline is in the viewport: %v..%v of %v", size.name, id, summary.Top, summary.Bottom, summary.Height)
				assert.Equal(t, headline, summary.Text, "the headline on show is the chosen policy's")
				if size.laptop {
					chart := boxOf(tb, "#glance-chart")
					assert.True(t, chart.in(), "laptop, #%s focused: the chart over time is in the viewport: %v..%v of %v (the page scrolled %v px)", id, chart.Top, chart.Bottom, chart.Height, eval[float64](tb, `scrollY`)-scrolled)
				} else {
					// The headline's bar does not cover the field.
					assert.True(t, field.Bottom <= summary.Top || field.Top >= summary.Bottom,
						"phone: the headline (%v..%v) covers focused #%s (%v..%v)", summary.Top, summary.Bottom, id, field.Top, field.Bottom)
				}
			}

			// Editing Retries: the headline changes and stays in view.
			tb.typeInto("#in-retries", "3")
			changed := tb.summaryOf("#summary", headline)
			summary, field := boxOf(tb, "#summary"), boxOf(tb, "#in-retries")
			assert.NotEqual(t, headline, changed)
			assert.True(t, summary.in() && field.in(), "%s: after typing into Retries its field (%v..%v) and the new headline (%v..%v) are in view", size.name, field.Top, field.Bottom, summary.Top, summary.Bottom)
			if size.laptop {
				assert.True(t, boxOf(tb, "#glance-chart").in(), "laptop: the chart over time is in view after typing into Retries")
			}
			viewportShot(tb, t, size.name+"-light")
			if size.laptop {
				// A chart scrolled to (as a link's #fragment or a screen
				// reader's move would) shows whole, below the pinned
				// headline and chart.
				for _, sel := range []string{"#chart", "#mech-queue"} {
					tb.do("scrolling to "+sel, chromedp.Evaluate[chromedp.Void](`document.querySelector(`+js(sel)+`).scrollIntoView()`))
					settle(tb)
					pinned, c := boxOf(tb, "#pinned"), boxOf(tb, sel)
					assert.GreaterOrEqual(t, c.Top, pinned.Bottom-0.5, "laptop: the pinned headline (to %v px) covers the top of %s (from %v px)", pinned.Bottom, sel, c.Top)
				}
				viewportShot(tb, t, size.name+"-scrolled")
				tb.do("scrolling back", chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`))
			}
			tb.do("a dark colour scheme", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
				return err
			}))
			viewportShot(tb, t, size.name+"-dark")
			tb.noProblems()
		})
	}
}
