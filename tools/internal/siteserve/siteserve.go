// Package siteserve serves the built site over http, as tools/serve does
// and as the browser tests do for the page's http leg: one handler, so that
// the tests load the page as a person who runs make serve does.
package siteserve

import (
	"net/http"
	"path/filepath"
	"strings"
)

// contentTypes are set explicitly, whatever the system's MIME tables say.
var contentTypes = map[string]string{
	".wasm":        "application/wasm",
	".js":          "text/javascript; charset=utf-8",
	".html":        "text/html; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".svg":         "image/svg+xml",
	".json":        "application/json",
	".webmanifest": "application/manifest+json",
}

// Handler serves the files under dir, with explicit content types and no
// caching.
func Handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Path
		if strings.HasSuffix(name, "/") {
			name += "index.html"
		}
		if ct, ok := contentTypes[strings.ToLower(filepath.Ext(name))]; ok {
			w.Header().Set("Content-Type", ct)
		}
		w.Header().Set("Cache-Control", "no-store")
		files.ServeHTTP(w, r)
	})
}
