package siteserve

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

func TestHandler(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"index.html":   "<!doctype html><title>shedsim</title>",
		"sim.wasm":     "\x00asm\x01\x00\x00\x00",
		"sim.wasm.js":  `window.SHEDSIM_WASM_BASE64 = "";`,
		"wasm_exec.js": "// wasm_exec",
		"style.css":    "body{}",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		reason, path, wantType string
		wantCode               int
	}{
		{"instantiateStreaming requires application/wasm", "/sim.wasm", "application/wasm", 200},
		{"the base64 copy is a classic script", "/sim.wasm.js", "text/javascript; charset=utf-8", 200},
		{"Go's loader is a classic script", "/wasm_exec.js", "text/javascript; charset=utf-8", 200},
		{"the directory serves its index page", "/", "text/html; charset=utf-8", 200},
		{"stylesheets", "/style.css", "text/css; charset=utf-8", 200},
		{"a missing file is 404", "/missing.wasm", "", 404},
	}
	h := Handler(dir)
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", tt.path, nil))
		if rec.Code != tt.wantCode {
			t.Errorf("%s: GET %s: status %d, want %d", tt.reason, tt.path, rec.Code, tt.wantCode)
			continue
		}
		if tt.wantCode != http.StatusOK {
			continue
		}
		if got := rec.Header().Get("Content-Type"); got != tt.wantType {
			t.Errorf("%s: GET %s: Content-Type %q, want %q", tt.reason, tt.path, got, tt.wantType)
		}
		if got := rec.Header().Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s: GET %s: Cache-Control %q, want no-store", tt.reason, tt.path, got)
		}
	}
}
