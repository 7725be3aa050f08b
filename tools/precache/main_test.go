package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// site writes a small site into a temporary folder, with files edited by
// edit (name to contents; "" removes it).
func site(t *testing.T, edit map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"index.html": "<!doctype html>", "lab.html": "<!doctype html>", "style.css": "body{}", "loader.js": "//", "sim.wasm": "\x00asm",
		"sim.wasm.js": "window.SHEDSIM_WASM_BASE64 = '';", "sw.js": "//", "precache.js": "//", "screenshot.png": "png",
		"manifest.webmanifest": "{}", "icon.svg": "<svg/>",
	}
	for k, v := range edit {
		files[k] = v
	}
	for name, body := range files {
		if body == "" {
			continue
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	return dir
}

func TestList(t *testing.T) {
	base, err := list(site(t, nil))
	require.NoError(t, err)
	assert.Equal(t, []string{"./", "icon.svg", "index.html", "lab.html", "loader.js", "manifest.webmanifest", "sim.wasm", "style.css"}, base.Files,
		"the pages, styles, scripts, engine, manifest and icon; not the base64 engine, the worker, this list or the README's screenshot")
	assert.Len(t, base.Version, 12)
	for _, c := range []struct {
		name, reason string
		edit         map[string]string
		same         bool
	}{
		{"a page", "a page changed is a new version", map[string]string{"lab.html": "<!doctype html><p>"}, false},
		{"the engine", "a new engine is a new version", map[string]string{"sim.wasm": "\x00asm\x01"}, false},
		{"a file moved", "the same bytes under another name are another site", map[string]string{"lab.html": "", "labs.html": "<!doctype html>"}, false},
		{"the base64 copy", "not kept, so not in the version", map[string]string{"sim.wasm.js": "window.SHEDSIM_WASM_BASE64 = 'x';"}, true},
		{"the screenshot", "not the site's", map[string]string{"screenshot.png": "png2"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := list(site(t, c.edit))
			require.NoError(t, err)
			assert.Equal(t, c.same, got.Version == base.Version, c.reason)
		})
	}
}

func TestRun(t *testing.T) {
	var out, errs bytes.Buffer
	require.NoError(t, run([]string{site(t, nil)}, &out, &errs))
	assert.Contains(t, out.String(), `self.SHEDSIM_PRECACHE = {"version":"`)
	assert.Error(t, run([]string{site(t, map[string]string{"sim.wasm": ""})}, &out, &errs), "a site not built")
	assert.Error(t, run(nil, &out, &errs), "no folder")
}
