package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGoInstallPath: the README's go install line names this module's
// command by its module path, and a module of a user's that requires
// the module (replaced by this checkout, as the module proxy would serve
// a published version) lists every one of its packages, the command among
// them, with no error.
func TestGoInstallPath(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	m := regexp.MustCompile("`go install (\\S+)@latest`").FindSubmatch(readme)
	require.NotNil(t, m, "the README's install line: go install <module path>/tools/shedsim@latest")
	gomod, err := os.ReadFile("../../go.mod")
	require.NoError(t, err)
	mod := regexp.MustCompile(`(?m)^module (\S+)$`).FindSubmatch(gomod)
	require.NotNil(t, mod)
	module := string(mod[1])
	assert.Equal(t, module+"/tools/shedsim", string(m[1]), "the README installs the command by the module's path")

	checkout, err := filepath.Abs("../..")
	require.NoError(t, err)
	goBin, err := exec.LookPath("go")
	require.NoError(t, err, "go not found: install Go 1.26 (see README.md)")
	user := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(user, "go.mod"), []byte("module example.com/blog\n\ngo 1.26\n\nrequire "+module+" v0.0.0\n\nreplace "+module+" => "+checkout+"\n"), 0o644))
	list := func(dir string, args ...string) []string {
		cmd := exec.Command(goBin, append([]string{"list", "-e", "-f", "{{.ImportPath}} {{.Name}}{{with .Error}}: {{.}}{{end}}"}, args...)...)
		cmd.Dir = dir
		// -mod=mod: the user's module has no go.sum yet; go writes it.
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go list %s in %s:\n%s", strings.Join(args, " "), dir, out)
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	got := list(user, module+"/...")
	for _, line := range got {
		assert.Regexp(t, `^\S+ \w+$`, line, "a package that does not load from the user's module")
	}
	assert.Contains(t, got, module+"/tools/shedsim main", "the command installs from the module path")
	want := list(checkout, "./...")
	slices.Sort(got)
	slices.Sort(want)
	assert.Equal(t, want, got, "the user's module sees every package of the checkout")
}
