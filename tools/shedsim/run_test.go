package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/plan"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/sim/version"
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
		{"chain", "one run of a chain, from its file: the run, then the chain's table, bottleneck, retries and fluid view",
			[]string{"--policy", "fifo", "--workers", "24", "--service-ms", "20", "--hops", "samples/chain.txt"}},
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

// TestPostLines checks the lines the post quotes appear word for word, but
// for "1 try", which the post prints as "1 tries".
func TestPostLines(t *testing.T) {
	out, _, err := runArgs(t)
	require.NoError(t, err)
	for _, line := range []string{
		"The fluid view: after the sale, an unbounded queue drains only if every person's tries fit",
		"  retries=0: 70/s x 1 try = 70/s against 100/s, drains",
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
	assert.Contains(t, one, "Run 13 workers", "the post: it suggests 13 workers")
	assert.Contains(t, one, "Switch to the bounded queue", "the post: it suggests the bounded queue")
}

func TestBadInput(t *testing.T) {
	cases := []struct {
		reason string
		args   []string
		want   []string // substrings of the one-line error
	}{
		{"zero workers", []string{"--workers", "0"}, []string{"--workers: 0", "from 1 to"}},
		{"NaN rate", []string{"--sale-rps", "NaN"}, []string{`--sale-rps: "NaN" is not a number`}},
		{"infinite timeout", []string{"--timeout-ms", "+Inf"}, []string{`--timeout-ms: "+Inf" is not a number: use a number above 0`}},
		{"negative service", []string{"--service-ms", "-80"}, []string{"--service-ms: -80 is too small"}},
		{"a service no one types", []string{"--service-ms", "1e308"}, []string{"--service-ms: 1e+308 is too large"}},
		{"two problems, both named", []string{"--workers", "-1", "--order-share", "2"}, []string{"--workers:", "--order-share: 2 is too large"}},
		{"absurd traffic is over the budget", []string{"--sale-rps", "900000"}, []string{"--sale-rps:", "budget"}},
		{"unknown policy", []string{"--policy", "random"}, []string{"--policy: unknown policy \"random\"", "fifo"}},
		{"unknown sample", []string{"--sample", "nope"}, []string{"--sample: no sample \"nope\"", "sale"}},
		{"not a number", []string{"--workers", "eight"}, []string{`--workers: "eight" is not a whole number: use a whole number from 1 to 100,000`}},
		{"more than an int holds", []string{"--workers", "99999999999999999999"}, []string{`--workers: "99999999999999999999" is out of range: use a whole number from 1 to`}},
		{"a negative seed", []string{"--seed", "-1"}, []string{`--seed: "-1" is too small: use a whole number from 0 to 9,007,199,254,740,991`}},
		{"text for a rate", []string{"--spike", "lots"}, []string{`--spike: "lots" is not a number: use a number from 0 to`}},
		{"text for the seeds", []string{"--seeds", "many"}, []string{`--seeds: "many" is not a whole number: use a whole number from 1 to 1,000`}},
		{"text for the plan", []string{"plan", "--target", "most"}, []string{`plan: --target: "most" is not a number: use a fraction`}},
		{"unknown flag", []string{"--speed", "3"}, []string{"flag provided but not defined: --speed"}},
		{"stray argument", []string{"fifo"}, []string{"unexpected argument \"fifo\""}},
		{"spike and sale-rps together", []string{"--spike", "150", "--sale-rps", "200"}, []string{"same setting"}},
		{"no seeds", []string{"--seeds", "0"}, []string{"--seeds: 0 is out of range: use a whole number from 1 to 1,000"}},
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
		{"too many seeds", []string{"--seeds", "5000"}, []string{"--seeds: 5,000 is out of range"}},
		{"bad plan", []string{"plan", "--target", "1.5"}, []string{"plan: --target:"}},
		// Issue 14, item 1: a client setting that counts for nothing is
		// refused, naming the setting that would make it count.
		{"a budget setting without the budget client", []string{"--retries", "3", "--budget-tokens", "1"}, []string{"--budget-tokens: needs --client budget (the client is fixed)"}},
		{"the budget's refill", []string{"--retries", "3", "--budget-refill", "2"}, []string{"--budget-refill: needs --client budget"}},
		{"the budget's refusal cost", []string{"--retries", "3", "--budget-refusal-cost", "2"}, []string{"--budget-refusal-cost: needs --client budget"}},
		{"the budget's timeout cost", []string{"--retries", "3", "--budget-timeout-cost", "2"}, []string{"--budget-timeout-cost: needs --client budget"}},
		{"the ratio without the ratio client", []string{"--retries", "3", "--ratio-max", "0.2"}, []string{"--ratio-max: needs --client ratio"}},
		{"throttling's K without throttling", []string{"--retries", "3", "--throttle-k", "3"}, []string{"--throttle-k: needs --client throttle"}},
		{"a client window for neither client that keeps one", []string{"--retries", "3", "--client", "budget", "--client-window-s", "60"}, []string{"--client-window-s: needs --client ratio or --client throttle (the client is budget)"}},
		{"backoff's base without backoff", []string{"--retries", "3", "--backoff-base-ms", "50"}, []string{"--backoff-base-ms: needs --client backoff"}},
		{"backoff's cap without backoff", []string{"--retries", "3", "--backoff-cap-ms", "50"}, []string{"--backoff-cap-ms: needs --client backoff"}},
		{"jitter with no retries", []string{"--retry-jitter-ms", "50"}, []string{"--retry-jitter-ms: needs --retries above 0"}},
		{"a retry delay with no retries", []string{"--retry-delay-ms", "50"}, []string{"--retry-delay-ms: needs --retries above 0"}},
		{"a retry delay that backoff replaces", []string{"--retries", "1", "--client", "backoff", "--retry-delay-ms", "50"}, []string{"--retry-delay-ms: counts for nothing with --client backoff"}},
		{"the budget client with no retries", []string{"--client", "budget"}, []string{"--client: needs --retries above 0"}},
		{"the budget's settings with no retries", []string{"--client", "budget", "--budget-tokens", "3"}, []string{"--budget-tokens: needs --retries above 0"}},
		{"the comparison of clients with no retries", []string{"--clients", "--budget-tokens", "3"}, []string{"--budget-tokens: needs --retries above 0"}},
		// Issue 27, item 5: what the client comparison, a series and a
		// sweep of one policy do not read.
		{"the share of orders in the comparison of clients", []string{"--clients", "--order-share", "0.3"}, []string{"--order-share: needs --policy priority (the policy is fifo): only it treats orders apart, and nothing here shows how orders fared: choose it, or leave out --order-share"}},
		{"the share of orders in a series", []string{"--series", "--csv", "--order-share", "0.3"}, []string{"--order-share: needs --policy priority"}},
		{"the share of orders in one policy's seeds", []string{"--seeds", "3", "--policy", "fifo", "--order-share", "0.3"}, []string{"--order-share: needs --policy priority"}},
		{"the share of orders in a sweep of one policy", []string{"sweep", "--knob", "sale-rps", "--from", "100", "--to", "200", "--steps", "3", "--seeds", "2", "--policy", "fifo", "--csv", "--order-share", "0.3"}, []string{"sweep: --order-share: needs --policy priority"}},
		{"the budget's cost of a refusal under a policy that never refuses", []string{"--policy", "fifo", "--client", "budget", "--retries", "2", "--budget-refusal-cost", "2", "--json"}, []string{"--budget-refusal-cost: needs --policy bounded or"}},
		{"a queue bound for one run that has none", []string{"--policy", "fifo", "--queue", "10", "--json"}, []string{"--queue: needs --policy bounded or --policy priority (the policy is fifo)"}},
		{"the queue timeout's M for the bounded queue's run", []string{"--policy", "bounded", "--codel-target-ms", "10", "--json"}, []string{"--codel-target-ms: needs --policy codel or --policy lifo"}},
		{"a client setting with a sample that does not use it", []string{"--sample", "retries", "--ratio-max", "0.2"}, []string{"--ratio-max: needs --client ratio"}},
		// Item 2: an empty value is not "not given".
		{"an empty policy", []string{"--policy", ""}, []string{"--policy: the value is empty: give one of fifo,"}},
		{"an empty policy with --json", []string{"--policy", "", "--json"}, []string{"--policy: the value is empty"}},
		{"an empty client", []string{"--client", ""}, []string{"--client: the value is empty: give one of fixed,"}},
		{"an empty sample", []string{"--sample", " "}, []string{"--sample: the value is empty: give one of sale,", "or list"}},
		// Item 9: the whole command has a budget.
		{"an hour of seeds", []string{"--seeds", "1000", "--duration-s", "86400"}, []string{"--seeds: 1,000 seeds of every policy would simulate about " +
			report.Count(1000*len(sim.Policies)*6_052_800) + " attempts, over the budget of 300,000,000 a command"}},
		{"a day of one policy's seeds", []string{"--seeds", "100", "--policy", "fifo", "--duration-s", "86400"}, []string{"--seeds: 100 seeds would simulate about", "fewer seeds"}},
		// Item 11: messages name what the user typed.
		{"the spike is named as given", []string{"--spike", "NaN"}, []string{`--spike: "NaN" is not a number: use a number from 0 to 1,000,000 per second`}},
		{"a timeout of NaN is not told 0 will do", []string{"--timeout-ms", "NaN"}, []string{`--timeout-ms: "NaN" is not a number: use a number above 0, up to 3,600,000 ms`}},
		{"a sale too long names the flag", []string{"--sale-s", "300"}, []string{"or make --duration-s longer"}},
		{"three dashes are echoed as typed", []string{"---workers", "3"}, []string{"bad flag syntax: ---workers: a flag is --name"}},
		{"the planner's load names its flags", []string{"plan", "--rate-rps", "1000000", "--service-ms", "3600000"}, []string{"keep --rate-rps × --service-ms / 1000 at most 50,000"}},
		{"a shape's message names its flags", []string{"--patience-ms", "5"}, []string{"--patience-ms: 5 applies only to people with patience, and --patience is none: set --patience to exponential, or leave --patience-ms out"}},
		{"a lognormal without its p99 names the flags to give", []string{"--service", "lognormal"}, []string{"--service-p99-ms: a lognormal service needs its 99th percentile: give --service-p99-ms in ms, above the mean --service-ms and"}},
		{"patience without its mean names the flag to give", []string{"--patience", "exponential"}, []string{"--patience-ms: exponential patience needs its mean: give --patience-ms, the mean time"}},
		{"the budget's counts are grouped", []string{"--seed", "9007199254740991", "--seeds", "2"}, []string{"2 seeds from 9,007,199,254,740,991 pass the largest seed, 9,007,199,254,740,991"}},
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

// TestSettingsThatCount: a setting is refused only where it counts for
// nothing; where it counts it is taken, and it changes the answer.
func TestSettingsThatCount(t *testing.T) {
	cases := []struct {
		reason     string
		with, base []string
	}{
		{"the budget client's quota", []string{"--policy", "fifo", "--retries", "3", "--client", "budget", "--budget-tokens", "1", "--json"}, []string{"--policy", "fifo", "--retries", "3", "--client", "budget", "--json"}},
		{"the quota in the comparison of clients", []string{"--clients", "--retries", "3", "--budget-tokens", "1"}, []string{"--clients", "--retries", "3"}},
		{"throttling needs no retries", []string{"--policy", "fifo", "--client", "throttle", "--throttle-k", "1", "--json"}, []string{"--policy", "fifo", "--client", "throttle", "--json"}},
		{"the queue bound in the tables of every policy", []string{"--queue", "10"}, nil},
		{"the queue bound in one run's view, which compares every policy", []string{"--policy", "fifo", "--queue", "10"}, []string{"--policy", "fifo"}},
		{"the share of orders in the comparison of clients under priority for orders", []string{"--clients", "--retries", "3", "--policy", "priority", "--order-share", "0.5"}, []string{"--clients", "--retries", "3", "--policy", "priority"}},
		{"the share of orders in one run's Result, which counts the orders", []string{"--policy", "fifo", "--json", "--order-share", "0.5"}, []string{"--policy", "fifo", "--json"}},
		{"the share of orders in the tables, which count orders", []string{"--order-share", "0.5"}, nil},
	}
	for _, tc := range cases {
		with, _, err := runArgs(t, tc.with...)
		require.NoError(t, err, tc.reason)
		base, _, err := runArgs(t, tc.base...)
		require.NoError(t, err, tc.reason)
		assert.NotEqual(t, base, with, "%s changes the answer", tc.reason)
	}
}

// TestHelp: --help spells flags as the README and the errors do, with two
// dashes, and the planner's usage line shows its real defaults.
func TestHelp(t *testing.T) {
	out, _, err := runArgs(t, "--help")
	require.NoError(t, err)
	assert.Contains(t, out, "\n  --workers int\n")
	assert.Contains(t, out, "\n  --spike float\n")
	assert.NotRegexp(t, `(?m)^  -[a-z]`, out, "no flag with one dash")
	in := plan.DefaultInput()
	want := fmt.Sprintf("shedsim plan [--rate-rps %g --service-ms %g --target %g", in.RateRPS, in.ServiceMS, in.Target)
	assert.Contains(t, out, want)
	out, _, err = runArgs(t, "plan", "--help")
	require.NoError(t, err)
	assert.Contains(t, out, want)
	assert.Contains(t, out, "\n  --rate-rps float\n")
	// A flag given twice takes its last value, and every --help says so
	// (issue 27, item 8).
	for _, args := range [][]string{{"--help"}, {"plan", "--help"}, {"sweep", "--help"}, {"map", "--help"}, {"seek", "--help"}} {
		out, _, err := runArgs(t, args...)
		require.NoError(t, err)
		assert.Contains(t, out, "a flag given twice takes its last value", "%v", args)
	}
	twice, _, err := runArgs(t, "--policy", "fifo", "--workers", "3", "--workers", "13", "--json")
	require.NoError(t, err)
	assert.Contains(t, twice, `"workers": 13,`, "the last --workers counts")
}

// TestProgress: a long command says how far it has got on stderr, and a
// short one says nothing there.
func TestProgress(t *testing.T) {
	_, errOut, err := runArgs(t, "--seeds", "2", "--policy", "fifo")
	require.NoError(t, err)
	assert.Empty(t, errOut, "a short command is quiet")
	old := progressAttempts
	progressAttempts = 0 // any command is long
	defer func() { progressAttempts = old }()
	out, errOut, err := runArgs(t, "--seeds", "2", "--policy", "fifo")
	require.NoError(t, err)
	assert.Contains(t, errOut, "shedsim: 1 of 2 runs (50%)", "the first run is reported")
	assert.Contains(t, errOut, "shedsim: 2 of 2 runs (100%)", "and the last")
	assert.NotContains(t, out, "runs (", "progress stays off stdout")
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
		Policy: sim.LIFO, Workers: 13, ServiceMS: 42.5, Service: sim.LognormalService, ServiceP99MS: 300,
		NormalRPS: 60.5, SaleRPS: 140.25, SaleStartS: 30, SaleS: 45.5, DurationS: 200, TimeoutMS: 1500,
		Patience: sim.ExponentialPatience, PatienceMS: 900, Retries: 2,
		RetryDelayMS: 750, RetryJitterMS: 7, Queue: 1024, RefusalCostMS: 3.5,
		OrderShare: 0.35, CoDelTargetMS: 7.5, CoDelIntervalMS: 150, Client: sim.Ratio,
		BackoffBaseMS: 500, BackoffCapMS: 9000, BudgetTokens: 400, BudgetRefusalCost: 4,
		BudgetTimeoutCost: 8, BudgetRefill: 2, RatioMax: 0.15, ThrottleK: 1.5,
		ClientWindowS: 60, Seed: 77,
	}
	for _, p := range sim.Policies { // each policy's own settings: past the default its 0 stands for, alone
		for _, s := range p.Declares() {
			def, err := strconv.ParseFloat(s.Zero, 64)
			require.NoError(t, err, "%s: its 0 stands for a number", s.Key)
			if s.Kind == sim.Whole {
				s.Of(&want).SetInt(int64(def) + 1)
			} else {
				s.Of(&want).SetFloat((def + s.Max) / 2)
			}
		}
	}
	fs := flag.NewFlagSet("fields", flag.ContinueOnError)
	c := want
	configFlags(fs, &c)
	for _, f := range reflect.VisibleFields(reflect.TypeFor[sim.Config]()) {
		key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.Anonymous && key != "policy" && key != "client" {
			assert.NotNil(t, fs.Lookup(strings.ReplaceAll(key, "_", "-")), "sim.Config.%s has no flag --%s", f.Name, strings.ReplaceAll(key, "_", "-"))
		}
	}

	// One run per flag, with a policy and a client it counts for (a
	// setting that would count for nothing is refused), since no one run
	// reads them all: its owner's, else lifo and ratio.
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == "spike" { // the same field as --sale-rps
			return
		}
		key := strings.ReplaceAll(f.Name, "-", "_")
		s, ok := sim.SettingByKey(key)
		require.True(t, ok, "--%s is a setting", f.Name)
		pc := [2]string{"lifo", "ratio"}
		if owners := policiesReading(key); owners != nil {
			pc[0] = owners[0]
		}
		if s.Owner.Kind == sim.ByClient {
			pc[1] = s.Owner.Clients[0].String()
		}
		value := f.Value.String()
		if s.Kind == sim.Table { // a file's name: the field holds its text
			text := map[string]string{"arrivals": "time_s,rps\n0,60\n30,140\n75,60\n", "service_histogram": "le,count\n0.05,40\n0.1,90\n+Inf,100\n",
				"hops": "payments: workers=4 service_ms=10 timeout_ms=1000"}[key]
			require.NotEmpty(t, text, "--%s: a table to read", f.Name)
			value = filepath.Join(t.TempDir(), key+".csv")
			require.NoError(t, os.WriteFile(value, []byte(text), 0o644))
			s.Of(&want).SetString(text)
		}
		args := []string{"--sample", "retries", "--policy", pc[0], "--client", pc[1], "--json", "--" + f.Name, value}
		// A shape and its number come together: neither is valid alone;
		// go-zero's own settings need its rule.
		gozero := []string{"--bbr-rule", "gozero"}
		pairs := map[string][]string{"service": {"--service-p99-ms", "300"}, "service-p99-ms": {"--service", "lognormal"},
			"patience": {"--patience-ms", "900"}, "patience-ms": {"--patience", "exponential"},
			"bbr-flying-beta": gozero, "bbr-min-rt-ms": gozero, "bbr-overload-floor": gozero}
		out, _, err := runArgs(t, append(args, pairs[f.Name]...)...)
		require.NoError(t, err, "--%s", f.Name)
		var r sim.Result
		require.NoError(t, json.Unmarshal([]byte(out), &r))
		assert.Equal(t, s.Of(&want).Interface(), s.Of(&r.Config).Interface(), "--%s given with --sample overrides the sample", f.Name)
	})
}

