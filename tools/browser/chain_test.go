//go:build !js

package browser

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chainHops is a checkout's chain (tools/shedsim/samples/chain.txt):
// payments, then a bank too small for the sale, each behind a proxy that
// retries once.
const chainHops = "payments: workers=16 service_ms=30 timeout_ms=1500 per_try_timeout_ms=700 retries=1 backoff=envoy backoff_base_ms=25 backoff_max_ms=250\n" +
	"bank: workers=6 service_ms=60 timeout_ms=600 per_try_timeout_ms=250 retries=1 backoff=envoy backoff_base_ms=25 backoff_max_ms=250"

// chainBox is a chain's box on screen.
type chainBox struct {
	Top   float64 `json:"top"`
	Left  float64 `json:"left"`
	Right float64 `json:"right"`
	Text  string  `json:"text"`
}

// TestChainOnThePage: a chain in the address is drawn under the chosen
// run's chart, at a laptop's width and a phone's: its services as boxes
// in the order of the calls, a row on the laptop and a column on the
// phone, inside the screen; a list named by its heading, whose items read
// as words; the chain's table and lines; and each hop's chart over time.
// The hops' field says which way the calls go and lists them; a line that
// does not read is named, with its line, and the list goes. On paper the
// boxes stay a row and the table fits the page. Screenshots of both
// widths and of the print.
func TestChainOnThePage(t *testing.T) {
	s := startBrowser(t)
	q := url.Values{"workers": {"24"}, "service_ms": {"20"}, "hops": {chainHops}}
	for _, size := range []struct {
		name          string
		width, height int64
		row           bool
	}{
		{"laptop", 1280, 800, true},
		{"phone", 390, 844, false},
	} {
		t.Run(size.name, func(t *testing.T) {
			tb := s.newTab(t)
			tb.do(fmt.Sprintf("a %d x %d viewport", size.width, size.height), chromedp.EmulateViewport(size.width, size.height))
			tb.open(s.fileURL("index.html") + "?" + q.Encode())
			tb.summaryOf("#summary", "")
			waitChain(tb)
			boxes := eval[[]chainBox](tb, `[...document.querySelectorAll('#chain .chain-boxes > li')].map(e => {
				const r = e.getBoundingClientRect(); return {top: r.top, left: r.left, right: r.right, text: [...e.children].map(c => c.textContent).join(' ')}; })`)
			require.Len(t, boxes, 3, "a box a service")
			assert.Contains(t, boxes[0].Text, "checkout (entry) 24 workers, 1,200/s")
			assert.Contains(t, boxes[1].Text, "payments 16 workers, 533.3/s")
			assert.Contains(t, boxes[2].Text, "bank 6 workers, 100/s")
			assert.Contains(t, boxes[2].Text, "×2: 1 retry the bottleneck", "the bank's multiplier, and the bottleneck named in words")
			width := eval[float64](tb, `document.documentElement.clientWidth`)
			for i, b := range boxes {
				assert.LessOrEqual(t, b.Right, width+0.5, "box %d inside the screen", i)
				if i == 0 {
					continue
				}
				if size.row {
					assert.InDelta(t, boxes[0].Top, b.Top, 0.5, "a row on a laptop")
					assert.Greater(t, b.Left, boxes[i-1].Right, "each to the right of the one that calls it, an arrow between")
				} else {
					assert.InDelta(t, boxes[0].Left, b.Left, 0.5, "a column on a phone")
					assert.Greater(t, b.Top, boxes[i-1].Top+20, "each under the one that calls it, an arrow between")
				}
			}
			assert.Equal(t, "The chain, with the unbounded queue at the entry",
				eval[string](tb, `document.getElementById(document.querySelector('#chain ol').getAttribute('aria-labelledby')).textContent`),
				"the list is named by its heading")
			assert.Equal(t, "", eval[string](tb, `getComputedStyle(document.querySelector('#chain li + li'), '::before').content.split(' / ')[1].replace(/"/g, '')`),
				"the arrows are drawn, not read")
			assert.Contains(t, eval[string](tb, `document.querySelector('#chain-bottleneck').textContent`), "Bottleneck: bank:")
			assert.Equal(t, 3, eval[int](tb, `document.querySelectorAll('#chain-table tbody tr').length`), "the chain's table, a row a service")
			assert.Equal(t, "Calls to bank over time", eval[string](tb, `document.querySelector('#chain-2 h4').textContent`))
			assert.Positive(t, eval[int](tb, `document.querySelectorAll('#chain-2-chart g.bar').length`), "the bank's chart has its bars")
			screenshot(tb, t, size.name+"-chain")
			t.Logf("the chain is from %v px down the page", eval[[]float64](tb, `(() => { const r = document.querySelector('#chain').getBoundingClientRect(); return [r.top + scrollY, r.bottom + scrollY]; })()`))

			if size.row { // on paper, A4's 794 CSS px: a row still, nothing out of its box or off the page
				tb.do("A4's width", chromedp.EmulateViewport(794, 1123))
				printMedia(tb, "print")
				assert.Empty(t, eval[[]string](tb, printOverflows), "on paper: boxes whose content runs out of them")
				printed := eval[[]chainBox](tb, `[...document.querySelectorAll('#chain .chain-boxes > li, #chain-table')].map(e => {
					const r = e.getBoundingClientRect(); return {top: r.top, left: r.left, right: r.right}; })`)
				for i, b := range printed {
					assert.LessOrEqual(t, b.Right, 794.5, "on paper, box %d (the last is the table) inside the page", i)
				}
				assert.InDelta(t, printed[0].Top, printed[2].Top, 0.5, "on paper, a row")
				screenshot(tb, t, "print-chain")
				t.Logf("on paper, the chain is from %v px down the page", eval[[]float64](tb, `(() => { const r = document.querySelector('#chain').getBoundingClientRect(); return [r.top + scrollY, r.bottom + scrollY]; })()`))
				printMedia(tb, "")
				tb.do("the laptop's viewport again", chromedp.EmulateViewport(size.width, size.height))
			}

			// The field: which way the calls go, and the hops in words.
			assert.Equal(t, "The calls go checkout (entry), then payments, then bank; the results draw the chain under the chart.",
				eval[string](tb, `document.querySelector('#hint-hops').textContent`))
			assert.Equal(t, 2, eval[int](tb, `document.querySelectorAll('#preview-hops li').length`), "a hop an item")
			if !size.row {
				return
			}
			tb.do("typing a hop that does not read", chromedp.Evaluate[chromedp.Void](`(() => {
				const f = document.querySelector('#in-hops');
				f.value = 'payments: workers=16 service_ms=30 timeout_ms=1500\nbank: workers=x';
				f.dispatchEvent(new Event('input', {bubbles: true})); })()`))
			msg := poll[string](tb, "the hops' field to name the line", `(() => { const m = document.querySelector('#err-hops');
				return m && !m.hidden && m.textContent; })()`, `document.querySelector('#err-hops').outerHTML`)
			assert.Contains(t, msg, "line 2, column 1: hop 2 (bank): workers: x is not a whole number")
			assert.Equal(t, 0, eval[int](tb, `document.querySelectorAll('#preview-hops li').length`), "nothing listed while it does not read")
			assert.Contains(t, eval[string](tb, `document.querySelector('#in-hops').value`), "bank: workers=x", "what was typed is kept")
			_, problems, _ := tb.logged()
			assert.Empty(t, problems, "nothing logged an error")
		})
	}
}
