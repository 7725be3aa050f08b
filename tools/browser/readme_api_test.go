//go:build !js

package browser

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

// TestREADMEJavaScriptAPI runs the README's JavaScript API snippet, read
// from the README, on the simulator page from disk: each call answers
// without errors, and the run is the command line's.
func TestREADMEJavaScriptAPI(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(b), "\n## The JavaScript API\n")
	require.True(t, ok, "README.md has the section \"The JavaScript API\"")
	section, _, _ = strings.Cut(section, "\n## ")
	_, snippet, ok := strings.Cut(section, "```js\n")
	require.True(t, ok, "the section has a js code block")
	snippet, _, _ = strings.Cut(snippet, "```")

	s := startBrowser(t)
	tb := s.newTab(t)
	tb.open(s.fileURL("index.html"))
	poll[bool](tb, "the engine", `typeof shedsim === 'object' && typeof shedsim.run === 'function'`, `String(typeof shedsim)`)
	got := eval[string](tb, `(() => {`+snippet+`
		return JSON.stringify({view, result, plan});
	})()`)
	var answers struct {
		View   map[string]json.RawMessage `json:"view"`
		Result sim.Result                 `json:"result"`
		Plan   map[string]json.RawMessage `json:"plan"`
	}
	require.NoError(t, json.Unmarshal([]byte(got), &answers), "the snippet's answers are JSON")
	assert.Contains(t, answers.View, "view", "shedsim.view answers a view, not errors")
	assert.Contains(t, answers.Plan, "plan", "shedsim.plan answers a plan, not errors")
	want := sim.DefaultConfig()
	want.Policy, want.Seed = sim.AIMD, 7
	assert.Equal(t, run(t, want), answers.Result, "shedsim.run is the engine's run natively")
	tb.noProblems()
}
