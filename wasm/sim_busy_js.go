//go:build js && wasm

package main

// This file marks the parts of the simulator's results that a recompute
// measures after its first paint (the comparison, the advice, the client
// strategies) as being measured again, and dims them if that takes long.

// dimAfterMS is how long a part of the results may be measured again
// before it is dimmed: the numbers of a recompute that finishes sooner, as
// one does on a laptop, change without a flash.
const dimAfterMS = 120

// markBusy marks the parts a recompute measures after its first paint
// (the comparison, the advice, the client strategies) as being measured
// again: aria-busy now, dimmed if they still are after dimAfterMS. What
// they show until then is the last input's.
func (w *simWidget) markBusy() {
	for _, e := range w.measuredLater() {
		e.SetAttribute("aria-busy", "true")
	}
	w.dim.after(dimAfterMS)
}

// dimBusy is w.dim: it dims the parts still being measured.
func (w *simWidget) dimBusy() {
	for _, e := range w.measuredLater() {
		if e.GetAttribute("aria-busy") == "true" {
			e.Class().Add("pending")
		}
	}
}

// measuredLater are the widget's parts that a recompute measures after its
// first paint.
func (w *simWidget) measuredLater() []el {
	all := w.compare.measuredLater()
	if w.advice != nil {
		all = append(all, w.advice.list)
	}
	if w.clients != nil {
		all = append(all, w.clients.section)
	}
	var out []el
	for _, e := range all {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// measured marks e as measured for the current input: no longer
// aria-busy, nor dimmed.
func measured(e el) {
	if e == nil {
		return
	}
	e.RemoveAttribute("aria-busy")
	e.Class().Remove("pending")
}
