package version

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFromBuild(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	installed := &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}
	i := fromBuild(installed, "", "", "")
	assert.Equal(t, "v1.2.0", i.Version, "go install ...@v1.2.0: the module's version")
	assert.Empty(t, i.Commit)
	assert.Empty(t, i.Dirty)

	clone := &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261202110731-3a24bbc1d2e3+dirty"}, Settings: vcs("3a24bbc1d2e3f4", "true")}
	i = fromBuild(clone, "v9.9.9", "ffff", "false")
	assert.Equal(t, Info{Version: "v0.0.0-20261202110731-3a24bbc1d2e3+dirty", Commit: "3a24bbc1d2e3f4", Dirty: "true", Go: i.Go}, i,
		"the build information wins over the stamp")

	devel := &debug.BuildInfo{Main: debug.Module{Version: Devel}}
	i = fromBuild(devel, "v0.0.0-20261202110731-3a24bbc1d2e3", "3a24bbc1d2e3f4", "false")
	assert.Equal(t, Info{Version: "v0.0.0-20261202110731-3a24bbc1d2e3", Commit: "3a24bbc1d2e3f4", Dirty: "false", Go: i.Go}, i,
		"-buildvcs=false: the stamp")

	i = fromBuild(nil, "", "", "")
	assert.Equal(t, Devel, i.Version, "neither")
	assert.Contains(t, i.String(), "commit  unknown\n")
	assert.True(t, strings.HasPrefix(i.String(), "shedsim (devel)\n"), i.String())
	assert.Contains(t, i.Go, "go1.", "the Go that built it")

	i = fromBuild(nil, "v1.0.0+dirty", "", "")
	assert.Equal(t, "true", i.Dirty, "a stamp that says dirty")
}

func TestStamped(t *testing.T) {
	old := Stamp
	defer func() { Stamp = old }()
	Stamp = ""
	assert.Equal(t, Devel, Stamped())
	Stamp = "v1.2.0"
	assert.Equal(t, "v1.2.0", Stamped())
}
