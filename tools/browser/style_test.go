//go:build !js

package browser

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// schemes reads widget.css's colour tokens, each a light-dark() pair of
// #rrggbb values (behind the author's custom property, if it has one):
// the light scheme's and the dark one's. Print keeps the light scheme.
func schemes(t *testing.T, css string) (light, dark map[string]string) {
	t.Helper()
	token := regexp.MustCompile(`--([\w-]+):\s*(?:var\(--shedsim-[\w-]+,\s*)?light-dark\((#[0-9a-fA-F]{6}),\s*(#[0-9a-fA-F]{6})\)\)?\s*;`)
	i := strings.Index(css, ":root, .shedsim-root {")
	require.GreaterOrEqual(t, i, 0, "widget.css has the colours' block")
	block := css[i : i+strings.Index(css[i:], "\n}")]
	light, dark = map[string]string{}, map[string]string{}
	for _, m := range token.FindAllStringSubmatch(block, -1) {
		light[m[1]], dark[m[1]] = strings.ToLower(m[2]), strings.ToLower(m[3])
	}
	require.NotEmpty(t, light, "colour tokens in widget.css")
	return light, dark
}

// luminance is a #rrggbb colour's relative luminance (WCAG 2).
func luminance(hex string) float64 {
	var l float64
	for i, w := range []float64{0.2126, 0.7152, 0.0722} {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c := float64(v) / 255
		if c <= 0.04045 {
			c /= 12.92
		} else {
			c = math.Pow((c+0.055)/1.055, 2.4)
		}
		l += float64(w * c)
	}
	return l
}

// contrast is WCAG 2's contrast ratio of two #rrggbb colours.
func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// TestStyleContrast holds widget.css's colours to WCAG AA in both colour
// schemes: 4.5:1 for text (1.4.3), 3:1 for the focus ring and the sale's
// mark under the chart (1.4.11). It needs no browser.
func TestStyleContrast(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "site", "widget.css"))
	require.NoError(t, err)
	css := string(b)
	light, dark := schemes(t, css)

	type pair struct{ fg, bg string }
	text := []pair{
		{"fg", "bg"}, {"fg", "panel"}, {"fg", "chosen"},
		{"muted", "bg"}, {"muted", "panel"}, {"muted", "chosen"},
		{"accent", "bg"}, {"accent", "panel"}, {"accent-fg", "accent"},
		{"bad", "bg"}, {"bad", "panel"}, {"bad", "bad-bg"},
		{"amber-text", "bg"},     // tr.in-sale th, .verdict-backlog strong
		{"answered-text", "bg"},  // .verdict-normal strong
		{"timed-out-text", "bg"}, // .verdict-stuck strong
	}
	// The ring is --focus outside a 2px ring of --bg: the outer ring meets
	// the page and the panel, the inner one the control.
	ring := []pair{{"focus", "bg"}, {"focus", "panel"}, {"bg", "accent"}}
	for _, s := range []struct {
		name   string
		colour map[string]string
	}{{"light", light}, {"dark", dark}} {
		check := func(p pair, least float64, what string) {
			fg, okF := s.colour[p.fg]
			bg, okB := s.colour[p.bg]
			if !assert.True(t, okF && okB, "%s: widget.css defines --%s and --%s", s.name, p.fg, p.bg) {
				return
			}
			r := contrast(fg, bg)
			t.Logf("%-5s %-8s --%s %s on --%s %s: %.2f:1", s.name, what, p.fg, fg, p.bg, bg, r)
			assert.GreaterOrEqual(t, r, least, "%s: %s --%s on --%s", s.name, what, p.fg, p.bg)
		}
		for _, p := range text {
			check(p, 4.5, "text")
		}
		for _, p := range ring {
			check(p, 3, "focus")
		}
		check(pair{"amber-text", "plot"}, 3, "mark") // rect.sale-mark, under the chart's axis
	}

	// The chart's fills (--refused, 2.4:1 on the light page) are for
	// fills only: text in amber is --amber-text. The outcomes' fills are
	// the author's to change (--shedsim-answered ...), so no text uses
	// them: text in their hues is --answered-text and --timed-out-text.
	for _, fill := range []string{"answered", "refused", "timed_out", "sale", "unfinished", "retry", "grid"} {
		used := regexp.MustCompile(`(^|[;{\s])color:\s*var\(--` + fill + `\)`).FindString(css)
		assert.Empty(t, used, "--%s is a fill, not a text colour", fill)
	}
	for _, rule := range []string{":focus-visible {", ".seg-options input:focus-visible + label {"} {
		i := strings.Index(css, rule)
		if assert.GreaterOrEqual(t, i, 0, "widget.css has %q", rule) {
			body := css[i : i+strings.Index(css[i:], "}")]
			assert.Contains(t, body, "outline: 3px solid var(--focus)", rule)
			assert.Contains(t, body, "box-shadow: 0 0 0 2px var(--bg)", rule)
		}
	}
}
