//go:build !(js && wasm)

package sim

import (
	"runtime"
	"sync"
)

// onEngines calls work on n goroutines at once (in the caller's when n is
// 1) and returns when every call has. If a call panics, onEngines panics
// with a RunPanic once the others have returned.
func onEngines(n int, work func()) {
	if n <= 1 {
		work()
		return
	}
	var (
		wg    sync.WaitGroup
		once  sync.Once
		fault *RunPanic
	)
	for range n {
		wg.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					stack := make([]byte, 64<<10)
					stack = stack[:runtime.Stack(stack, false)]
					once.Do(func() { fault = &RunPanic{Value: p, Stack: string(stack)} })
				}
			}()
			work()
		})
	}
	wg.Wait()
	if fault != nil {
		panic(fault)
	}
}
