package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/sim/sweep"
)

// sweepGolden are the subcommands' pinned invocations; the README's
// commands for them are among these (TestReadmeSweepCommands).
var sweepGolden = []struct {
	name, reason string
	args         []string
}{
	{"sweep-sale-rps", "the issue's sweep: every policy, the sale from 100/s to 250/s, 10 seeds",
		[]string{"sweep", "--knob", "sale-rps", "--from", "100", "--to", "250", "--steps", "31", "--seeds", "10"}},
	{"sweep-workers-csv", "a sweep of a whole knob for one policy, as CSV",
		[]string{"sweep", "--knob", "workers", "--from", "8", "--to", "14", "--steps", "7", "--seeds", "5", "--policy", "fifo", "--csv"}},
	{"map-sale-retries", "the collapse region: sale rate x retries, the unbounded queue",
		[]string{"map", "--x", "sale-rps", "--x-from", "100", "--x-to", "250", "--x-steps", "7", "--y", "retries", "--y-from", "0", "--y-to", "3", "--y-steps", "4", "--seeds", "10"}},
	{"seek-workers", "the fewest workers for the post's sale, quoted either side",
		[]string{"seek", "--smallest", "workers", "--from", "1", "--to", "40", "--answered", "0.9", "--back", "0.95", "--seeds", "20"}},
	{"seek-erlang-c", "the planner's question by simulation: a steady 150/s at 80 ms, timeouts out of reach, at most 5% waiting",
		[]string{"seek", "--smallest", "workers", "--from", "1", "--to", "40", "--waited", "0.05", "--normal-rps", "150", "--sale-rps", "150", "--timeout-ms", "3600000", "--seeds", "20"}},
}

func TestSweepGolden(t *testing.T) {
	for _, tc := range sweepGolden {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, err := runArgs(t, tc.args...)
			require.NoError(t, err, tc.reason)
			assert.NotContains(t, out, "runs (", "progress stays off stdout")
			if strings.Contains(tc.name, "sale-rps") {
				runs := report.Count(31 * len(sim.Policies) * 10) // 31 sale rates x every policy x 10 seeds
				assert.Contains(t, errOut, "shedsim: "+runs+" of "+runs+" runs (100%)", "a long request shows its progress on stderr, as --seeds does")
			}
			path := filepath.Join("testdata", tc.name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(path, []byte(out), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test ./tools/shedsim -update to create %s", path)
			assert.Equal(t, string(want), out, "%s (-want +got): refresh with -update if the change is intended", tc.reason)
		})
	}
}

// TestReadmeSweepCommands checks that every sweep, map and seek command
// the README shows is one the golden test runs, so that what users are
// told to type is what is pinned.
func TestReadmeSweepCommands(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	var found int
	for _, line := range strings.Split(string(readme), "\n") {
		cmd, _, _ := strings.Cut(line, "#")
		fields := strings.Fields(cmd)
		if len(fields) < 4 || fields[0] != "go" || fields[2] != "./tools/shedsim" || sweeps[fields[3]] == nil {
			continue
		}
		found++
		args := fields[3:]
		assert.True(t, slices.ContainsFunc(sweepGolden, func(g struct {
			name, reason string
			args         []string
		}) bool {
			return slices.Equal(g.args, args)
		}), "README's %q is not among the golden invocations", strings.Join(args, " "))
	}
	assert.Equal(t, 3, found, "the README shows a sweep, a map and a seek")
}

