//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// advicePart is what to change, each item with a "Try it" button that
// sets the form to the advice's Config.
type advicePart struct {
	list   el
	prefix func(string) string
	// shown is the advice on screen, whose "Try it" buttons work while
	// the next input's is being measured.
	shown []report.Advice
}

// newAdvicePart finds the advice's list in the frame (find, by name);
// prefix names its items.
func newAdvicePart(find func(string) el, prefix func(string) string) *advicePart {
	return &advicePart{list: find("advice"), prefix: prefix}
}

// render shows advice for the inputs cur; each item's "Try it" button
// carries its index (one listener on the list serves them all).
func (p *advicePart) render(advice []report.Advice, cur sim.Config) {
	clear(p.list)
	p.shown = advice
	for i, a := range advice {
		textID := p.prefix("advice-" + strconv.Itoa(i))
		li := build(h("li"), h("p", "id", textID, a.Text))
		if a.Config != cur { // "nothing to change" has nothing to try
			add(li, h("button", "type", "button", "class", "try", "aria-describedby", textID, "data-advice", strconv.Itoa(i), "Try it"))
		}
		add(p.list, li)
	}
	measured(p.list)
}

// tried is the advice whose "Try it" button a click on the list pressed.
func (p *advicePart) tried(ev js.Value) (report.Advice, bool) {
	btn := ev.Get("target").Call("closest", "button[data-advice]")
	if btn.IsNull() {
		return report.Advice{}, false
	}
	i, err := strconv.Atoi(btn.Call("getAttribute", "data-advice").String())
	if err != nil || i < 0 || i >= len(p.shown) {
		return report.Advice{}, false
	}
	return p.shown[i], true
}

// adviseRound sends the advice's next round of runs (report.AdviceRuns,
// given those back so far) to the workers, all at once so that they
// spread over every worker; once the round is back it sends the next,
// until none is listed and advance draws the advice.
func (w *simWidget) adviseRound() {
	l := &w.later
	cs, err := report.AdviceRuns(l.config, l.compared, l.altRuns)
	if err != nil {
		panic(err) // the config was valid, and ran under every policy
	}
	l.altsLeft = len(cs)
	for _, a := range cs {
		w.runs.start(&w.widget, a, false, func(r sim.Result) {
			l.altRuns = append(l.altRuns, r)
			if l.altsLeft--; l.altsLeft == 0 {
				w.adviseRound()
				w.advancing.after(0)
			}
		})
	}
}
