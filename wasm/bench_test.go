package main

import (
	"encoding/json"
	"testing"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/report"
)

// The simulator page's recompute, in the parts it runs: every policy (the
// first paint waits for this alone), then the advice, then the client
// comparison, one run at a time. The samples are the default sale and the
// stuck retries, the slowest of the post's situations.

func benchSamples(b *testing.B, f func(b *testing.B, c sim.Config)) {
	for _, key := range []string{"sale", "retries"} {
		s, ok := sim.SampleByKey(key)
		if !ok {
			b.Fatalf("no sample %q", key)
		}
		b.Run(key, func(b *testing.B) { f(b, s.Config) })
	}
}

func BenchmarkBuildCompared(b *testing.B) {
	benchSamples(b, func(b *testing.B, c sim.Config) {
		for b.Loop() {
			if _, _, err := report.BuildCompared(c); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkAdvise(b *testing.B) {
	benchSamples(b, func(b *testing.B, c sim.Config) {
		_, compared, err := report.BuildCompared(c)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := report.Advise(c, compared); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkClientRuns(b *testing.B) {
	benchSamples(b, func(b *testing.B, c sim.Config) {
		chosen, err := sim.Run(c)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			for _, cl := range sim.Clients {
				if _, err := ClientRun(c, chosen, cl); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkMarshalView compares the page's JSON with encoding/json's on
// the view that shedsim:result carries.
func BenchmarkMarshalView(b *testing.B) {
	v, err := report.Build(sim.DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	b.Run("marshal", func(b *testing.B) {
		for b.Loop() {
			if _, err := marshal(v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
