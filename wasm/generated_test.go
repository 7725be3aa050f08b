//go:build !(js && wasm)

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

// TestGeneratedFresh fails while a site file's generated block is not
// what the settings and the policies say now.
func TestGeneratedFresh(t *testing.T) {
	for _, g := range generatedCopies {
		text, err := os.ReadFile(filepath.Join("..", "site", g.file))
		require.NoError(t, err)
		want, err := replaceBetween(string(text), g.start, g.end, g.block())
		require.NoError(t, err, "site/%s has its markers", g.file)
		assert.True(t, want == string(text), "site/%s is stale: run go run ./wasm -prerender site/index.html, and commit it", g.file)
	}
}

// TestGeneratedCovers checks that each generated block names every
// setting, or every policy.
func TestGeneratedCovers(t *testing.T) {
	loader, embed, styles := loaderSettings(), embedSettings(), policyStyles()
	for _, s := range sim.Settings() {
		assert.Contains(t, loader, "'"+s.Key+"'", "the loader watches %s", s.Key)
		assert.Contains(t, embed, "<code>"+s.Key+"</code>", "the embedding page lists %s", s.Key)
	}
	assert.False(t, strings.Contains(embed, "<td>0 to 0</td>"), "a table's attribute takes text, not a range")
	assert.Contains(t, embed, "<code>hops</code></th><td>Services it calls", "the chain's attribute")
	for _, p := range sim.Policies {
		light, dark, _ := p.Colours()
		assert.Contains(t, styles, ".pol-"+p.String()+" { --pol: light-dark("+light+", "+dark+")", "%s has its colours", p)
	}
	for _, line := range strings.Split(loader, "\n") {
		assert.LessOrEqual(t, len(line), 120, "the loader's lines stay short")
	}
}

func TestReplaceBetween(t *testing.T) {
	for _, tc := range []struct {
		reason, text, want, err string
	}{
		{"only what is between the markers changes", "a<s>old<e>b", "a<s>new<e>b", ""},
		{"a file without its start marker", "a<e>b", "", "no marker <s>"},
		{"a file without its end marker", "a<s>old", "", "no marker <e> after <s>"},
	} {
		got, err := replaceBetween(tc.text, "<s>", "<e>", "new")
		if tc.err != "" {
			assert.EqualError(t, err, tc.err, tc.reason)
			continue
		}
		assert.NoError(t, err, tc.reason)
		assert.Equal(t, tc.want, got, tc.reason)
	}
}