// TestSweepJSONIsThePackage checks that --json prints sweep.Run's Sweep
// for the Spec the flags describe.
func TestSweepJSONIsThePackage(t *testing.T) {
	out, _, err := runArgs(t, "sweep", "--knob", "timeout-ms", "--from", "1000", "--to", "4000", "--steps", "4", "--seeds", "3", "--policy", "codel", "--retries", "1", "--json")
	require.NoError(t, err)
	var got sweep.Sweep
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	base := sim.DefaultConfig()
	base.Policy, base.Retries = sim.CoDel, 1
	want, err := sweep.Run(sweep.Spec{Base: base, Knob: "timeout-ms", From: 1000, To: 4000, Steps: 4, Seeds: 3, Policies: []sim.Policy{sim.CoDel}, Below: 0.5})
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

// TestSweepKeepsWhatCountsSomewhere: a setting that counts at some
// setting of the range is kept: the retry delay, with retries swept from 0.
func TestSweepKeepsWhatCountsSomewhere(t *testing.T) {
	_, _, err := runArgs(t, "sweep", "--knob", "retries", "--from", "0", "--to", "1", "--steps", "2", "--seeds", "1", "--policy", "bounded", "--retry-delay-ms", "500")
	assert.NoError(t, err)
}

func TestSweepBadInput(t *testing.T) {
	cases := []struct {
		reason string
		args   []string
		want   []string
	}{
		{"no knob", []string{"sweep", "--from", "1", "--to", "2"}, []string{"sweep: --knob must be given"}},
		{"no range", []string{"sweep", "--knob", "workers"}, []string{"sweep: --from, --to must be given"}},
		{"a knob that is not one", []string{"sweep", "--knob", "colour", "--from", "1", "--to", "2"}, []string{`sweep: --knob: "colour" is not a numeric field: use one of workers, service-ms, service-p99-ms, normal-rps, sale-rps,`}},
		{"the seed", []string{"sweep", "--knob", "seed", "--from", "1", "--to", "2"}, []string{"sweep: --knob: the seed is not a knob"}},
		{"uneven whole steps", []string{"sweep", "--knob", "workers", "--from", "8", "--to", "20"}, []string{"sweep: --steps: --workers is a whole number, and 11 steps from 8 to 20 are 1.2 apart: use 2, 3, 4, 5, 7 or 13 steps"}},
		{"a threshold in percent", []string{"sweep", "--knob", "workers", "--from", "8", "--to", "18", "--below", "50"}, []string{"sweep: --below: 50 is out of range: use a share from 0 to 1"}},
		{"text for the steps", []string{"sweep", "--knob", "workers", "--from", "8", "--to", "18", "--steps", "ten"}, []string{`sweep: --steps: "ten" is not a whole number: use a whole number from 1 to 1,000`}},
		// Issue 27, item 8: the messages an audit found wanting.
		{"a sweep's steps in an exponent get the range", []string{"sweep", "--knob", "workers", "--from", "1", "--to", "40", "--steps", "1e9"}, []string{`sweep: --steps: 1,000,000,000 is out of range: use a whole number from 1 to 1,000`}},
		{"a sweep's seeds in an exponent", []string{"sweep", "--knob", "workers", "--from", "1", "--to", "40", "--steps", "40", "--seeds", "1e6"}, []string{`sweep: --seeds: 1,000,000 is out of range: use a whole number from 1 to 1,000`}},
		{"a map's steps in an exponent", []string{"map", "--x", "workers", "--y", "retries", "--x-steps", "1e9", "--x-from", "1", "--x-to", "40", "--y-from", "0", "--y-to", "3", "--y-steps", "4"}, []string{`map: --x-steps: 1,000,000,000 is out of range: use a whole number from 1 to 1,000`}},
		{"steps that are not whole", []string{"sweep", "--knob", "workers", "--from", "1", "--to", "40", "--steps", "1.5"}, []string{`sweep: --steps: "1.5" is not a whole number: use a whole number from 1 to 1,000`}},
		{"a 100 KB value is cut", []string{"--workers", strings.Repeat("x", 100_000)}, []string{`--workers: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (100,000 characters) is not a whole number`}},
		{"a 100 KB policy is cut", []string{"--policy", strings.Repeat("x", 100_000)}, []string{`--policy: unknown policy "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (100,000 characters): use one of fifo`}},
		{"a 100 KB sample is cut", []string{"--sample", strings.Repeat("x", 100_000)}, []string{`--sample: no sample "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (100,000 characters)`}},
		{"an underscore for a dash", []string{"--sale_rps", "100"}, []string{"flag provided but not defined: --sale_rps: did you mean --sale-rps? (see --help)"}},
		{"a capital", []string{"seek", "--Workers=3"}, []string{"seek: flag provided but not defined: --Workers: did you mean --workers?"}},
		{"a flag after --, which ends the flags", []string{"--", "--workers", "0"}, []string{`unexpected argument "--workers" after --, which ends the flags: drop the --`}},
		{"seeds past the largest say how to fit", []string{"--seeds", "3", "--seed", "9007199254740991"}, []string{"pass the largest seed, 9,007,199,254,740,991: start from seed 9,007,199,254,740,989 or below, or run fewer seeds"}},
		{"a stray word to plan gets the hint", []string{"plan", "fifo"}, []string{`plan: unexpected argument "fifo": flags start with --, such as --rate-rps 150 (see --help)`}},
		{"a service shape that is not one, in the --flag: form", []string{"--service", "nope"}, []string{`--service: unknown service shape "nope": use one of exponential, lognormal, constant, histogram`}},
		{"a step the engine refuses", []string{"sweep", "--knob", "sale-rps", "--from", "100", "--to", "2000000", "--steps", "2"}, []string{"sweep: at sale_rps 2,000,000/s: --sale-rps: 2,000,000 is too large"}},
		{"a bad base", []string{"sweep", "--knob", "sale-rps", "--from", "100", "--to", "200", "--workers", "0"}, []string{"--workers: 0 is out of range"}},
		{"over the budget", []string{"sweep", "--knob", "sale-rps", "--from", "100", "--to", "250", "--steps", "31", "--seeds", "1000"},
			[]string{"sweep: --seeds: this would send about " + report.Count(31*len(sim.Policies)*1000*27_300) + " attempts (31 steps x " + report.Count(len(sim.Policies)) +
				" policies x 1,000 seeds), over the budget of 300,000,000 a request: at most " + report.Count(300_000_000/(31*len(sim.Policies)*27_300)) + " seeds fit"}},
		{"a knob given as a flag too", []string{"sweep", "--knob", "workers", "--from", "8", "--to", "18", "--workers", "10"}, []string{"sweep: --workers: --knob workers varies it; drop --workers"}},
		{"a knob the policy ignores", []string{"seek", "--smallest", "queue", "--from", "1", "--to", "150", "--answered", "0.66"},
			[]string{"seek: --smallest queue: it changes nothing here: it needs --policy bounded or --policy priority (the policy is fifo)"}},
		{"a knob the client ignores", []string{"sweep", "--knob", "budget-tokens", "--from", "100", "--to", "500", "--steps", "5", "--retries", "3"},
			[]string{"sweep: --knob: --budget-tokens changes nothing here: it needs --client budget"}},
		{"a map's knob the policy ignores", []string{"map", "--x", "sale-rps", "--x-from", "100", "--x-to", "200", "--y", "codel-target-ms", "--y-from", "1", "--y-to", "16"},
			[]string{"map: --y: --codel-target-ms changes nothing here: it needs --policy codel or --policy lifo"}},
		{"a setting that counts nowhere in the range", []string{"sweep", "--knob", "sale-rps", "--from", "100", "--to", "200", "--budget-tokens", "3"}, []string{"sweep: --budget-tokens: needs --client budget"}},
		{"json and csv", []string{"sweep", "--knob", "workers", "--from", "8", "--to", "18", "--json", "--csv"}, []string{"sweep: --json and --csv print different things"}},
		{"an unknown policy", []string{"sweep", "--knob", "workers", "--from", "8", "--to", "18", "--policy", "random"}, []string{`sweep: --policy: unknown policy "random"`}},
		{"a stray argument", []string{"sweep", "workers"}, []string{`sweep: unexpected argument "workers"`}},
		{"the same knob twice", []string{"map", "--x", "sale-rps", "--x-from", "100", "--x-to", "200", "--y", "spike", "--y-from", "0", "--y-to", "3"}, []string{"map: --y: is --sale-rps, the same knob as the other axis"}},
		{"a map without y", []string{"map", "--x", "sale-rps", "--x-from", "100", "--x-to", "200"}, []string{"map: --y, --y-from, --y-to must be given"}},
		{"a map's uneven y", []string{"map", "--x", "sale-rps", "--x-from", "100", "--x-to", "200", "--y", "retries", "--y-from", "0", "--y-to", "3"}, []string{"map: --y-steps: --retries is a whole number, and 6 steps"}},
		{"no direction", []string{"seek", "--from", "1", "--to", "40", "--answered", "0.9"}, []string{"seek: give one of --smallest KNOB and --largest KNOB"}},
		{"both directions", []string{"seek", "--smallest", "workers", "--largest", "workers", "--from", "1", "--to", "40", "--answered", "0.9"}, []string{"seek: give one of"}},
		{"no goal", []string{"seek", "--smallest", "workers", "--from", "1", "--to", "40"}, []string{"seek: no goal is set: give at least one of --answered, --back, --p99-wait-ms, --p99-queue-wait-ms and --waited"}},
		{"a goal in percent", []string{"seek", "--smallest", "workers", "--from", "1", "--to", "40", "--answered", "90"}, []string{"seek: --answered: 90 is out of range: use a share from 0 to 1"}},
		{"a range upside down", []string{"seek", "--largest", "sale-rps", "--from", "300", "--to", "100", "--back", "0.9"}, []string{"seek: --to: 100 is not above --from, 300: give the range low to high (--largest chooses the direction)"}},
		{"a retry delay with no retries in the range", []string{"seek", "--largest", "sale-rps", "--from", "100", "--to", "300", "--back", "0.9", "--retry-delay-ms", "500"}, []string{"seek: --retry-delay-ms: needs"}},
		{"a knob that is not one", []string{"seek", "--largest", "policy", "--from", "1", "--to", "2", "--back", "0.9"}, []string{`seek: --largest: "policy" is not a numeric field`}},
	}
	for _, tc := range cases {
		t.Run(tc.reason, func(t *testing.T) {
			out, errOut, err := runArgs(t, tc.args...)
			assert.Empty(t, errOut)
			require.Error(t, err, tc.reason)
			var ue usageError
			assert.ErrorAs(t, err, &ue, "bad input exits 2: %s", tc.reason)
			assert.NotContains(t, err.Error(), "\n", "the error is one line")
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w, tc.reason)
			}
			assert.Empty(t, out, "nothing on stdout for bad input")
		})
	}
}

