package sim

import (
	"runtime"
	"strconv"
	"sync/atomic"
)

// BatchError is a Config in a batch (Runs) that did not validate: Err, for
// the Config at Index.
type BatchError struct {
	Index int
	Err   error
}

func (e *BatchError) Error() string { return "config " + strconv.Itoa(e.Index) + ": " + e.Err.Error() }

// Unwrap returns the Config's validation errors.
func (e *BatchError) Unwrap() error { return e.Err }

// Runs returns the Results of several Configs, in order, as Run would. It
// validates every Config before running any, then runs them on up to
// GOMAXPROCS engines at once (one under js/wasm), each reusing its memory
// from run to run: for a batch (the lab, every policy side by side) it
// allocates a fraction of what calling Run for each would. Each Result is
// the same as Run's, whichever engine ran it.
//
// An engine keeps the memory of the largest run it has done, up to 76
// bytes an attempt in flight (see MaxAttempts), so Runs uses only as many engines as
// could each hold the batch's largest run with no more attempts in all
// than MaxAttempts: a batch of day-long runs goes one at a time, and needs
// no more memory than the largest of them would alone.
//
// A panic in a run (a broken invariant) is raised again in the caller's
// goroutine, with the stack of the run that broke it.
func Runs(cs []Config) ([]Result, error) {
	var most float64 // the largest run's expected attempts
	for i, c := range cs {
		if err := c.Validate(); err != nil {
			return nil, &BatchError{Index: i, Err: err}
		}
		most = max(most, c.ExpectedAttempts())
	}
	out := make([]Result, len(cs))
	var next atomic.Int64
	onEngines(engineCount(runtime.GOMAXPROCS(0), len(cs), most), func() {
		finished := false
		defer func() {
			if !finished { // a panic: the other engines stop after their current run
				next.Store(int64(len(cs)))
			}
		}()
		var e *engine
		for {
			i := next.Add(1) - 1
			if i >= int64(len(cs)) {
				break
			}
			if len(cs[i].HopList()) > 0 {
				out[i] = runChain(cs[i])
				continue
			}
			e = simulate(cs[i], e)
			out[i] = e.result()
		}
		finished = true
	})
	return out, nil
}

// engineCount is how many engines Runs uses on cores for n runs whose
// largest is expected to send most attempts: one a core, and no more than
// could each hold that run with MaxAttempts in all.
func engineCount(cores, n int, most float64) int {
	return max(1, min(cores, n, int(MaxAttempts/max(most, 1))))
}

// RunPanic is what Runs panics with when a run panicked on another
// goroutine: the value it panicked with, and that goroutine's stack.
type RunPanic struct {
	Value any
	Stack string
}

// Error says what the run panicked with, then where.
func (p *RunPanic) Error() string {
	var what string
	switch v := p.Value.(type) {
	case string:
		what = v
	case error:
		what = v.Error()
	default:
		what = "a panic in a run"
	}
	return what + "\n\nthe run's goroutine:\n" + p.Stack
}

// Unwrap returns the value the run panicked with, if it was an error.
func (p *RunPanic) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}
