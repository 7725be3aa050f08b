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

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// drawnSeries is what the page drew of one of the mechanism's charts.
type drawnSeries struct {
	Found    bool       `json:"found"`
	Paths    []string   `json:"paths"`
	Lengths  []float64  `json:"lengths"`
	Marks    []string   `json:"marks"`
	SaleW    float64    `json:"sale_w"`
	Sentence string     `json:"sentence"`
	Head     []string   `json:"head"`
	Rows     [][]string `json:"rows"`
}

// readSeries reads the chart of id as drawn: its curves, marks, sale,
// sentence and table.
func readSeries(tb *tab, id string) drawnSeries {
	return eval[drawnSeries](tb, `(() => {
		const svg = document.getElementById(`+js(id)+`);
		if (!svg) return {found: false};
		const paths = [...svg.querySelectorAll('path.curve')];
		const sale = svg.querySelector('rect.sale');
		const t = document.getElementById(`+js(id+"-table")+`);
		return {
			found: true,
			paths: paths.map(p => p.getAttribute('d')),
			lengths: paths.map(p => p.getTotalLength()),
			marks: [...svg.querySelectorAll('line.mark')].map(l => l.getAttribute('class')),
			sale_w: sale ? sale.getBBox().width : 0,
			sentence: (document.getElementById(`+js(id+"-sentence")+`) || {}).textContent || '',
			head: t ? [...t.querySelectorAll('thead th')].map(th => th.textContent) : [],
			rows: t ? [...t.querySelectorAll('tbody tr')].map(tr => [...tr.children].map(c => c.textContent)) : [],
		};
	})()`)
}

// TestMechanism: the simulator page draws the chosen policy's mechanism
// from its run's series (issue 10, item 1): the queue as seconds of work,
// finished against answered in time and, when clients retry, the attempts
// against capacity, each with the sale shaded, the curves and marks
// report.BuildMechanism lays out for the same Config natively, its
// sentence and its table, row for row. It keeps screenshots at a phone's
// and a laptop's width, light and dark.
func TestMechanism(t *testing.T) {
	s := startBrowser(t)
	bounded := sim.DefaultConfig()
	bounded.Policy, bounded.Retries = sim.Bounded, 3
	cases := []struct {
		name, query string
		config      sim.Config
		reason      string
	}{
		{"default", "", sim.DefaultConfig(), "the shop's sale, no retries: the queue and the work, no attempts chart"},
		{"bounded-retries", "?policy=bounded&retries=3", bounded, "retries add the attempts chart, and a bounded queue its bound"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.config
			c.SeriesStepS = sim.SeriesStep(c.DurationS)
			m, ok := report.BuildMechanism(run(t, c))
			require.True(t, ok, "the native run has a series")
			charts := map[string]*report.SeriesChart{"mech-queue": &m.Queue, "mech-work": &m.Work, "mech-attempts": m.Attempts}

			tb := s.newTab(t)
			tb.open(s.fileURL("index.html") + tc.query)
			tb.summaryOf("#summary", "")
			poll[bool](tb, "the mechanism's tables", `!!document.querySelector('#mech-work-table tbody tr')`,
				`document.getElementById('mechanism') ? document.getElementById('mechanism').innerHTML.slice(0, 300) : 'no #mechanism'`)
			for _, id := range []string{"mech-queue", "mech-work", "mech-attempts"} {
				want, got := charts[id], readSeries(tb, id)
				if want == nil {
					assert.False(t, got.Found, "%s: no chart when clients do not retry (%s)", id, tc.reason)
					continue
				}
				require.True(t, got.Found, "%s is drawn (%s)", id, tc.reason)
				var paths, marks []string
				for _, cv := range want.Curves {
					paths = append(paths, cv.Path)
				}
				for _, mk := range want.Marks {
					marks = append(marks, "mark "+mk.Kind)
				}
				assert.Equal(t, paths, got.Paths, "%s: the curves, as report.BuildMechanism lays them out", id)
				for i, l := range got.Lengths {
					assert.Greater(t, l, 0.0, "%s: curve %d is a drawn path", id, i)
				}
				assert.Equal(t, marks, got.Marks, "%s: the marks", id)
				assert.Greater(t, got.SaleW, 0.0, "%s: the sale is shaded", id)
				assert.Equal(t, want.Sentence, got.Sentence, "%s: the sentence, as the native report words it", id)
				assert.Equal(t, want.Table.Header, got.Head, "%s: the table's header", id)
				assert.Equal(t, want.Table.Rows, got.Rows, "%s: the table's rows, a step each", id)
			}
			assert.Contains(t, marksOf(tb, "mech-queue"), "mark timeout", "the queue chart marks the timeout")
			if tc.config.Policy == sim.Bounded {
				assert.Contains(t, marksOf(tb, "mech-queue"), "mark bound", "a bounded queue's chart marks its bound")
			}
			// The mechanism comes right after the chart over time.
			assert.True(t, eval[bool](tb, `!!(document.getElementById('chart').compareDocumentPosition(document.getElementById('mechanism')) & Node.DOCUMENT_POSITION_FOLLOWING)`),
				"#mechanism follows #chart")
			tb.noProblems()
			tb.close()
		})
	}

	// Screenshots of the shop's sale with 3 retries (all three charts, the
	// queue past the timeout), light and dark, at a phone's
	// width and a laptop's, for a reader to look at.
	for _, width := range []int64{390, 1280} {
		for _, scheme := range []string{"light", "dark"} {
			tb := s.newTab(t)
			tb.do(fmt.Sprintf("a %d px viewport", width), chromedp.EmulateViewport(width, 2400))
			tb.do(scheme+" colours", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
				return err
			}))
			tb.open(s.fileURL("index.html") + "?retries=3")
			tb.summaryOf("#summary", "")
			poll[bool](tb, "the mechanism's tables", `!!document.querySelector('#mech-attempts-table tbody tr')`, `''`)
			eval[bool](tb, `(() => { document.getElementById('chart').scrollIntoView(); return true; })()`)
			name := fmt.Sprintf("mechanism-%d-%s", width, scheme)
			viewportShot(tb, t, name)
			tb.noProblems()
			tb.close()
		}
	}
}

// marksOf is the classes of the marks on the chart of id.
func marksOf(tb *tab, id string) []string {
	return eval[[]string](tb, `[...document.querySelectorAll('#`+id+` line.mark')].map(l => l.getAttribute('class'))`)
}