// TestREADME runs what the README's command-line section tells people to
// type: every go run line works, and every "$ shedsim" example prints the
// lines below it.
func TestREADME(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(b), "## The command line\n")
	require.True(t, ok, "the README has a command-line section")
	t.Chdir("../..") // its commands run from the checkout's top, its paths written from there
	section, _, _ = strings.Cut(section, "\n## ")
	lines := strings.Split(section, "\n")
	var ran, examples int
	for i, line := range lines {
		if rest, ok := strings.CutPrefix(line, "go run ./tools/shedsim"); ok {
			rest, _, _ = strings.Cut(rest, "#")
			rest, _, _ = strings.Cut(rest, ">")
			_, _, err := runArgs(t, strings.Fields(rest)...)
			assert.NoError(t, err, line)
			ran++
		}
		if rest, ok := strings.CutPrefix(line, "$ shedsim "); ok {
			_, _, err := runArgs(t, shellWords(t, rest)...)
			require.Error(t, err, line)
			require.Less(t, i+1, len(lines))
			assert.Equal(t, lines[i+1], "shedsim: "+err.Error(), line)
			examples++
		}
	}
	assert.GreaterOrEqual(t, ran, 8, "the README's commands")
	assert.GreaterOrEqual(t, examples, 2, "the README's error examples")
}

