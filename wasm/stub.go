//go:build !(js && wasm)

// Command wasm is the simulator's page: built for js/wasm it registers the
// global JavaScript object shedsim (see main_js.go). On any other platform
// it prerenders the page (prerender.go):
//
//	go run ./wasm -prerender site/index.html
//
// writes the form and the default run's results into site/index.html,
// between its markers, so that the page reads before its engine arrives,
// and the settings' and policies' generated copies into the files beside
// it (generated.go).
// What it draws is package markup's, and what it answers package
// adapter's; both are tested natively.
package main

import (
	"errors"
	"os"
	"path/filepath"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		os.Stderr.WriteString("wasm: " + err.Error() + "\n")
		os.Exit(2)
	}
}

// run is the command with its arguments: -prerender and the page.
func run(args []string) error {
	if len(args) != 2 || args[0] != "-prerender" {
		return errors.New("build with GOOS=js GOARCH=wasm for the page's WebAssembly module, or run go run ./wasm -prerender site/index.html")
	}
	if err := prerender(args[1]); err != nil {
		return err
	}
	return writeGenerated(filepath.Dir(args[1]))
}

// prerender writes the prerendered block into the page at path.
func prerender(path string) error {
	page, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	block, err := prerenderedBlock()
	if err != nil {
		return err
	}
	out, err := prerenderInto(string(page), block)
	if err != nil {
		return errors.New(path + ": " + err.Error())
	}
	return os.WriteFile(path, []byte(out), 0o644)
}
