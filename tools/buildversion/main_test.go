package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestPseudo: the versions are Go's for the same commit (the module
// reference's "Pseudo-versions").
func TestPseudo(t *testing.T) {
	at := time.Date(2026, 12, 2, 12, 7, 31, 0, time.FixedZone("CET", 3600))
	hash := "3a24bbc1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7"
	for _, c := range []struct {
		exact, before string
		dirty         bool
		want          string
	}{
		{"", "", false, "v0.0.0-20261202110731-3a24bbc1d2e3"},
		{"", "", true, "v0.0.0-20261202110731-3a24bbc1d2e3+dirty"},
		{"v1.2.0", "v1.2.0", false, "v1.2.0"},
		{"v1.2.0", "v1.2.0", true, "v1.2.0+dirty"},
		{"", "v1.2.0", false, "v1.2.1-0.20261202110731-3a24bbc1d2e3"},
		{"", "v1.3.0-rc.1", false, "v1.3.0-rc.1.0.20261202110731-3a24bbc1d2e3"},
		{"", "v1.2", false, "v0.0.0-20261202110731-3a24bbc1d2e3"},
		{"", "v01.2.3", false, "v0.0.0-20261202110731-3a24bbc1d2e3"},
	} {
		assert.Equal(t, c.want, pseudo(c.exact, c.before, at, hash, c.dirty), "%+v", c)
	}
}
