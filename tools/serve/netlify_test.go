package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// headerRule is one [[headers]] table of netlify.toml.
type headerRule struct {
	For    string
	Values map[string]string
}

// readNetlify reads netlify.toml's [[headers]] tables. It reads the
// subset of TOML the file uses (tables, and key = "string" lines) and
// refuses anything else, so that a rule it cannot read is not skipped.
func readNetlify(t *testing.T, path string) []headerRule {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var rules []headerRule
	table := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "[") {
			table = line
			if table == "[[headers]]" {
				rules = append(rules, headerRule{Values: map[string]string{}})
			}
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		require.True(t, ok, "netlify.toml:%d: not key = value: %q", n, line)
		key = strings.TrimSpace(key)
		s, err := strconv.Unquote(strings.TrimSpace(val))
		require.NoError(t, err, "netlify.toml:%d: a value this test reads is a quoted string: %q", n, line)
		switch table {
		case "[[headers]]":
			require.Equal(t, "for", key, "netlify.toml:%d", n)
			rules[len(rules)-1].For = s
		case "[headers.values]":
			require.NotEmpty(t, rules, "netlify.toml:%d: values before [[headers]]", n)
			rules[len(rules)-1].Values[key] = s
		}
	}
	require.NoError(t, sc.Err())
	return rules
}

// matches reports whether Netlify's path pattern (a * matches anything,
// slashes too) matches path.
func matches(pattern, path string) bool {
	re := "^" + strings.ReplaceAll(regexp.QuoteMeta(pattern), `\*`, ".*") + "$"
	return regexp.MustCompile(re).MatchString(path)
}

// headersFor are the headers Netlify sends with path: every matching
// rule's, a later rule's over an earlier one's (Netlify's headers-parser,
// headersForPath).
func headersFor(rules []headerRule, path string) map[string]string {
	out := map[string]string{}
	for _, r := range rules {
		if matches(r.For, path) {
			for k, v := range r.Values {
				out[k] = v
			}
		}
	}
	return out
}

// csp parses a Content-Security-Policy into its directives' sources.
func csp(policy string) map[string][]string {
	out := map[string][]string{}
	for _, d := range strings.Split(policy, ";") {
		f := strings.Fields(d)
		if len(f) > 0 {
			out[f[0]] = f[1:]
		}
	}
	return out
}

// fallbacks are the directives a browser reads when one is missing (CSP
// Level 3, "Get the effective directive": worker-src falls back to
// child-src, script-src and default-src; frame-src to child-src and
// default-src).
var fallbacks = map[string][]string{
	"worker-src": {"child-src", "script-src", "default-src"},
	"frame-src":  {"child-src", "default-src"},
}

// effective is the sources policy p applies to directive d.
func effective(p map[string][]string, d string) []string {
	for _, name := range append([]string{d}, append(fallbacks[d], "default-src")...) {
		if s, ok := p[name]; ok {
			return s
		}
	}
	return nil
}

// contentHashed reports whether a file's name carries its content's hash
// (sim.3f2a9c1e.wasm), the only files that may be cached for long.
var contentHashed = regexp.MustCompile(`[.-][0-9a-f]{8,}\.[a-z]+$`)

