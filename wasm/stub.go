//go:build !(js && wasm)

// Command wasm is the simulator's page: built for js/wasm it registers the
// global JavaScript object shedsim (see main_js.go). On any other platform
// it only says so, so that go build ./... and go vet ./... pass everywhere;
// its adapter (adapter.go) is tested natively.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "wasm: build with GOOS=js GOARCH=wasm; this is the page's WebAssembly module")
	os.Exit(2)
}