// shellWords splits a command line as a shell would, for the README's
// examples: words, and "" for an empty word.
func shellWords(t *testing.T, s string) []string {
	var out []string
	for _, w := range strings.Fields(s) {
		if w == `""` {
			w = ""
		}
		require.NotContains(t, w, `"`, "shellWords reads no quoting but \"\"")
		out = append(out, w)
	}
	return out
}

// TestPlanGroupsDigits: the planner writes server counts as every other
// count, grouped (issue 14, item 11: "the plan's 50390").
func TestPlanGroupsDigits(t *testing.T) {
	out, _, err := runArgs(t, "plan", "--rate-rps", "1000000", "--service-ms", "50")
	require.NoError(t, err)
	assert.Contains(t, out, "The fewest servers for at most 5% of requests to wait at all: 50,390.")
	assert.Contains(t, out, "With 50,389, 5.04% wait at all; with 50,390, 4.99%.")
	assert.Contains(t, out, "\n50,390 ")
}

// TestSamplesREADME runs the commands tools/shedsim/samples/README.md
// gives for its tables, from the checkout's top, as its paths are
// written: each works.
func TestSamplesREADME(t *testing.T) {
	b, err := os.ReadFile("samples/README.md")
	require.NoError(t, err)
	t.Chdir("../..")
	ran, inBlock := 0, false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "```") {
			inBlock = !inBlock
			continue
		}
		if rest, ok := strings.CutPrefix(line, "shedsim "); ok && inBlock {
			_, _, err := runArgs(t, shellWords(t, rest)...)
			assert.NoError(t, err, line)
			ran++
		}
	}
	assert.GreaterOrEqual(t, ran, 3, "the samples' commands")
}