// TestNetlify: each rule of netlify.toml serves a file make site writes;
// every file is served with the security headers, the site's pages pass
// the policy the README's CSP section tells a blog to set, HTML is never
// cached without asking, only content-hashed names are cached for long,
// and the engine goes out as application/wasm to any origin.
func TestNetlify(t *testing.T) {
	rules := readNetlify(t, "../../netlify.toml")
	require.NotEmpty(t, rules)
	site := "../../site"
	for _, f := range []string{"sim.wasm", "sim.wasm.js", "wasm_exec.js", "precache.js"} {
		_, err := os.Stat(filepath.Join(site, f))
		require.NoError(t, err, "site/%s: run make site first", f)
	}
	entries, err := os.ReadDir(site)
	require.NoError(t, err)
	var paths []string
	for _, e := range entries {
		if !e.IsDir() {
			paths = append(paths, "/"+e.Name())
		}
	}
	paths = append(paths, "/") // index.html, as Netlify serves it

	for _, r := range rules {
		assert.True(t, slices.ContainsFunc(paths, func(p string) bool { return matches(r.For, p) }),
			"netlify.toml's rule for %q serves no file make site writes", r.For)
	}

	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	m := regexp.MustCompile("(?m)^Content-Security-Policy: (.+)$").FindSubmatch(readme)
	require.NotNil(t, m, "the README's CSP section gives a policy")
	// The README's policy for a blog that embeds the widget from
	// https://example.org: here the widget's origin is the site's own.
	recommended := csp(strings.ReplaceAll(string(m[1]), "https://example.org", "'self'"))
	require.NotEmpty(t, recommended["script-src"])

	for _, p := range paths {
		h := headersFor(rules, p)
		assert.Equal(t, "nosniff", h["X-Content-Type-Options"], p)
		assert.NotEmpty(t, h["Referrer-Policy"], p)
		policy := csp(h["Content-Security-Policy"])
		require.NotEmpty(t, policy, "%s has a Content-Security-Policy", p)
		for d, sources := range recommended {
			got := effective(policy, d)
			for _, s := range sources {
				assert.Contains(t, got, s, "%s: %s allows %s, as the README's policy does", p, d, s)
			}
		}
		for d, sources := range policy {
			assert.NotContains(t, sources, "'unsafe-inline'", "%s: %s", p, d)
			assert.NotContains(t, sources, "'unsafe-eval'", "%s: %s", p, d)
		}

		cc := h["Cache-Control"]
		require.NotEmpty(t, cc, "%s has a Cache-Control", p)
		if p == "/" || strings.HasSuffix(p, ".html") {
			assert.Contains(t, cc, "no-cache", "%s: a page is never taken from a cache without asking", p)
		}
		long := strings.Contains(cc, "immutable") || regexp.MustCompile(`max-age=[1-9]`).MatchString(cc)
		if contentHashed.MatchString(p) {
			assert.True(t, long, "%s: a content-hashed file is cached for long (max-age=31536000, immutable)", p)
		} else {
			assert.False(t, long, "%s: %q caches a file whose name does not change with its content", p, cc)
		}
	}

	wasm := headersFor(rules, "/sim.wasm")
	assert.Equal(t, "application/wasm", wasm["Content-Type"], "the engine streams only as application/wasm")
	assert.Equal(t, "*", wasm["Access-Control-Allow-Origin"], "a blog on another origin streams the engine")
	assert.Equal(t, "text/javascript; charset=utf-8", headersFor(rules, "/sim.wasm.js")["Content-Type"])
}

// TestNetlifyRules: the reading of the rules themselves.
func TestNetlifyRules(t *testing.T) {
	assert.True(t, matches("/*", "/sim.wasm"))
	assert.True(t, matches("/*.html", "/index.html"))
	assert.False(t, matches("/*.html", "/"))
	assert.False(t, matches("/sim.wasm", "/sim.wasm.js"))
	rules := []headerRule{{"/*", map[string]string{"A": "1", "B": "1"}}, {"/x", map[string]string{"B": "2"}}}
	assert.Equal(t, map[string]string{"A": "1", "B": "2"}, headersFor(rules, "/x"), "a later rule's header wins")
	p := csp("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'")
	assert.Equal(t, []string{"'self'", "'wasm-unsafe-eval'"}, effective(p, "worker-src"))
	assert.Equal(t, []string{"'self'"}, effective(p, "frame-src"))
	assert.True(t, contentHashed.MatchString("/sim.3f2a9c1e.wasm"))
	assert.False(t, contentHashed.MatchString("/sim.wasm"))
}
