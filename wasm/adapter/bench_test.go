package adapter

import (
	"encoding/json"
	"strconv"
	"strings"
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

// BenchmarkMarshalView is the encoding of the view that shedsim:result
// carries, with encoding/json.
func BenchmarkMarshalView(b *testing.B) {
	v, err := report.Build(sim.DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := json.Marshal(v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHostileInput is the time the JS API takes to refuse input no
// configuration needs (issue 14, items 6 and 7): 20,000 unknown keys, as
// an object and as 300 KB of JSON, and a 300 MB string value.
func BenchmarkHostileInput(b *testing.B) {
	many := JsObject{}
	var text strings.Builder
	text.WriteString("{")
	for i := range 20_000 {
		k := "unknown_key_" + strconv.Itoa(100000+i)
		many[k] = 1.0
		if i > 0 {
			text.WriteString(",")
		}
		text.WriteString(`"` + k + `":1`)
	}
	text.WriteString("}")
	manyJSON := text.String()
	b.Run("20000-keys-object", func(b *testing.B) {
		for b.Loop() {
			ViewOf(ReadJS(FakeJS{many}))
		}
	})
	b.Run("20000-keys-json", func(b *testing.B) {
		for b.Loop() {
			ViewOf(ReadObject(manyJSON))
		}
	})
	b.Run("300MB-value", func(b *testing.B) {
		for b.Loop() {
			RunOf(ReadJS(FakeJS{JsObject{"policy": JsLong(300_000_000)}}))
		}
	})
}

// BenchmarkWorkerConfig is what the page's main thread spends on each
// run it sends its workers (WorkerConfig), some 80 a recompute with the
// advice's seeks; "strings" is how it was written before, every field as
// a string in a map (ConfigStrings).
func BenchmarkWorkerConfig(b *testing.B) {
	c := sim.DefaultConfig()
	b.Run("config", func(b *testing.B) {
		for b.Loop() {
			_ = WorkerConfig(c)
		}
	})
	b.Run("strings", func(b *testing.B) {
		for b.Loop() {
			_ = MustJSON(ConfigStrings(c))
		}
	})
}

// BenchmarkDecodeRun is what the page's main thread spends on each run's
// answer (DecodeRun, the default run's totals); "whole" decodes it into a
// sim.Result, its Config too, as the page did before it took the one it
// sent (168 K instructions against 210 K, by cachegrind, natively).
func BenchmarkDecodeRun(b *testing.B) {
	c := sim.DefaultConfig()
	answer := RunTotals(WorkerConfig(c))
	b.Run("totals", func(b *testing.B) {
		for b.Loop() {
			if _, err := DecodeRun(answer, c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			var r sim.Result
			if err := json.Unmarshal([]byte(answer), &r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
