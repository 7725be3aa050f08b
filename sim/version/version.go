// Package version names a build of shedsim: the command line
// (shedsim --version), the page's module (shedsim.version, the pages'
// footer, the widget's shedsim:result) and the widget's npm package carry
// the same version string.
//
// The command line reads it from the build information Go writes into
// every binary (runtime/debug.ReadBuildInfo): the module's version for
// go install github.com/shedsim/shedsim/tools/shedsim@v1.2.0, and the
// commit and whether the tree had changes for a build in a clone. Where
// Go wrote none (go build -buildvcs=false, as the Makefile builds, a
// worktree, a tree without git) it falls back to the stamp the Makefile
// sets with -ldflags -X (tools/buildversion); the page's module, built
// with -buildvcs=false, always reads the stamp.
package version

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// The stamp, set by the Makefile with
// -ldflags '-X github.com/shedsim/shedsim/sim/version.Stamp=v0.0.0-...'
// (tools/buildversion prints the flags). Empty in a build that was not
// stamped.
var (
	// Stamp is the module's version, as Go writes one: a tag such as
	// v1.2.0, or a pseudo-version such as v0.0.0-20261202120731-3a24bbc1d2e3,
	// with +dirty when the tree had changes that were not committed.
	Stamp string
	// StampCommit is the commit's full hash.
	StampCommit string
	// StampDirty is "true" when the tree had changes that were not
	// committed, "false" when it had none.
	StampDirty string
)

// Devel is the version of a build that has neither build information
// nor a stamp, as Go names the main module of such a build.
const Devel = "(devel)"

// Stamped is Stamp, or Devel in a build that was not stamped: the page's
// version.
func Stamped() string {
	if Stamp == "" {
		return Devel
	}
	return Stamp
}

// Info is what a build says of itself.
type Info struct {
	// Version is the module's version (Stamp's form), or Devel.
	Version string
	// Commit is the commit's hash; "" when unknown.
	Commit string
	// Dirty is "true" or "false" (Stamp's form); "" when unknown.
	Dirty string
	// Go is the Go that built it, and the platform: "go1.26.8 linux/amd64".
	Go string
}

// Read is this binary's Info: from its build information, each field
// that has none from the stamp.
func Read() Info {
	bi, _ := debug.ReadBuildInfo()
	return fromBuild(bi, Stamp, StampCommit, StampDirty)
}

// fromBuild is Read's work, on given build information (nil for none)
// and stamp.
func fromBuild(bi *debug.BuildInfo, stamp, commit, dirty string) Info {
	i := Info{Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	if bi != nil {
		if v := bi.Main.Version; v != "" && v != Devel {
			i.Version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				i.Commit = s.Value
			case "vcs.modified":
				i.Dirty = s.Value
			}
		}
		if i.Version == "" && i.Commit != "" {
			// A build with the commit but no version (Go before 1.24
			// wrote none): the stamp if it names this commit.
			if stamp != "" && commit == i.Commit {
				i.Version = stamp
			}
		}
	}
	if i.Version == "" && stamp != "" {
		i.Version = stamp
	}
	if i.Commit == "" {
		i.Commit = commit
	}
	if i.Dirty == "" {
		i.Dirty = dirty
	}
	if i.Dirty == "" && strings.HasSuffix(i.Version, "+dirty") {
		i.Dirty = "true"
	}
	if i.Version == "" {
		i.Version = Devel
	}
	return i
}

// String is the text of shedsim --version: the version on the first
// line, after the program's name, then the commit, whether the tree was
// dirty and the Go that built it, a line each.
func (i Info) String() string {
	unknown := func(s string) string {
		if s == "" {
			return "unknown"
		}
		return s
	}
	return "shedsim " + i.Version + "\n" +
		"commit  " + unknown(i.Commit) + "\n" +
		"dirty   " + unknown(i.Dirty) + "\n" +
		"go      " + i.Go + "\n"
}
