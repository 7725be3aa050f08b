package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func runArgs(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(args, &out, &errOut)
	return out.String(), errOut.String(), err
}

// TestGolden pins the command line's output for the post's invocations.
func TestGolden(t *testing.T) {
	cases := []struct {
		name, reason string
		args         []string
	}{
		{"tables", "shedsim with no flags prints the post's tables", nil},
		{"timeline", "shedsim --timeline prints answered per 10 s, every policy", []string{"--timeline"}},
		{"fifo-retries1-spike150", "the post's own one-run invocation", []string{"--policy", "fifo", "--retries", "1", "--spike", "150"}},
		{"sample-envoy", "a sample by name", []string{"--sample", "envoy"}},
		{"plan-sale", "the planner at the sale's numbers", []string{"plan", "--rate-rps", "150", "--service-ms", "80"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := runArgs(t, tc.args...)
			require.NoError(t, err, tc.reason)
			path := filepath.Join("testdata", tc.name+".golden")
			if *update {
				require.NoError(t, os.MkdirAll("testdata", 0o755))
				require.NoError(t, os.WriteFile(path, []byte(out), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test ./tools/shedsim -update to create %s", path)
			assert.Equal(t, string(want), out, "%s (-want +got): refresh with -update if the change is intended", tc.reason)
		})
	}
}

// TestPostLines checks the lines the post quotes appear word for word.
func TestPostLines(t *testing.T) {
	out, _, err := runArgs(t)
	require.NoError(t, err)
	for _, line := range []string{
		"The fluid view: after the sale, an unbounded queue drains only if every person's tries fit",
		"  retries=0: 70/s x 1 tries = 70/s against 100/s, drains",
		"  retries=1: 70/s x 2 tries = 140/s against 100/s, never drains",
		"  retries=2: 70/s x 3 tries = 210/s against 100/s, never drains",
		"  retries=3: 70/s x 4 tries = 280/s against 100/s, never drains",
	} {
		assert.Contains(t, out, line+"\n", "the post prints this line")
	}
	plan, _, err := runArgs(t, "plan", "--rate-rps", "150", "--service-ms", "80", "--target", "0.05")
	require.NoError(t, err)
	assert.Contains(t, plan, "wait at all: 19.", "the post: it says 19 servers")
	assert.Contains(t, plan, "With 18, 7.56% wait at all; with 19, 4.35%.", "the post: with 18, 7.56%; with 19, 4.35%")
	one, _, err := runArgs(t, "--sample", "sale")
	require.NoError(t, err)
	assert.Contains(t, one, "Or run 13 workers", "the post: it suggests 13 workers")
	assert.Contains(t, one, "Switch to the bounded queue", "the post: it suggests the bounded queue")
}

func TestBadInput(t *testing.T) {
	cases := []struct {
		reason string
		args   []string
		want   []string // substrings of the one-line error
	}{
		{"zero workers", []string{"--workers", "0"}, []string{"--workers: 0", "from 1 to"}},
		{"NaN rate", []string{"--sale-rps", "NaN"}, []string{"--sale-rps: NaN is not a number"}},
		{"infinite timeout", []string{"--timeout-ms", "+Inf"}, []string{"--timeout-ms: +Inf is not a finite number"}},
		{"negative service", []string{"--service-ms", "-80"}, []string{"--service-ms: -80 is too small"}},
		{"a service no one types", []string{"--service-ms", "1e308"}, []string{"--service-ms: 1e+308 is too large"}},
		{"two problems, both named", []string{"--workers", "-1", "--order-share", "2"}, []string{"--workers:", "--order-share: 2 is too large"}},
		{"absurd traffic is over the budget", []string{"--sale-rps", "900000"}, []string{"--sale-rps:", "budget"}},
		{"unknown policy", []string{"--policy", "random"}, []string{"--policy: unknown policy \"random\"", "fifo"}},
		{"unknown sample", []string{"--sample", "nope"}, []string{"--sample: no sample \"nope\"", "sale"}},
		{"not a number", []string{"--workers", "eight"}, []string{`--workers: "eight" is not a whole number: use a whole number from 1 to 100000`}},
		{"more than an int holds", []string{"--workers", "99999999999999999999"}, []string{`--workers: "99999999999999999999" is out of range: use a whole number from 1 to`}},
		{"a negative seed", []string{"--seed", "-1"}, []string{`--seed: "-1" is too small: use a whole number from 0 to 9007199254740991`}},
		{"text for a rate", []string{"--spike", "lots"}, []string{`--spike: "lots" is not a number: use a number from 0 to`}},
		{"text for the seeds", []string{"--seeds", "many"}, []string{`--seeds: "many" is not a whole number: use a whole number from 1 to 1000`}},
		{"text for the plan", []string{"plan", "--target", "most"}, []string{`plan: --target: "most" is not a number: use a fraction`}},
		{"unknown flag", []string{"--speed", "3"}, []string{"flag provided but not defined: --speed"}},
		{"stray argument", []string{"fifo"}, []string{"unexpected argument \"fifo\""}},
		{"spike and sale-rps together", []string{"--spike", "150", "--sale-rps", "200"}, []string{"same setting"}},
		{"no seeds", []string{"--seeds", "0"}, []string{"--seeds: 0 is out of range: use a whole number from 1 to 1000"}},
		{"two outputs", []string{"--seeds", "3", "--timeline"}, []string{"--seeds and --timeline print different things"}},
		{"json with a table", []string{"--timeline", "--json"}, []string{"--json: --timeline prints a table"}},
		{"json with the seeds", []string{"--seeds", "3", "--json"}, []string{"--json: --seeds prints a table"}},
		{"json with the list", []string{"--sample", "list", "--json"}, []string{"--json: --sample list"}},
		{"the lab takes no config", []string{"--lab", "--seed", "7"}, []string{"--seed: --lab prints the lab's own 162 runs"}},
		{"the list takes no config", []string{"--sample", "list", "--workers", "3"}, []string{"--workers: --sample list only lists"}},
		{"a policy the timeline ignores", []string{"--timeline", "--policy", "bounded"}, []string{"--policy: --timeline shows every policy"}},
		{"a client the comparison ignores", []string{"--clients", "--client", "budget"}, []string{"--client: --clients compares every client strategy"}},
		{"a float out of range", []string{"--service-ms", "1e400"}, []string{`--service-ms: "1e400" is out of range: use a number from`}},
		{"seeds past the largest", []string{"--seed", "9007199254740991", "--seeds", "2"}, []string{"pass the largest seed"}},
		{"too many seeds", []string{"--seeds", "5000"}, []string{"--seeds: 5000 is out of range"}},
		{"bad plan", []string{"plan", "--target", "1.5"}, []string{"plan: --target:"}},
	}
	for _, tc := range cases {
		t.Run(tc.reason, func(t *testing.T) {
			out, errOut, err := runArgs(t, tc.args...)
			assert.Empty(t, errOut, "the error is the one line main prints; no usage dump")
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

func TestJSONIsTheEngine(t *testing.T) {
	out, _, err := runArgs(t, "--policy", "bounded", "--retries", "3", "--seed", "7", "--json")
	require.NoError(t, err)
	var got sim.Result
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	c := sim.DefaultConfig()
	c.Policy, c.Retries, c.Seed = sim.Bounded, 3, 7
	want, err := sim.Run(c)
	require.NoError(t, err)
	assert.Equal(t, want, got, "--json prints sim.Run's Result unchanged")
}

func TestLab(t *testing.T) {
	out, _, err := runArgs(t, "--lab")
	require.NoError(t, err)
	var rs []sim.Result
	require.NoError(t, json.Unmarshal([]byte(out), &rs))
	require.Len(t, rs, 162, "6 policies x 3 retries x 3 sale rates x 3 timeouts")
	assert.Equal(t, sim.Lab()[161], rs[161].Config, "the lab's order is sim.Lab's")
}

func TestSeeds(t *testing.T) {
	out, _, err := runArgs(t, "--seeds", "3", "--policy", "bounded")
	require.NoError(t, err)
	assert.Contains(t, out, "seeds 1 to 3")
	assert.Contains(t, out, "Bounded queue")
	assert.NotContains(t, out, "Unbounded queue", "--policy limits --seeds to one policy")
	assert.Equal(t, 4, strings.Count(out, "\n"), "a title, a blank line, a header and one row")

	// A sale of 1 a second for 1 s brings nobody in some seeds: the shares
	// are over the others, and the table says how many.
	out, _, err = runArgs(t, "--seeds", "8", "--policy", "fifo", "--normal-rps", "0", "--sale-rps", "1", "--sale-s", "1")
	require.NoError(t, err)
	var with int
	for seed := uint64(1); seed <= 8; seed++ {
		c := sim.DefaultConfig()
		c.NormalRPS, c.SaleRPS, c.SaleS, c.Seed = 0, 1, 1, seed
		r, err := sim.Run(c)
		require.NoError(t, err)
		if r.Sale.People > 0 {
			with++
		}
		assert.Equal(t, sim.Unmeasured, r.Recovery, "seed %d: nobody after the sale", seed)
	}
	require.Less(t, with, 8, "some seeds bring nobody")
	assert.Contains(t, out, fmt.Sprintf("Shares are over the %d of 8 seeds in which anyone arrived during the sale.", with))
	assert.Contains(t, out, "8 unmeasured", "the Not back column")
}

func TestSampleFlagsOverride(t *testing.T) {
	out, _, err := runArgs(t, "--sample", "retries", "--retries", "1", "--json")
	require.NoError(t, err)
	var r sim.Result
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	assert.Equal(t, 1, r.Config.Retries, "a flag given with --sample overrides the sample")
	assert.Equal(t, sim.FIFO, r.Config.Policy, "the rest is the sample's")
}

// TestSwitchGivenAsFalse: --timeline=false is --timeline not given, so it
// asks for no second output.
func TestSwitchGivenAsFalse(t *testing.T) {
	want, _, err := runArgs(t, "--seeds", "2")
	require.NoError(t, err)
	got, _, err := runArgs(t, "--timeline=false", "--json=false", "--seeds", "2")
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

// TestEveryFieldIsAFlag: every Config field but the policy and the client
// (read as words) is a flag, its JSON key with dashes, and every one given
// with --sample overrides the sample.
func TestEveryFieldIsAFlag(t *testing.T) {
	want := sim.Config{
		Policy: sim.LIFO, Workers: 13, ServiceMS: 42.5, NormalRPS: 60.5, SaleRPS: 140.25,
		SaleStartS: 30, SaleS: 45.5, DurationS: 200, TimeoutMS: 1500, Retries: 2,
		RetryDelayMS: 750, RetryJitterMS: 7, Queue: 1024, RefusalCostMS: 3.5,
		OrderShare: 0.35, CoDelTargetMS: 7.5, CoDelIntervalMS: 150, Client: sim.Ratio,
		BackoffBaseMS: 500, BackoffCapMS: 9000, BudgetTokens: 400, BudgetRefusalCost: 4,
		BudgetTimeoutCost: 8, BudgetRefill: 2, RatioMax: 0.15, ThrottleK: 1.5,
		ClientWindowS: 60, Seed: 77,
	}
	fs := flag.NewFlagSet("fields", flag.ContinueOnError)
	c := want
	configFlags(fs, &c)
	typ := reflect.TypeOf(want)
	for i := range typ.NumField() {
		key, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if key != "policy" && key != "client" {
			assert.NotNil(t, fs.Lookup(strings.ReplaceAll(key, "_", "-")), "sim.Config.%s has no flag --%s", typ.Field(i).Name, strings.ReplaceAll(key, "_", "-"))
		}
	}

	args := []string{"--sample", "retries", "--policy", "lifo", "--client", "ratio", "--json"}
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name != "spike" { // the same field as --sale-rps
			args = append(args, "--"+f.Name, f.Value.String())
		}
	})
	out, _, err := runArgs(t, args...)
	require.NoError(t, err)
	var r sim.Result
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	assert.Equal(t, want, r.Config, "every flag given with --sample overrides the sample")
}
