//go:build !(js && wasm)

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/wasm/markup"
)

// TestIndexIsPrerendered holds site/index.html to what the page's markup
// code writes for the default run now: a change to the form, the bars,
// the tables or the chart, or to the engine's numbers, is a change to the
// page's HTML too.
func TestIndexIsPrerendered(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "site", "index.html"))
	require.NoError(t, err)
	block, err := prerenderedBlock()
	require.NoError(t, err)
	want, err := prerenderInto(string(page), block)
	require.NoError(t, err)
	if want != string(page) {
		t.Fatal("site/index.html is not what the page draws for the default run now: run go run ./wasm -prerender site/index.html, and commit it")
	}
}

// TestPrerenderedBlock checks what the block says against the engine's
// own numbers, and that it is a page that reads without JavaScript.
func TestPrerenderedBlock(t *testing.T) {
	block, err := prerenderedBlock()
	require.NoError(t, err)
	c := sim.DefaultConfig()
	r, err := sim.Run(c)
	require.NoError(t, err)
	for _, tc := range []struct {
		want, reason string
	}{
		{`<p class="summary" id="summary">` + escaped(report.Headline(r)) + `</p>`, "the headline is the default run's"},
		{`<li class="policy-bar chosen" data-policy="fifo">`, "the default policy's bar is the reader's"},
		{`<tr data-policy="fifo" class="chosen" aria-current="true">`, "and so is its row of the table"},
		{`<svg id="chart" class="timeline"`, "the chart over time is drawn"},
		{`<div class="pinned" id="pinned"><p class="summary" id="summary">`, "the headline is pinned (style.css)"},
		{`</p><div class="glance" id="glance" aria-hidden="true"><svg id="glance-chart" class="timeline"`, "with the chart again, the glance"},
		{`<table id="chart-table" class="windows">`, "with its table"},
		{`<option value="fifo" selected="">`, "the form shows the default policy"},
		{`<input id="in-workers" name="workers" type="text" inputmode="numeric" autocomplete="off" spellcheck="false" class="num" value="8">`, "and its numbers"},
		{`<button type="submit" id="run" disabled="">Run</button>`, "Run does nothing without JavaScript (the loader enables it)"},
		{`<noscript><p class="field-hint">The simulator runs your numbers in the browser, with JavaScript`, "the form says why"},
		{`<p class="engine-loading" id="engine-loading" role="status" hidden=""></p>`, "a line for the loader's progress"},
	} {
		assert.Contains(t, block, tc.want, tc.reason)
	}
	assert.Equal(t, 2*len(r.Windows), strings.Count(block, `<g class="bar">`), "a bar a window on the chart, and on the glance")
}

func escaped(s string) string {
	var m markup.Markup
	m.Text(s)
	return m.String()
}

// TestREADMEPrerender runs the command the README gives for the
// prerender, on a copy of site/index.html with its block emptied: it
// writes the page as committed.
func TestREADMEPrerender(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	require.NoError(t, err)
	var args []string
	for _, line := range strings.Split(string(readme), "\n") {
		if cmd, ok := strings.CutPrefix(line, "go run ./wasm "); ok {
			cmd, _, _ = strings.Cut(cmd, "#")
			args = strings.Fields(cmd)
		}
	}
	require.Equal(t, []string{"-prerender", "site/index.html"}, args, "the README's prerender command")
	page, err := os.ReadFile(filepath.Join("..", args[1]))
	require.NoError(t, err)
	empty, err := prerenderInto(string(page), "")
	require.NoError(t, err)
	dir := t.TempDir()
	path := filepath.Join(dir, "index.html")
	require.NoError(t, os.WriteFile(path, []byte(empty), 0o644))
	committed := map[string]string{}
	for _, g := range generatedCopies { // the files beside it, their blocks emptied
		text, err := os.ReadFile(filepath.Join("..", "site", g.file))
		require.NoError(t, err)
		committed[g.file] = string(text)
		emptied, err := replaceBetween(string(text), g.start, g.end, "")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, g.file), []byte(emptied), 0o644))
	}
	require.NoError(t, run([]string{args[0], path}))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(page), string(got), "the command writes the committed page")
	for file, want := range committed {
		got, err := os.ReadFile(filepath.Join(dir, file))
		require.NoError(t, err)
		assert.True(t, want == string(got), "the command writes the committed %s", file)
	}

	assert.Error(t, run(nil), "no arguments: what to run instead")
	assert.Error(t, run([]string{"-prerender", filepath.Join(t.TempDir(), "missing.html")}), "a page that is not there")
}

// TestPrerenderIntoNeedsItsMarkers: a page without the markers is an
// error that names them, not a page written anyway.
func TestPrerenderIntoNeedsItsMarkers(t *testing.T) {
	for _, tc := range []struct {
		page, reason string
	}{
		{"<div id=\"app\"></div>", "no markers"},
		{"<div id=\"app\">" + prerenderStart + "</div>", "no end marker"},
	} {
		_, err := prerenderInto(tc.page, "x")
		assert.Error(t, err, tc.reason)
	}
	out, err := prerenderInto("a"+prerenderStart+"old"+prerenderEnd+"b", "new")
	require.NoError(t, err)
	assert.Equal(t, "a"+prerenderStart+"new"+prerenderEnd+"b", out, "only what is between the markers changes")
}
