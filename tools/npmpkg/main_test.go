package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

// fakeSite is a site folder with the files the package needs.
func fakeSite(t *testing.T) string {
	dir := t.TempDir()
	for _, f := range append(needed, "screenshot.png", "style.css") {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), []byte("// "+f), 0o644))
	}
	return dir
}

func TestWrite(t *testing.T) {
	site := fakeSite(t)
	out := filepath.Join(t.TempDir(), "npm")
	require.NoError(t, os.MkdirAll(filepath.Join(out, "stale"), 0o755))
	require.NoError(t, write(out, site, "v0.0.0-20261202110731-3a24bbc1d2e3+dirty"))

	var p struct {
		Name, Version, Type, Main, Types string
		Shedsim                          struct {
			Version      string `json:"version"`
			ModelVersion int    `json:"model_version"`
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "package.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &p))
	assert.Equal(t, Name, p.Name)
	assert.Equal(t, "0.0.0-20261202110731-3a24bbc1d2e3+dirty", p.Version, "npm's form: no v")
	assert.Equal(t, "module", p.Type)
	assert.Equal(t, "v0.0.0-20261202110731-3a24bbc1d2e3+dirty", p.Shedsim.Version)
	assert.Equal(t, sim.ModelVersion, p.Shedsim.ModelVersion)

	for _, f := range append(needed, "style.css") {
		assert.FileExists(t, filepath.Join(out, "site", f))
	}
	assert.NoFileExists(t, filepath.Join(out, "site", "screenshot.png"), "the README's picture stays out")
	assert.NoDirExists(t, filepath.Join(out, "stale"), "the folder is made anew")

	js, err := os.ReadFile(filepath.Join(out, "index.js"))
	require.NoError(t, err)
	assert.Contains(t, string(js), `export const version = "v0.0.0-20261202110731-3a24bbc1d2e3+dirty";`)
	assert.Contains(t, string(js), "export function load(base)")
}

// TestDeclarationsHaveEveryKey: index.d.ts's Config has every setting,
// a choice as its words.
func TestDeclarationsHaveEveryKey(t *testing.T) {
	d := declarations()
	for _, s := range sim.Settings() {
		assert.Contains(t, d, "\n  "+s.Key+"?: ", s.Key)
	}
	assert.Contains(t, d, `policy?: "fifo" | "skip" | "bounded"`)
	assert.Contains(t, d, "\n  rate_rps?: Num;\n", "the planner's input")
	assert.Equal(t, strings.Count(d, "{"), strings.Count(d, "}"), "balanced braces")
}

func TestRefused(t *testing.T) {
	site := fakeSite(t)
	err := write(t.TempDir(), site, "(devel)")
	require.Error(t, err)
	assert.Equal(t, `-version: "(devel)" is not a semantic version such as v1.2.0: build from a git clone (tools/buildversion reads the commit) or tag the commit`, err.Error())
	require.NoError(t, os.Remove(filepath.Join(site, "sim.wasm")))
	err = write(t.TempDir(), site, "v1.2.0")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "sim.wasm is missing from ")
	assert.Contains(t, err.Error(), ": run make site first")
}
