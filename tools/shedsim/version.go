package main

import (
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/version"
)

// versionArgs are the spellings that ask for the version: shedsim
// version, shedsim --version and shedsim -version.
var versionArgs = []string{"version", "--version", "-version"}

// runVersion prints this build's version (sim/version), then the model's
// (sim.ModelVersion), when args ask for it, and reports whether they did.
// The version is given alone: with anything else it is refused.
func runVersion(args []string, stdout io.Writer) (asked bool, err error) {
	i := slices.IndexFunc(args, func(a string) bool { return slices.Contains(versionArgs, a) })
	if i < 0 || (i > 0 && args[i] == "version") {
		return false, nil // "version" after a flag is that flag's value
	}
	if len(args) > 1 {
		rest := slices.Delete(slices.Clone(args), i, i+1)
		return true, usageError{args[i] + " prints the version and takes nothing else: give it alone, without " + quoteArg(strings.Join(rest, " "))}
	}
	_, err = io.WriteString(stdout, versionText(version.Read()))
	return true, err
}

// versionText is shedsim --version's output for a build's Info.
func versionText(i version.Info) string {
	return i.String() + "model   " + strconv.Itoa(sim.ModelVersion) + " (the rules of sim/MODEL.md that made every Result)\n"
}
