// Command npmpkg writes the widget's npm package, @shedsim/widget, from
// the built site (make site) into a folder that npm pack packs:
//
//	go run ./tools/npmpkg -version v0.0.0-... -site site -o build/npm
//
// The package holds:
//
//	package.json   stamped with the version (without its "v")
//	index.js       the ES module entry: importing it defines <shed-sim>
//	index.d.ts     TypeScript declarations of the JavaScript API, the
//	               Config's keys (from sim.Settings) and the events' detail
//	README.md      how to use it
//	site/          the built site but the README's screenshot: loader.js,
//	               sim.wasm, sim.wasm.js (the text fallback), wasm_exec.js,
//	               wasm_exec.text.js, widget.css, workers.js and the pages
//	               the widgets link to
//
// make npm runs it; the Makefile gives it the version it stamps into the
// page's module (tools/buildversion), so that shedsim.version, the
// package's version and shedsim --version agree.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/shedsim/shedsim/sim"
)

// Name is the package's name on the registry.
const Name = "@shedsim/widget"

// leftOut are the site's files the package does without: the README's
// picture, which no page shows.
var leftOut = []string{"screenshot.png"}

// needed are the files the loader reads (site/loader.js), without which
// the package is refused.
var needed = []string{"loader.js", "sim.wasm", "sim.wasm.js", "wasm_exec.js", "wasm_exec.text.js", "widget.css", "workers.js", "index.html"}

func main() {
	version := flag.String("version", "", "the version to stamp, as go run ./tools/buildversion prints it (v0.0.0-...)")
	site := flag.String("site", "site", "the built site (make site)")
	out := flag.String("o", "build/npm", "the package's folder, made anew")
	flag.Parse()
	if err := write(*out, *site, *version); err != nil {
		fmt.Fprintln(os.Stderr, "npmpkg: "+err.Error())
		os.Exit(1)
	}
}

// npmVersion is v as package.json writes a version: without the "v".
// Anything but a semantic version (such as "(devel)", from a tree without
// git) is refused, naming the fix.
func npmVersion(v string) (string, error) {
	s, ok := strings.CutPrefix(v, "v")
	if !ok || s == "" || !strings.Contains(s, ".") || strings.ContainsAny(s, " ()") {
		return "", fmt.Errorf("-version: %q is not a semantic version such as v1.2.0: build from a git clone (tools/buildversion reads the commit) or tag the commit", v)
	}
	return s, nil
}

// write makes dir the package of the site in site at version v.
func write(dir, site, v string) error {
	nv, err := npmVersion(v)
	if err != nil {
		return err
	}
	for _, f := range needed {
		if _, err := os.Stat(filepath.Join(site, f)); err != nil {
			return fmt.Errorf("%s is missing from %s: run make site first", f, site)
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "site"), 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(site)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || slices.Contains(leftOut, e.Name()) {
			continue
		}
		if err := copyFile(filepath.Join(site, e.Name()), filepath.Join(dir, "site", e.Name())); err != nil {
			return err
		}
	}
	pkg, err := packageJSON(nv, v)
	if err != nil {
		return err
	}
	files := map[string]string{
		"package.json": pkg,
		"index.js":     entryJS(v),
		"index.d.ts":   declarations(),
		"README.md":    readme(v),
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(from, to string) (err error) {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, out.Close()) }()
	_, err = io.Copy(out, in)
	return err
}

// packageJSON is package.json for npm version nv; shedsim.version keeps
// the build's own string, which npm would cut at a "+".
func packageJSON(nv, v string) (string, error) {
	type exports struct {
		Types   string `json:"types"`
		Default string `json:"default"`
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the description's <shed-sim> as written
	enc.SetIndent("", "  ")
	err := enc.Encode(struct {
		Name        string            `json:"name"`
		Version     string            `json:"version"`
		Description string            `json:"description"`
		Type        string            `json:"type"`
		Main        string            `json:"main"`
		Types       string            `json:"types"`
		Exports     map[string]any    `json:"exports"`
		Files       []string          `json:"files"`
		Keywords    []string          `json:"keywords"`
		Repository  map[string]string `json:"repository"`
		Shedsim     map[string]any    `json:"shedsim"`
	}{
		Name:        Name,
		Version:     nv,
		Description: "The load-shedding simulator as a web component: <shed-sim> runs the shedsim engine (Go, WebAssembly) in a blog post.",
		Type:        "module",
		Main:        "index.js",
		Types:       "index.d.ts",
		Exports: map[string]any{
			".":              exports{Types: "./index.d.ts", Default: "./index.js"},
			"./site/*":       "./site/*",
			"./package.json": "./package.json",
		},
		Files:      []string{"index.js", "index.d.ts", "site/", "README.md"},
		Keywords:   []string{"load-shedding", "backpressure", "simulation", "web-component", "webassembly"},
		Repository: map[string]string{"type": "git", "url": "git+https://github.com/shedsim/shedsim.git"},
		Shedsim:    map[string]any{"version": v, "model_version": sim.ModelVersion},
	})
	return b.String(), err
}

// readme is the package's README.
func readme(v string) string {
	return "# " + Name + "\n\n" +
		"The load-shedding simulator of the post \"Backpressure and load shedding\" as a web\n" +
		"component, `<shed-sim>`: shedsim " + v + ", model version " + fmt.Sprint(sim.ModelVersion) + ".\n\n" +
		"```js\n" +
		"import { load } from '" + Name + "'; // defines <shed-sim>\n" +
		"load('/shedsim/');                     // where you copied the package's site/ folder\n" +
		"```\n\n" +
		"The widget loads its engine from the package's `site/` folder: copy it where your\n" +
		"site is served (`cp -r node_modules/" + Name + "/site public/shedsim`) and give\n" +
		"`load` that folder; without `load`, it is looked up beside this module. Its\n" +
		"attributes, events and JavaScript API are in shedsim's README (\"Embedding it in a\n" +
		"blog post\", \"The JavaScript API\"), and typed in `index.d.ts`.\n"
}
