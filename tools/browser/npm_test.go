//go:build !js

package browser

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/tools/internal/siteserve"
)

// The npm package's test (issue 29): make npm's package, packed with npm
// pack, installed into a blog's scratch project by the README's own line,
// bundled with esbuild from the README's own import, opened in Chromium;
// and its declarations type-checked with tsc.

// The bundler and the type checker the test installs from the npm
// registry, pinned so that a new release cannot fail an unchanged tree.
const (
	esbuildVersion    = "0.28.2"
	typescriptVersion = "7.0.2"
)

// npmPackage is what the test reads of build/npm/package.json.
type npmPackage struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Shedsim struct {
		Version string `json:"version"`
	} `json:"shedsim"`
}

// builtPackage is make npm's package folder, which must hold the engine
// make site built last.
func builtPackage(t *testing.T) (dir string, p npmPackage) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "build", "npm"))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	require.NoError(t, err, "build/npm/package.json: run make npm first")
	require.NoError(t, json.Unmarshal(b, &p))
	site, err := os.ReadFile(filepath.Join(siteDir(t), "sim.wasm"))
	require.NoError(t, err)
	packed, err := os.ReadFile(filepath.Join(dir, "site", "sim.wasm"))
	require.NoError(t, err)
	require.True(t, string(site) == string(packed), "build/npm/site/sim.wasm is not site/sim.wasm: run make npm after make site")
	return dir, p
}

// command runs name in dir and returns its output; a failure ends the
// test with the output.
func command(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	out, err := commandErr(dir, name, args...)
	require.NoError(t, err, "%s %s:\n%s", name, strings.Join(args, " "), out)
	return out
}

