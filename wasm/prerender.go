package main

import (
	"errors"
	"strings"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/wasm/adapter"
	"github.com/shedsim/shedsim/wasm/markup"
)

// This file is the simulator page as site/index.html holds it before its
// engine arrives: the form and the default run's results, written by the
// page's own markup code (package markup) run natively, from
// the same runs the page's workers make. The engine is deterministic, so
// these are the bytes the page draws once the engine has run
// (tools/browser's TestPrerendered checks it). Natively, this command
// writes them: go run ./wasm -prerender site/index.html (stub.go).

// The markers around the prerendered block in site/index.html.
const (
	prerenderStart = "<!-- prerendered: the default run, written by go run ./wasm -prerender site/index.html; do not edit -->"
	prerenderEnd   = "<!-- /prerendered -->"
)

// defaultRuns are the default run's results as the page gets them from
// its workers (simWidget.compute): the chosen policy's run whole, without
// its series, and every policy's without its windows.
func defaultRuns() (c sim.Config, chosen sim.Result, compared []sim.Result, err error) {
	c, errs := adapter.ConfigFromStrings(sim.DefaultConfig(), adapter.ConfigStrings(sim.DefaultConfig()), adapter.ViewRuns)
	if len(errs) > 0 {
		return c, chosen, nil, errors.New(errs[0].Field + ": " + errs[0].Msg)
	}
	withSeries := c
	withSeries.SeriesStepS = sim.SeriesStep(c.DurationS)
	if chosen, err = sim.Run(withSeries); err != nil {
		return c, chosen, nil, err
	}
	chosen.Series, chosen.Config.SeriesStepS = nil, 0
	for _, p := range sim.Policies {
		alt := c
		alt.Policy = p
		r, err := sim.Run(alt)
		if err != nil {
			return c, chosen, nil, err
		}
		r.Windows = nil
		compared = append(compared, r)
	}
	return c, chosen, compared, nil
}

// prerenderedBlock is the markup of the simulator page's #app, between
// the markers: the form and the results of the default run, laid out as
// mountSimulator lays out the page.
func prerenderedBlock() (string, error) {
	c, chosen, compared, err := defaultRuns()
	if err != nil {
		return "", err
	}
	v := report.ChosenView(c, chosen)
	v.Rows = report.Rows(compared)
	var m markup.Markup
	m.Raw(`<div class="sim-layout">`)
	markup.WritePageForm(&m, adapter.ConfigStrings(c), &v, true)
	markup.WriteResults(&m, markup.ResultsFrame{Page: true}, &markup.FrameFill{C: c, V: &v})
	m.Raw(`</div>`)
	return m.String(), nil
}

// prerenderInto returns page (site/index.html) with the block between its
// markers replaced by block.
func prerenderInto(page, block string) (string, error) {
	before, rest, ok := strings.Cut(page, prerenderStart)
	if !ok {
		return "", errors.New("no " + prerenderStart + " in the page: put it, and " + prerenderEnd + ", inside <div id=\"app\">")
	}
	_, after, ok := strings.Cut(rest, prerenderEnd)
	if !ok {
		return "", errors.New("no " + prerenderEnd + " after " + prerenderStart)
	}
	return before + prerenderStart + block + prerenderEnd + after, nil
}
