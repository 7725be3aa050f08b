//go:build js && wasm

package sim

// onEngines calls work once: under js/wasm there is one thread, so Runs
// asks for one engine (GOMAXPROCS is 1), and the goroutines, the wait
// group and the panic's stack that engines.go needs would only add to the
// page's download.
func onEngines(_ int, work func()) { work() }
