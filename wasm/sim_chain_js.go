//go:build js && wasm

package main

import (
	"strconv"

	"github.com/shedsim/shedsim/wasm/markup"
)

// chainSteps are the steps of w.drawing that draw the chosen run's chain
// (markup/chain.go) into its box, after the chart's table: its boxes,
// table and lines in one, then each hop's chart over time a step (an
// hour's chart and table are some 700 elements). For a run without a
// chain, one step hides the last run's.
func (w *simWidget) chainSteps() []func() {
	box, v := w.chain, w.view
	if box == nil {
		return nil
	}
	if v.Chain == nil {
		return []func(){func() {
			clear(box)
			setHidden(box, true)
		}}
	}
	steps := []func(){func() {
		var m markup.Markup
		markup.WriteChain(&m, w.prefix, *v, false)
		box.Underlying().Set("innerHTML", m.String())
		setHidden(box, false)
	}}
	for k := range v.Chosen.Hops {
		steps = append(steps, func() {
			var m markup.Markup
			markup.WriteHopChart(&m, w.prefix, *v, k)
			query(box, "#"+w.id("chain-"+strconv.Itoa(k+1))).Underlying().Set("innerHTML", m.String())
		})
	}
	return steps
}
