//go:build js && wasm

package main

import (
	"github.com/shedsim/shedsim/wasm/adapter"
)

// timings are the last recompute's, in milliseconds, for #timing: first,
// the chosen policy run and drawn; build and draw, every policy's; step,
// the longest of the tasks that run the other policies and draw them.
type timings struct {
	first, build, draw, step, advice, clients float64
}

// timingLine is the page's line of the last recompute's timings, as text
// and as data-*-ms attributes for the benchmarks.
type timingLine struct{ el el }

// show writes t; drawn, advised and clientsDone say which of the later
// parts the recompute has measured yet.
func (l timingLine) show(t timings, drawn, advised, clientsDone bool) {
	if l.el == nil {
		return
	}
	text := "Your policy in " + f1(t.first) + " ms, run and drawn"
	l.el.SetAttribute("data-first-ms", adapter.Fnum(t.first))
	if drawn {
		text += "; every policy in " + f1(t.build) + " ms, drawn in " + f1(t.draw) + " ms, " + f1(t.step) + " ms at most at a time"
		l.el.SetAttribute("data-build-ms", adapter.Fnum(t.build))
		l.el.SetAttribute("data-draw-ms", adapter.Fnum(t.draw))
		l.el.SetAttribute("data-step-ms", adapter.Fnum(t.step))
	} else {
		l.el.RemoveAttribute("data-build-ms")
		l.el.RemoveAttribute("data-draw-ms")
		l.el.RemoveAttribute("data-step-ms")
	}
	if advised {
		text += "; the advice in " + f1(t.advice) + " ms"
		l.el.SetAttribute("data-advice-ms", adapter.Fnum(t.advice))
	} else {
		l.el.RemoveAttribute("data-advice-ms")
	}
	if clientsDone {
		text += "; the clients in " + f1(t.clients) + " ms"
		l.el.SetAttribute("data-clients-ms", adapter.Fnum(t.clients))
	} else {
		l.el.RemoveAttribute("data-clients-ms")
	}
	l.el.SetTextContent(text + ".")
}