// TestSweepBudgetIsTheCommands checks that a sweep is held to the budget
// --seeds is, as issue 14 asks of sweeps.
func TestSweepBudgetIsTheCommands(t *testing.T) {
	assert.Equal(t, float64(MaxCommandAttempts), float64(sweep.MaxAttempts))
}

func TestSweepHelp(t *testing.T) {
	for _, sub := range []string{"sweep", "map", "seek"} {
		out, _, err := runArgs(t, sub, "--help")
		require.NoError(t, err, sub)
		assert.True(t, strings.HasPrefix(out, "Usage: shedsim "+sub+" "), "%s --help starts with its usage", sub)
		assert.Contains(t, out, "-seeds", "%s --help lists its flags", sub)
	}
}

// TestFlagOwnWordsOnce: a value a flag refuses in its own words is quoted
// once, in the --flag: form every other message has (issue 27, item 8:
// `invalid value "nope" for flag --service: unknown service shape "nope"`).
func TestFlagOwnWordsOnce(t *testing.T) {
	cases := []struct {
		reason string
		args   []string
		want   string
	}{
		{"the service's shape", []string{"--service", "nope"}, `--service: unknown service shape "nope": use one of exponential, lognormal, constant, histogram`},
		{"and a sweep's", []string{"sweep", "--knob", "workers", "--from", "1", "--to", "9", "--service", "nope"}, `sweep: --service: unknown service shape "nope": use one of exponential, lognormal, constant, histogram`},
	}
	for _, tc := range cases {
		_, _, err := runArgs(t, tc.args...)
		require.Error(t, err, tc.reason)
		assert.Equal(t, tc.want, err.Error(), tc.reason)
	}
}
