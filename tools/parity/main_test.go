package main

import (
	"bytes"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/shedsim/shedsim/sim"
)

// TestCases pins the list's shape: every set present, labels unique and
// free of spaces (the output splits on the first one).
func TestCases(t *testing.T) {
	count := map[string]int{}
	seen := map[string]bool{}
	for _, c := range cases() {
		count[c.Set]++
		if c.Label == "" || strings.ContainsAny(c.Label, " \n") {
			t.Errorf("label %q: want non-empty, without spaces or newlines", c.Label)
		}
		if seen[c.Label] {
			t.Errorf("label %q appears twice", c.Label)
		}
		seen[c.Label] = true
	}
	want := map[string]int{setLab: len(sim.Lab()), setSamples: len(sim.Samples()), setRandom: randomCount, setSeries: len(sim.Samples())}
	if !reflect.DeepEqual(count, want) {
		t.Errorf("cases per set (-want +got):\n-%v\n+%v", want, count)
	}
	if len(sim.Lab()) != 162 {
		t.Errorf("sim.Lab() has %d configs, want the post's 162", len(sim.Lab()))
	}
}

// TestRandomConfigs checks the random set: valid, within budget, and every
// field of sim.Config drawn, so that a field added to Config is not left
// at its default here without anyone noticing.
func TestRandomConfigs(t *testing.T) {
	configs := randomConfigs()
	if len(configs) != randomCount {
		t.Fatalf("randomConfigs() returned %d configs, want %d", len(configs), randomCount)
	}
	for i, c := range configs {
		if err := c.Validate(); err != nil {
			t.Errorf("random/%02d does not validate: %v", i, err)
		}
		if n := c.ExpectedAttempts(); n > randomBudget {
			t.Errorf("random/%02d expects %.0f attempts, over the budget of %d", i, n, randomBudget)
		}
	}
	typ := reflect.TypeFor[sim.Config]()
	for f := range typ.Fields() {
		values := map[string]bool{}
		for _, c := range configs {
			values[fmt.Sprint(reflect.ValueOf(c).FieldByIndex(f.Index).Interface())] = true
		}
		if len(values) < 2 {
			t.Errorf("Config.%s is the same in all %d random configs: draw it in generator.config (tools/parity/main.go)", f.Name, len(configs))
		}
	}
}

// TestRandomConfigsDeterministic: the set depends on nothing but the code.
func TestRandomConfigsDeterministic(t *testing.T) {
	a, b := randomConfigs(), randomConfigs()
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two calls of randomConfigs() differ")
	}
}

func TestRunOnly(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-only", "samples"}, &stdout, &stderr); err != nil {
		t.Fatalf("run -only samples: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != len(sim.Samples()) {
		t.Fatalf("run -only samples printed %d lines, want %d", len(lines), len(sim.Samples()))
	}
	for i, s := range sim.Samples() {
		want := "samples/" + s.Key + ` {"model_version":` + strconv.Itoa(sim.ModelVersion) + `,"config":{`
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d starts %.60q, want %q", i+1, lines[i], want)
		}
	}

	stdout.Reset()
	if err := run([]string{"-only", "series"}, &stdout, &stderr); err != nil {
		t.Fatalf("run -only series: %v\n%s", err, stderr.String())
	}
	series := 0 // each sample's, and each hop's of a chain (rule 40)
	for _, s := range sim.Samples() {
		series += 1 + len(s.Config.HopList())
	}
	if n := strings.Count(stdout.String(), `,"series":{"step_s":`); n != series {
		t.Errorf("run -only series: %d series, want one for each of the %d samples and their hops, %d", n, len(sim.Samples()), series)
	}

	for _, args := range [][]string{{"-only", "nope"}, {"extra"}, {"-bad-flag"}} {
		if err := run(args, &stdout, &stderr); err == nil {
			t.Errorf("run(%q) succeeded, want an error", args)
		}
	}
}
