//go:build !js

package browser

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

// A4 paper, in inches, as page.PrintToPDF takes it.
const a4W, a4H = 8.27, 11.69

// printPDF prints the tab as Chromium's print dialog does, on A4 without
// the browser's header and footer, keeps the PDF under the test's
// artifact directory and returns it.
func printPDF(tb *tab, t *testing.T, name string) []byte {
	t.Helper()
	pdf, err := chromedp.Run(tb.ctx, chromedp.Action[[]byte](func(ctx context.Context, tg *chromedp.Target) ([]byte, error) {
		r, err := cdp.Call(ctx, tg, page.PrintToPDF, page.PrintToPDFParams{PaperWidth: a4W, PaperHeight: a4H})
		if err != nil {
			return nil, err
		}
		return r.Data, nil
	}))
	require.NoError(t, err, "printing %s", name)
	path := filepath.Join(t.ArtifactDir(), name+".pdf")
	require.NoError(t, os.WriteFile(path, pdf, 0o644))
	t.Logf("pdf: %s", path)
	return pdf
}

// pdfPages counts a PDF's pages: its page objects (Chromium's PDFs keep
// each object's dictionary in the clear).
func pdfPages(pdf []byte) int {
	return len(regexp.MustCompile(`/Type\s*/Page\b`).FindAll(pdf, -1))
}

// printMedia makes the tab lay itself out as it prints (or, with "",
// as on screen).
func printMedia(tb *tab, media string) {
	tb.do("media "+media, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: media})
		return err
	}))
}

// printOverflows lists the boxes of the page (and of every widget) whose
// content runs out of their bottom, where it prints over what follows
// them (the tips table, held to 32rem on screen, under its marks), and
// the marks under a tips table that begin above the table's end.
const printOverflows = `(() => {
	const roots = [document, ...[...document.querySelectorAll('shed-sim')].map(e => e.shadowRoot).filter(Boolean)];
	const out = [];
	for (const root of roots) {
		for (const w of root.querySelectorAll('.table-wrap')) {
			if (w.getClientRects().length && w.scrollHeight > w.clientHeight + 1) out.push((w.querySelector('table') || {}).id + ': ' + w.scrollHeight + ' px of content in ' + w.clientHeight + ' px');
		}
		for (const box of root.querySelectorAll('.tips-table')) {
			const t = box.querySelector('table'), m = box.querySelector('.tips-marks');
			if (t && m && m.getClientRects().length && m.getBoundingClientRect().top < t.getBoundingClientRect().bottom - 0.5) out.push(t.id + ': its marks begin above its end');
		}
	}
	return out;
})()`

// TestPrint prints every page of the site, as a reader's Ctrl+P does, and
// checks the paper (issue 28, item 5): the results and the charts, the
// settings as text, tables collapsed to their summaries, so that the
// simulator's default run is a handful of pages, not 27.
func TestPrint(t *testing.T) {
	s := startBrowser(t)
	for _, c := range []struct {
		name, page, query, reason string
		scripts                   []string
		wait                      func(tb *tab)
		most                      int    // pages
		settings                  string // in the settings printed as text
	}{
		{"simulator", "index.html", "", "the default run: results, charts and settings", nil, waitWhole, 6,
			"Settings: Start from a sample: The sale; Policy: Unbounded queue; Workers: 8; Service time (ms, mean): 80;"},
		{"lab", "lab.html", "", "the lab's recorded runs", nil, waitQuiet, 3, "Settings: Policy: Unbounded queue; Retries: none; Sale: 150/s; Client timeout: 2 s."},
		{"planner", "planner.html", "", "a plan and its table", nil, waitQuiet, 2, "Settings: Arrival rate (requests per s): 120; Mean service time (ms): 45;"},
		{"sweep", "tips.html", tipsSweepQuery, "a sweep: its chart, its table with its values, a row per policy and step", []string{tipsRecorder}, func(tb *tab) { waitTips(tb, "sweeps", 1) }, 2 + len(sim.Policies)/2,
			"Settings: Show: A sweep of one knob; Knob: Sale traffic (sale_rps); From: 100; To: 200; Steps: 5;"},
		{"map", "tips.html", "?kind=map", "a map", []string{tipsRecorder}, func(tb *tab) { waitTips(tb, "maps", 1) }, 3, "Settings: Show: A map of two knobs;"},
		{"embed", "embed.html", "", "the instructions and two widgets, and the table of settings, a row each", nil, waitQuiet, 5 + len(sim.Settings())/25,
			"Settings: Retries (per person): 0; Sale traffic (people per s): 200."},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := s.newTab(t, c.scripts...)
			tb.do("a 1,280 px viewport", chromedp.EmulateViewport(1280, 900))
			tb.open(s.fileURL(c.page) + c.query)
			c.wait(tb)
			// Laid out for paper (A4's 794 CSS px), before the print.
			tb.do("A4's width", chromedp.EmulateViewport(794, 1123))
			printMedia(tb, "print")
			assert.Empty(t, eval[[]string](tb, printOverflows), "%s on paper: boxes whose content runs out of them, over what follows", c.page+c.query)
			assert.Empty(t, eval[[]string](tb, overlappingLabels), "%s on paper: axis labels that overlap", c.page+c.query)
			if c.page == "tips.html" {
				values := eval[[]string](tb, `[...document.querySelectorAll('.tips-table-box tbody button.set')].map(b => b.getClientRects().length ? b.textContent.trim() : '')`)
				require.NotEmpty(t, values, "the table's values")
				for i, v := range values {
					assert.NotEmpty(t, v, "row %d's value prints", i)
				}
			}
			printMedia(tb, "")

			// The settings, as text, for the print only.
			const printed = `(() => { const roots = [document, ...[...document.querySelectorAll('shed-sim')].map(e => e.shadowRoot)];
				return roots.flatMap(r => [...r.querySelectorAll('p.print-settings')].map(p => p.textContent)); })()`
			tb.do("beforeprint", chromedp.Evaluate[chromedp.Void](`dispatchEvent(new Event('beforeprint'))`))
			settings := eval[[]string](tb, printed)
			found := false
			for _, p := range settings {
				found = found || strings.Contains(p, c.settings)
			}
			assert.True(t, found, "%s: the settings print as text, with %q; printed: %q", c.page+c.query, c.settings, settings)
			tb.do("afterprint", chromedp.Evaluate[chromedp.Void](`dispatchEvent(new Event('afterprint'))`))
			assert.Empty(t, eval[[]string](tb, printed), "the settings' text is gone after the print")

			pdf := printPDF(tb, t, c.name)
			n := pdfPages(pdf)
			t.Logf("%s prints on %d A4 pages", c.page+c.query, n)
			assert.LessOrEqual(t, n, c.most, "%s: %s prints on %d pages", c.reason, c.page+c.query, n)
			assert.Positive(t, n)
			tb.noProblems()
		})
	}
}