// TestVersion: shedsim --version and shedsim version print the build's
// version, commit, dirty flag and Go, and the model's version; with
// anything else they are refused.
func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "version", "-version"} {
		out, _, err := runArgs(t, arg)
		require.NoError(t, err, arg)
		assert.Regexp(t, `^shedsim \S+\ncommit  \S+\ndirty   \S+\ngo      go1\.\S+ \S+/\S+\nmodel   `+strconv.Itoa(sim.ModelVersion)+` `, out, arg)
	}
	_, _, err := runArgs(t, "--version", "--json")
	require.Error(t, err)
	assert.Equal(t, `--version prints the version and takes nothing else: give it alone, without "--json"`, err.Error())
	_, _, err = runArgs(t, "--policy", "fifo", "--version")
	assert.ErrorContains(t, err, "--version prints the version and takes nothing else")
	i := version.Info{Version: "v1.2.0", Commit: "abc", Dirty: "false", Go: "go1.26.8 linux/amd64"}
	assert.Equal(t, "shedsim v1.2.0\ncommit  abc\ndirty   false\ngo      go1.26.8 linux/amd64\nmodel   "+strconv.Itoa(sim.ModelVersion)+" (the rules of sim/MODEL.md that made every Result)\n", versionText(i))
}

// TestJSONCarriesTheModel: a saved Result says which rules made it.
func TestJSONCarriesTheModel(t *testing.T) {
	out, _, err := runArgs(t, "--policy", "fifo", "--json")
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, float64(sim.ModelVersion), got["model_version"])
}
