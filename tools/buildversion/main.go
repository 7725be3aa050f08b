// Command buildversion prints the version the Makefile stamps into the
// page's module, the widget's npm package and the release binaries
// (sim/version), from git, in the form Go writes into a binary it builds
// in a clone, so that every build of one tree carries one string:
//
//	v1.2.0                              the commit is tagged v1.2.0
//	v1.2.1-0.20261202120731-3a24bbc1d2e3  a commit after v1.2.0
//	v0.0.0-20261202120731-3a24bbc1d2e3  no tag before it
//
// with +dirty when the tree has changes that are not committed (untracked
// files too, as Go counts them), and the commit time in UTC (Go's module
// reference, "Pseudo-versions": https://go.dev/ref/mod#pseudo-versions).
// Outside a git tree, or without git, it prints (devel).
//
//	go run ./tools/buildversion            the version
//	go run ./tools/buildversion -ldflags   the -X flags that stamp it
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// pkg is the package whose variables the stamp sets.
const pkg = "github.com/shedsim/shedsim/sim/version"

func main() {
	ldflags := flag.Bool("ldflags", false, "print the -X flags that stamp the version, its commit and whether the tree was dirty")
	flag.Parse()
	v, commit, dirty := fromGit()
	if *ldflags {
		fmt.Printf("-X %s.Stamp=%s -X %s.StampCommit=%s -X %s.StampDirty=%s\n", pkg, v, pkg, commit, pkg, dirty)
		return
	}
	fmt.Println(v)
}

// git runs git with args in the current directory and returns its
// output, trimmed.
func git(args ...string) (string, error) {
	out, err := exec.Command("git", args...).Output()
	return strings.TrimSpace(string(out)), err
}

// fromGit is the version, the commit and "true" or "false" for a dirty
// tree; (devel) and two empty strings when git cannot tell.
func fromGit() (v, commit, dirty string) {
	line, err := git("log", "-1", "--format=%H %ct")
	if err != nil {
		return "(devel)", "", ""
	}
	hash, unix, ok := strings.Cut(line, " ")
	sec, err := strconv.ParseInt(unix, 10, 64)
	if !ok || err != nil {
		return "(devel)", "", ""
	}
	status, err := git("status", "--porcelain")
	if err != nil {
		return "(devel)", "", ""
	}
	exact, _ := git("describe", "--tags", "--exact-match", "--match", "v[0-9]*", "HEAD")
	before, _ := git("describe", "--tags", "--abbrev=0", "--match", "v[0-9]*", "HEAD")
	return pseudo(exact, before, time.Unix(sec, 0), hash, status != ""), hash, strconv.FormatBool(status != "")
}

// pseudo is the version of a commit: its tag exact if it has one, else a
// pseudo-version after the tag before it (or none), and +dirty for a
// tree with changes.
func pseudo(exact, before string, at time.Time, hash string, dirty bool) string {
	stamp := at.UTC().Format("20060102150405") + "-" + hash[:min(12, len(hash))]
	var v string
	switch {
	case validTag(exact):
		v = exact
	case validTag(before) && strings.Contains(before, "-"):
		v = before + ".0." + stamp // v1.3.0-rc.1 -> v1.3.0-rc.1.0.<time>-<hash>
	case validTag(before):
		major, minor, patch := splitTag(before)
		v = fmt.Sprintf("v%d.%d.%d-0.%s", major, minor, patch+1, stamp)
	default:
		v = "v0.0.0-" + stamp
	}
	if dirty {
		v += "+dirty"
	}
	return v
}

// validTag reports whether t is a semantic version tag vX.Y.Z (with an
// optional pre-release after a dash, and no build metadata).
func validTag(t string) bool {
	if t == "" || strings.Contains(t, "+") {
		return false
	}
	_, _, _, ok := parseTag(t)
	return ok
}

func splitTag(t string) (major, minor, patch int) {
	major, minor, patch, _ = parseTag(t)
	return
}

func parseTag(t string) (major, minor, patch int, ok bool) {
	core, ok := strings.CutPrefix(t, "v")
	if !ok {
		return 0, 0, 0, false
	}
	core, _, _ = strings.Cut(core, "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return 0, 0, 0, false
	}
	var n [3]int
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil || x < 0 || (len(p) > 1 && p[0] == '0') {
			return 0, 0, 0, false
		}
		n[i] = x
	}
	return n[0], n[1], n[2], true
}

func init() {
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./tools/buildversion [-ldflags]")
		flag.PrintDefaults()
	}
}
