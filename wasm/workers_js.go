//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/wasm/adapter"
)

// runs are a widget's runs of the engine in the page's workers
// (site/workers.js, which the loader starts with the compiled module): the
// page's main thread only sends Configs and draws the Results, so no input,
// however big, holds up typing or a frame. Each run's answer comes back in
// a task of its own.
type runs struct {
	pool js.Value
	// pending are the runs sent and not answered, by the pool's id, with
	// the function that takes the answer.
	pending map[int]js.Func
}

// start sends c to the next free worker; done gets its Result, through w's
// safely, unless the run is cancelled first. Unless whole, the Result
// comes without its Windows (only a chart over time needs them): a
// comparison's run is then a few hundred bytes of JSON to decode here;
// whole, the Windows come as float64s beside it (RunParts).
func (rs *runs) start(w *widget, c sim.Config, whole bool, done func(sim.Result)) {
	rs.send(w, c, whole, false, done)
}

// startLater is start for a run that can wait (the seeds'): the workers
// take it once no run sent with start is queued, so that what the reader
// waits for (the advice's next round, say) goes before it.
func (rs *runs) startLater(w *widget, c sim.Config, done func(sim.Result)) {
	rs.send(w, c, false, true, done)
}

// send is start, and with later startLater.
func (rs *runs) send(w *widget, c sim.Config, whole, later bool, done func(sim.Result)) {
	rs.ensure()
	id := 0
	var answer js.Func
	answer = js.FuncOf(func(_ js.Value, args []js.Value) any {
		answer.Release()
		delete(rs.pending, id)
		w.safely(func() {
			r, err := adapter.DecodeRun(args[0].String(), c)
			if err != nil {
				panic(err) // the page validated c: a refusal is a bug
			}
			if whole {
				b := make([]byte, args[1].Get("length").Int())
				js.CopyBytesToGo(b, args[1])
				if err = adapter.ReadParts(&r, b); err != nil {
					panic(err)
				}
			}
			done(r)
		})
		return nil
	})
	id = rs.pool.Call("run", adapter.WorkerConfig(c), whole, answer, later).Int()
	rs.pending[id] = answer
}

// ensure finds the loader's pool of workers, the first time.
func (rs *runs) ensure() {
	if rs.pending == nil {
		rs.pending = map[int]js.Func{}
		rs.pool = js.Global().Get("shedsimWorkers")
		if rs.pool.IsUndefined() {
			panic("the loader did not start the engine's workers (site/workers.js)")
		}
	}
}

// cancel forgets every run not answered yet: the pool drops those queued
// and stops the workers busy with the others.
func (rs *runs) cancel() {
	for id, answer := range rs.pending {
		rs.pool.Call("cancel", id)
		answer.Release()
		delete(rs.pending, id)
	}
}
