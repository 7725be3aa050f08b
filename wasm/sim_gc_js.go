//go:build js && wasm

package main

import (
	"runtime"
	"runtime/debug"
	"syscall/js"
)

// The page's garbage, collected while it is idle. Go's collector runs in
// the task that allocates past the heap's goal, on the one thread: a CPU
// profile at 4x CPU found its marking and sweeping in the busiest tasks
// of a recompute, 15 to 22 ms of CPU on top of a drawing step's 30 to
// 40 ms, where a collection on its own takes 4 to 5 ms at 1x (the page's
// live heap is some 450 KB; a policy change allocates 2.2 MB). So the
// page's runtime (not the workers', which only run) sets a goal of five
// times the live heap, and at least 16 MB, which no recompute reaches,
// and collects once a recompute is drawn whole, when the browser is idle
// (requestIdleCallback).

// idleGCPercent is the page's GOGC: the heap's goal is 1 + 400/100 times
// the live heap, and at least 4 MB x 400/100.
const idleGCPercent = 400

func init() {
	if js.Global().Get("document").IsUndefined() {
		return // a worker
	}
	debug.SetGCPercent(idleGCPercent)
}

// idleGC is the collection asked for and not yet run.
var idleGC struct {
	pending bool
	fn      js.Func
}

// collectWhenIdle collects the page's garbage the next time the browser
// is idle (at most a second from now), once however often it is asked.
func collectWhenIdle() {
	if idleGC.pending {
		return
	}
	if idleGC.fn.IsUndefined() {
		idleGC.fn = js.FuncOf(func(js.Value, []js.Value) any {
			idleGC.pending = false
			runtime.GC()
			return nil
		})
	}
	idleGC.pending = true
	g := js.Global()
	if ric := g.Get("requestIdleCallback"); ric.Type() == js.TypeFunction {
		g.Call("requestIdleCallback", idleGC.fn, map[string]any{"timeout": 1000})
	} else {
		g.Call("setTimeout", idleGC.fn, 200)
	}
}

// collectIfDone asks for a collection once w's recompute is drawn whole:
// the chosen policy, every policy, the advice, the clients and the seeds.
func (w *simWidget) collectIfDone() {
	l := &w.later
	if !l.collected && w.drawing.idle() && l.drawn && l.advised && (w.clients == nil || l.clientsDrawn) && (!l.seeds.more() || l.seeds.drawn) {
		l.collected = true
		collectWhenIdle()
	}
}
