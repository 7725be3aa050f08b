//go:build !(js && wasm)

// Command wasm is the simulator's page: built for js/wasm it registers the
// global JavaScript object shedsim (see main_js.go). On any other platform
// it only says so, so that go build ./... and go vet ./... pass everywhere;
// its adapter (adapter.go) is tested natively.
package main

import "os"

func main() {
	os.Stderr.WriteString("wasm: build with GOOS=js GOARCH=wasm; this is the page's WebAssembly module\n")
	os.Exit(2)
}
