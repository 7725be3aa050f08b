//go:build !js

package browser

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
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
// field and its chart over time (the glance pinned with the headline),
// all inside the viewport, from the first screen on, without scrolling,
// and the charts are tall enough to read. The pinned headline
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

			// The post's order, top to bottom, at every width: each part's
			// top in the page once it is scrolled to (a block of the
			// results far from the screen is not laid out, and holds the
			// place of one of its size: content-visibility, style.css).
			order := []string{"#bars", "#table-box", "#chart-box", "#lines", "#advice-title", "#clients-title"}
			last := 0.0
			for i, sel := range order {
				require.NotEmpty(t, boxOf(tb, sel).ID, "the page has %s", sel)
				tb.do("scrolling to "+sel, chromedp.Evaluate[chromedp.Void](`document.querySelector(`+js(sel)+`).scrollIntoView()`))
				settle(tb)
				top := eval[float64](tb, `document.querySelector(`+js(sel)+`).getBoundingClientRect().top + scrollY`)
				if i > 0 {
					assert.Greater(t, top, last, "%s comes after %s", sel, order[i-1])
				}
				last = top
			}
			tb.do("scrolling back", chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`))
			settle(tb)

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
				require.NotEmpty(t, glance.ID, "the phone's glance")
				assert.True(t, glance.in(), "phone: on load the glance's chart is on the first screen (0..%d px), not at %v..%v", size.height, glance.Top, glance.Bottom)
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
					// The glance does not cover the field.
					pinned := boxOf(tb, "#pinned")
					assert.True(t, field.Bottom <= pinned.Top || field.Top >= pinned.Bottom,
						"phone: the glance (%v..%v) covers focused #%s (%v..%v)", pinned.Top, pinned.Bottom, id, field.Top, field.Bottom)
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

// glanceState is what the phone's glance shows: the headline, the bar's
// parts (class and width, out of 100) and its chart's name, which states
// the run's answered share.
type glanceState struct {
	Headline string `json:"headline"`
	Bar      []struct {
		Kind  string  `json:"kind"`
		Width float64 `json:"width"`
	} `json:"bar"`
	Chart string `json:"chart"`
}

const glanceJS = `(() => ({
	headline: document.querySelector('#summary').textContent,
	bar: [...document.querySelectorAll('#glance-bar rect')].map(r => ({kind: r.getAttribute('class'), width: +r.getAttribute('width')})),
	chart: document.querySelector('#glance-chart').getAttribute('aria-label'),
}))()`

// TestGlanceOnAPhone is issue 28's item 10: at a phone's 390 x 844, a
// reader who changes a field, with the keyboard, sees the new run's
// compact result beside it: its headline, its bar (the sale's people
// answered, refused and timed out) and its chart over time, inside the
// viewport and clear of the field. The glance itself is silent (aria-hidden
// or plain text); the page's one live region announces the committed
// change's headline, once.
func TestGlanceOnAPhone(t *testing.T) {
	s := startBrowser(t)
	tb := s.newTab(t, recorder)
	tb.do("a 390 x 844 viewport", chromedp.EmulateViewport(390, 844))
	tb.open(s.fileURL("index.html"))
	before := tb.summaryOf("#summary", "")
	assert.Zero(t, tb.count(`#pinned [aria-live], #pinned[aria-live], #pinned [role="status"]`), "the glance is no live region")
	assert.Equal(t, 2, tb.count(`#glance[aria-hidden="true"], #glance-bar svg[aria-hidden="true"]`), "its pictures are hidden from screen readers; the headline is their text")

	c := sim.DefaultConfig()
	for _, step := range []struct {
		field, keys string
		set         func(*sim.Config)
	}{
		{"in-policy", kb.ArrowDown + kb.Enter, func(c *sim.Config) { c.Policy = sim.Policies[1] }},
		{"in-retries", "3" + kb.Enter, func(c *sim.Config) { c.Retries = 3 }},
		{"in-duration_s", "600" + kb.Enter, func(c *sim.Config) { c.DurationS = 600 }},
	} {
		step.set(&c)
		r := run(t, c)
		tb.do("focusing #"+step.field, chromedp.Focus(chromedp.CSS("#"+step.field)),
			chromedp.Evaluate[chromedp.Void](`document.activeElement.select && document.activeElement.select()`))
		tb.do("changing #"+step.field, chromedp.SendKeys(chromedp.CSS("#"+step.field), step.keys))
		before = tb.summaryOf("#summary", before)
		g := poll[glanceState](tb, "the glance's chart to follow the run", `(() => { const g = `+glanceJS+`;
			return g.chart === document.querySelector('svg#chart').getAttribute('aria-label') ? g : false; })()`, glanceJS)
		settle(tb)
		field, pinned, bar, chart := boxOf(tb, "#"+step.field), boxOf(tb, "#pinned"), boxOf(tb, "#glance-bar"), boxOf(tb, "#glance-chart")
		assert.True(t, field.in() && pinned.in() && bar.in() && chart.in(), "#%s changed: the field (%v..%v), the glance (%v..%v), its bar and its chart are in the viewport (0..%v)",
			step.field, field.Top, field.Bottom, pinned.Top, pinned.Bottom, pinned.Height)
		assert.LessOrEqual(t, field.Bottom, pinned.Top, "#%s: the glance does not cover the field", step.field)
		assert.GreaterOrEqual(t, chart.Bottom-chart.Top, 60.0, "the chart is tall enough to see the sale's shape")

		// The new run's numbers: the headline, the bar's parts and the
		// chart's statement of the sale's answered share.
		assert.Equal(t, report.Headline(r), g.Headline, "#%s: the glance's headline is the new run's", step.field)
		want := map[string]float64{"answered": r.Sale.AnsweredShare, "refused": r.Sale.RefusedShare, "timed_out": r.Sale.TimedOutShare}
		for _, part := range g.Bar {
			assert.InDelta(t, 100*want[part.Kind], part.Width, 0.001, "#%s: the bar's %s part", step.field, part.Kind)
			delete(want, part.Kind)
		}
		for kind, share := range want {
			assert.Zero(t, share, "#%s: the bar has no %s part, but the run's share is %v", step.field, kind, share)
		}
		assert.Contains(t, g.Chart, report.Percent(r.Sale.AnsweredShare)+" of people were answered", "#%s: the glance's chart is the new run's", step.field)
		poll[bool](tb, "the committed change to be announced", `document.querySelector('#announce').textContent === `+js(report.Headline(r)),
			`document.querySelector('#announce').textContent`)
	}
	viewportShot(tb, t, "phone-glance-light")
	tb.do("a dark colour scheme", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		return err
	}))
	viewportShot(tb, t, "phone-glance-dark")
	tb.noProblems()
}
