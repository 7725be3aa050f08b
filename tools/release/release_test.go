package release

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dir is make release's output, from this package's folder.
const dir = "../../build/release"

// platforms are the release's, as the Makefile's RELEASE_PLATFORMS.
var platforms = []string{"linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64.exe", "windows-arm64.exe"}

// pageVersion is the version make stamped into the page's module and the
// widget's package (build/npm/package.json's shedsim.version).
func pageVersion(t *testing.T) string {
	b, err := os.ReadFile("../../build/npm/package.json")
	require.NoError(t, err, "build/npm/package.json: run make test-release (or make npm) first")
	var p struct {
		Shedsim struct {
			Version string `json:"version"`
		} `json:"shedsim"`
	}
	require.NoError(t, json.Unmarshal(b, &p))
	require.NotEmpty(t, p.Shedsim.Version)
	return p.Shedsim.Version
}

// binary is the release's file for platform, which must exist.
func binary(t *testing.T, version, platform string) string {
	p := filepath.Join(dir, "shedsim-"+version+"-"+platform)
	_, err := os.Stat(p)
	require.NoError(t, err, "%s: run make release (make test-release runs it) from this tree", p)
	return p
}

// TestReleaseFiles: six binaries, one a platform, and SHA256SUMS holds
// each one's sum, and nothing else.
func TestReleaseFiles(t *testing.T) {
	v := pageVersion(t)
	sums := map[string]string{}
	f, err := os.Open(filepath.Join(dir, "SHA256SUMS"))
	require.NoError(t, err, "SHA256SUMS: run make release")
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		require.True(t, ok, "a line of SHA256SUMS as sha256sum writes it: %q", sc.Text())
		sums[name] = sum
	}
	require.NoError(t, sc.Err())
	require.Len(t, sums, len(platforms), "SHA256SUMS: one line a binary")
	for _, p := range platforms {
		name := filepath.Base(binary(t, v, p))
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		h := sha256.Sum256(b)
		assert.Equal(t, hex.EncodeToString(h[:]), sums[name], name)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, len(platforms)+1, "the six binaries and SHA256SUMS, from this version only")
}

// TestReleaseRuns: linux/amd64 natively and linux/arm64 under qemu print
// the page's version and run one run.
func TestReleaseRuns(t *testing.T) {
	v := pageVersion(t)
	qemu, err := exec.LookPath("qemu-aarch64")
	require.NoError(t, err, "qemu-aarch64 not found: apt-get install -y qemu-user")
	for _, c := range []struct {
		platform string
		run      func(bin string, args ...string) *exec.Cmd
	}{
		{"linux-amd64", func(bin string, args ...string) *exec.Cmd { return exec.Command(bin, args...) }},
		{"linux-arm64", func(bin string, args ...string) *exec.Cmd {
			return exec.Command(qemu, append([]string{bin}, args...)...)
		}},
	} {
		t.Run(c.platform, func(t *testing.T) {
			bin := binary(t, v, c.platform)
			out, err := c.run(bin, "--version").Output()
			require.NoError(t, err)
			first, _, _ := strings.Cut(string(out), "\n")
			assert.Equal(t, "shedsim "+v, first, "the page's version")
			assert.Contains(t, string(out), "\ngo      go1.")
			assert.Contains(t, string(out), " linux/"+strings.TrimPrefix(c.platform, "linux-")+"\n")
			out, err = c.run(bin, "--policy", "bounded", "--json").Output()
			require.NoError(t, err)
			var r struct {
				ModelVersion int `json:"model_version"`
				Sale         struct {
					People int `json:"people"`
				} `json:"sale"`
			}
			require.NoError(t, json.Unmarshal(out, &r))
			assert.Positive(t, r.ModelVersion)
			assert.Equal(t, 8919, r.Sale.People, "the default run's sale, seed 1 (sim/testdata/golden/result-priority.json)")
		})
	}
}
