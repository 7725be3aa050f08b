//go:build js && wasm

package main

// The simulator page's address follows its form (widget.syncURL) in a task
// of its own, after the recompute's and after the next paint: history's
// replaceState and pushState took 13 to 18 ms of the main thread at 4x CPU
// in Chromium, in the task of the keystroke or the menu's change (a CPU
// profile), and they lay out the page first if it has
// changed since it was painted (Chromium's trace).

// addressSync is the address the form asks for and not yet written.
type addressSync struct {
	t       *task
	q       string
	commit  bool
	pending bool
}

// syncAddress writes q to the address in a task after the next paint, with
// commit a history entry of its own (syncURL). A committed address still
// waiting is written first, so that its entry is not lost.
func (w *simWidget) syncAddress(q string, commit bool) {
	a := &w.address
	if a.t == nil {
		a.t = w.task(w.writeAddress)
	}
	if a.pending && a.commit {
		if q != a.q {
			w.syncURL(a.q, true)
		} else {
			commit = true // Enter's submit after its change, say: one entry
		}
	}
	a.q, a.commit, a.pending = q, commit, true
	a.t.afterPaint()
}

// writeAddress is the address's task: it writes what syncAddress asked.
func (w *simWidget) writeAddress() {
	if a := &w.address; a.pending {
		a.pending = false
		w.syncURL(a.q, a.commit)
	}
}

// dropAddress forgets an address not yet written: Back or Forward has
// moved to another entry, which the form now follows.
func (w *simWidget) dropAddress() {
	if a := &w.address; a.t != nil {
		a.t.stop()
		a.pending = false
	}
}