func commandErr(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	// No audit or funding requests, and only npm's errors in the log.
	cmd.Env = append(os.Environ(), "npm_config_audit=false", "npm_config_fund=false", "npm_config_update_notifier=false", "npm_config_loglevel=error")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// blogPage is the scratch project's page: a <shed-sim> and the bundle.
const blogPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A blog that bundles</title><link rel="icon" href="data:,"></head>
<body><article><h1>Overload</h1>
<shed-sim kind="compare" sale_rps="200" retries="3"><p>The simulator draws here.</p></shed-sim>
</article><script type="module" src="page.js"></script></body></html>
`

// typesSample uses every function and event index.d.ts declares
// (TestNPMPackage checks that against the file).
const typesSample = `import { load, version, modelVersion } from '@shedsim/widget';
import type { Config, PlanInput, ShedSimAPI } from '@shedsim/widget';

const config: Config = { policy: 'bounded', sale_rps: 200, retries: '3', client: 'budget' };
const input: PlanInput = { rate_rps: 150, service_ms: 80, target: 0.05 };

load('/shedsim/').then((api: ShedSimAPI) => {
  const answers: string[] = [api.version, version, String(modelVersion), api.defaults(), api.samples(), api.view(config),
    api.clients(JSON.stringify(config)), api.run(config), api.labList(), api.lab(0), api.plan(input)];
  const index: number = api.labIndex('fifo', 3, 150, '2000');
  const id: number = api.mount(document.createElement('div'), 'compare', { retries: '3', sale_rps: 200 });
  api.unmount(id);
  console.log(answers.length, index);
});

const el = document.querySelector('shed-sim')!;
el.addEventListener('shedsim:result', (e) => { const v: string = e.detail.version; console.log(v, e.detail.view, e.detail.first_ms + e.detail.build_ms + e.detail.advice_ms); });
el.addEventListener('shedsim:clients', (e) => console.log(e.detail.view, e.detail.clients_ms));
el.addEventListener('shedsim:lab', (e) => console.log(e.detail.index, e.detail.config.policy, e.detail.result.model_version));
el.addEventListener('shedsim:plan', (e) => console.log(e.detail.plan, e.detail.chart));
el.addEventListener('shedsim:sweep', (e) => console.log(e.detail.sweep, e.detail.ms));
el.addEventListener('shedsim:map', (e) => console.log(e.detail.map, e.detail.ms));
el.addEventListener('shedsim:invalid', (e) => console.log(e.detail.errors.map((x) => x.field + ': ' + x.msg)));
document.addEventListener('shedsim:error', (e) => console.log(e.detail.error));
`

// typesWrong misspells a Config key, which tsc must refuse.
const typesWrong = `import { load } from '@shedsim/widget';
load().then((api) => api.run({ sale_rpss: 200 }));
`

// tscArgs type-check one file strictly, as a bundler resolves modules.
var tscArgs = []string{"--noEmit", "--strict", "--module", "esnext", "--moduleResolution", "bundler", "--target", "es2020", "--lib", "es2020,dom"}

// TestNPMPackage: the packed package, installed and bundled as the README
// says, draws its widget in Chromium with no console error and carries
// the page's version; its declarations pass tsc on a sample that uses all
// of them, and fail it on a misspelt key.
func TestNPMPackage(t *testing.T) {
	npm, err := exec.LookPath("npm")
	require.NoError(t, err, "npm not found: apt-get install -y npm")
	pkgDir, pkg := builtPackage(t)
	require.Equal(t, "@shedsim/widget", pkg.Name)
	require.Equal(t, "v"+pkg.Version, strings.SplitN(pkg.Shedsim.Version, "+", 2)[0]+suffix(pkg.Version, pkg.Shedsim.Version),
		"package.json's version is the build's, without the v")
	sn := readmeSnippets(t)

	blog := t.TempDir()
	out := command(t, blog, npm, "pack", "--pack-destination", blog, pkgDir)
	lines := strings.Fields(out)
	require.NotEmpty(t, lines, "npm pack printed no file name")
	tarball := lines[len(lines)-1]
	require.True(t, strings.HasSuffix(tarball, ".tgz"), "npm pack's last line names the tarball: %q", out)
	require.NoError(t, os.WriteFile(filepath.Join(blog, "package.json"), []byte(`{"name": "blog", "private": true}`+"\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(blog, "public"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(blog, "src"), 0o755))

	// The README's line, with the packed tarball for the registry's copy.
	install := strings.Replace(sn.NPM, "--save-exact "+pkg.Name+" ", "--save-exact ./"+tarball+" ", 1)
	require.NotEqual(t, sn.NPM, install, "the README's npm line installs %s --save-exact", pkg.Name)
	command(t, blog, "bash", "-euo", "pipefail", "-c", install)
	command(t, blog, npm, "install", "--save-exact", "--save-dev", "esbuild@"+esbuildVersion, "typescript@"+typescriptVersion)
	b, err := os.ReadFile(filepath.Join(blog, "package.json"))
	require.NoError(t, err)
	var deps struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	require.NoError(t, json.Unmarshal(b, &deps))
	assert.Equal(t, map[string]string{pkg.Name: "file:" + tarball}, deps.Dependencies, "the blog depends on the tarball, pinned")

	t.Run("tsc", func(t *testing.T) {
		decl, err := os.ReadFile(filepath.Join(blog, "node_modules", "@shedsim", "widget", "index.d.ts"))
		require.NoError(t, err)
		api := regexp.MustCompile(`(?s)export interface ShedSimAPI \{(.*?)\n\}`).FindSubmatch(decl)
		require.NotNil(t, api, "index.d.ts declares ShedSimAPI")
		funcs := regexp.MustCompile(`(?m)^  (\w+)\(`).FindAllSubmatch(api[1], -1)
		require.GreaterOrEqual(t, len(funcs), 11, "the API's functions")
		for _, f := range funcs {
			assert.Contains(t, typesSample, "api."+string(f[1])+"(", "the sample calls %s", f[1])
		}
		events := regexp.MustCompile(`"(shedsim:\w+)": CustomEvent`).FindAllSubmatch(decl, -1)
		require.Len(t, events, 8, "the events")
		for _, e := range events {
			assert.Contains(t, typesSample, "'"+string(e[1])+"'", "the sample listens to %s", e[1])
		}
		for _, name := range []string{"load", "version", "modelVersion"} {
			assert.Regexp(t, `export declare (function|const) `+name+`\b`, string(decl))
		}

		require.NoError(t, os.WriteFile(filepath.Join(blog, "src", "sample.ts"), []byte(typesSample), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(blog, "src", "wrong.ts"), []byte(typesWrong), 0o644))
		tsc := filepath.Join(blog, "node_modules", ".bin", "tsc")
		command(t, blog, tsc, append(tscArgs, "src/sample.ts")...)
		out, err := commandErr(blog, tsc, append(tscArgs, "src/wrong.ts")...)
		require.Error(t, err, "tsc accepts a misspelt Config key:\n%s", out)
		assert.Contains(t, out, "'sale_rpss' does not exist in type 'Config'", "tsc names the wrong key")
	})

	t.Run("bundled", func(t *testing.T) {
		require.NoError(t, os.WriteFile(filepath.Join(blog, "src", "page.js"), []byte(sn.Import+"\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(blog, "public", "index.html"), []byte(blogPage), 0o644))
		command(t, blog, filepath.Join(blog, "node_modules", ".bin", "esbuild"), "src/page.js", "--bundle", "--format=esm",
			"--outfile=public/page.js", "--log-level=warning")
		srv := httptest.NewServer(siteserve.Handler(filepath.Join(blog, "public")))
		t.Cleanup(srv.Close)

		s := startBrowser(t)
		tb := s.newTab(t, `document.addEventListener('shedsim:result', (e) => { window.shedsimResult = e.detail; });`)
		tb.open(srv.URL + "/index.html")
		got := poll[string](tb, "the widget's shedsim:result", `window.shedsimResult && window.shedsimResult.version`,
			inWidget("shed-sim")+` && `+inWidget("shed-sim")+`.textContent.slice(0, 200)`)
		assert.Equal(t, pkg.Shedsim.Version, got, "shedsim:result's version is the package's")
		assert.Equal(t, pkg.Shedsim.Version, eval[string](tb, `shedsim.version`))
		bars := eval[int](tb, `(() => { const r = `+inWidget("shed-sim")+`; return r ? r.querySelectorAll('[data-policy]').length : 0; })()`)
		assert.GreaterOrEqual(t, bars, 6, "the widget draws every policy's row")
		tb.noProblems()
		assert.Empty(t, tb.browserErrors(), "the browser's own errors")
		requests, _, _ := tb.logged()
		for _, r := range requests {
			if !strings.HasPrefix(r, "data:") && !strings.HasPrefix(r, "blob:") {
				assert.True(t, strings.HasPrefix(r, srv.URL+"/"), "a request outside the blog: %s", r)
			}
		}
		assert.Contains(t, requests, srv.URL+"/shedsim/sim.wasm", "the engine from where the README's line copied it")

		// The site's own page names the same version in its footer.
		site := s.serve(t)
		ft := s.newTab(t)
		ft.open(site.URL + "/index.html")
		assert.Equal(t, pkg.Shedsim.Version, poll[string](ft, "the footer's version",
			`(() => { const e = document.querySelector('footer [data-shedsim-version]'); return e && e.textContent.startsWith('v') ? e.textContent : ''; })()`,
			`document.querySelector('footer').textContent`))
		ft.noProblems()
	})
}

// suffix is the build metadata of full ("+dirty") when npm's version nv
// kept it, "" when npm's has none.
func suffix(nv, full string) string {
	if _, meta, ok := strings.Cut(full, "+"); ok && strings.Contains(nv, "+") {
		return "+" + meta
	}
	return ""
}
