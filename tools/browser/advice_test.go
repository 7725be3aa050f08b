//go:build !js

package browser

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// whatToChange is the command line's "What to change:" items, as
// `shedsim` prints them for args (a --policy makes it print one run's
// view, the page's).
func whatToChange(t *testing.T, cli string, args ...string) []string {
	t.Helper()
	out, err := exec.Command(cli, args...).Output()
	require.NoError(t, err, "shedsim %s", strings.Join(args, " "))
	_, block, found := strings.Cut(string(out), "\nWhat to change:\n")
	require.True(t, found, "shedsim %s prints what to change", strings.Join(args, " "))
	block, _, _ = strings.Cut(block, "\n\n")
	var items []string
	for _, line := range strings.Split(block, "\n") {
		items = append(items, strings.TrimPrefix(line, "- "))
	}
	return items
}

// TestAdviceMatchesTheCommandLine: the page's "What to change", whose
// goal-seeks run round by round in its workers, says word for word what
// the command line prints for the same inputs, its seeks run natively
// over every core: the same settings measured, the same seeds, the same
// answer, for each of the advice's seeks and for none. It keeps a
// screenshot of the advice for each.
func TestAdviceMatchesTheCommandLine(t *testing.T) {
	cli := filepath.Join(t.TempDir(), "shedsim")
	build := exec.Command("go", "build", "-o", cli, "../shedsim")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "building the command line: %s", out)

	s := startBrowser(t)
	cases := []struct {
		name, query string
		args        []string
		reason      string
	}{
		{"default", "", []string{"--policy", "fifo"}, "the post's shop: the fewest workers, sought"},
		{"retries3", "?retries=3", []string{"--policy", "fifo", "--retries", "3"}, "stuck: the fewest workers and the most retries, both sought"},
		{"short-sale", "?retries=3&normal_rps=30&sale_s=20", []string{"--policy", "fifo", "--retries", "3", "--normal-rps", "30", "--sale-s", "20"},
			"a short sale after which 1 retry drains and 2 do not"},
		{"bounded", "?policy=bounded&workers=13", []string{"--policy", "bounded", "--workers", "13"}, "enough workers, and back: no seek at all"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := whatToChange(t, cli, tc.args...)
			tb := s.newTab(t)
			tb.open(s.fileURL("index.html") + tc.query)
			poll[bool](tb, "the advice", `!document.getElementById('results').hasAttribute('data-advice') && document.querySelectorAll('ol#advice > li').length > 0`,
				`document.getElementById('results').getAttribute('data-advice') + ' ' + document.querySelector('ol#advice').outerHTML.slice(0, 300)`)
			got := eval[[]string](tb, `[...document.querySelectorAll('ol#advice > li > p')].map(p => p.textContent)`)
			assert.Equal(t, want, got, "the page's advice is the command line's (%s)", tc.reason)
			if tc.name != "bounded" {
				assert.Contains(t, strings.Join(got, "\n"), "over seeds 1 to 10: ", "%s: the advice quotes what its seeks measured", tc.reason)
			}
			eval[bool](tb, `(document.getElementById('advice').scrollIntoView(), true)`)
			viewportShot(tb, t, "advice-"+tc.name)
			tb.noProblems()
			tb.close()
		})
	}
}
