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

// schemes reads style.css's colour tokens: the light scheme's (the first
// :root) and the dark one's (the light ones, overridden by the :root in
// @media screen and (prefers-color-scheme: dark), for screens only: print
// keeps the light scheme). Only #rrggbb values are read.
func schemes(t *testing.T, css string) (light, dark map[string]string) {
	t.Helper()
	token := regexp.MustCompile(`--([\w-]+):\s*(#[0-9a-fA-F]{6})\s*;`)
	read := func(block string, into map[string]string) {
		for _, m := range token.FindAllStringSubmatch(block, -1) {
			into[m[1]] = strings.ToLower(m[2])
		}
	}
	block := func(from string) string {
		i := strings.Index(css, from)
		require.GreaterOrEqual(t, i, 0, "style.css has %q", from)
		rest := css[i:]
		open := strings.Index(rest, ":root {")
		require.GreaterOrEqual(t, open, 0, "a :root block after %q", from)
		end := strings.Index(rest[open:], "}")
		require.GreaterOrEqual(t, end, 0)
		return rest[open : open+end]
	}
	light, dark = map[string]string{}, map[string]string{}
	read(block(":root {"), light)
	for k, v := range light {
		dark[k] = v
	}
	read(block("@media screen and (prefers-color-scheme: dark)"), dark)
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

// TestStyleContrast holds style.css's colours to WCAG AA in both colour
// schemes: 4.5:1 for text (1.4.3), 3:1 for the focus ring and the sale's
// mark under the chart (1.4.11). It needs no browser.
func TestStyleContrast(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "site", "style.css"))
	require.NoError(t, err)
	css := string(b)
	light, dark := schemes(t, css)

	type pair struct{ fg, bg string }
	text := []pair{
		{"fg", "bg"}, {"fg", "panel"}, {"fg", "chosen"},
		{"muted", "bg"}, {"muted", "panel"}, {"muted", "chosen"},
		{"accent", "bg"}, {"accent", "panel"}, {"accent-fg", "accent"},
		{"bad", "bg"}, {"bad", "panel"}, {"bad", "bad-bg"},
		{"amber-text", "bg"}, // tr.in-sale th, .verdict-backlog strong
		{"answered", "bg"},   // .verdict-normal strong
		{"timed_out", "bg"},  // .verdict-stuck strong
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
			if !assert.True(t, okF && okB, "%s: style.css defines --%s and --%s", s.name, p.fg, p.bg) {
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
	// fills only: text in amber is --amber-text.
	for _, fill := range []string{"refused", "sale", "unfinished", "retry", "grid"} {
		used := regexp.MustCompile(`(^|[;{\s])color:\s*var\(--` + fill + `\)`).FindString(css)
		assert.Empty(t, used, "--%s is a fill, not a text colour", fill)
	}
	for _, rule := range []string{":focus-visible {", ".seg-options input:focus-visible + label {"} {
		i := strings.Index(css, rule)
		if assert.GreaterOrEqual(t, i, 0, "style.css has %q", rule) {
			body := css[i : i+strings.Index(css[i:], "}")]
			assert.Contains(t, body, "outline: 3px solid var(--focus)", rule)
			assert.Contains(t, body, "box-shadow: 0 0 0 2px var(--bg)", rule)
		}
	}
}
