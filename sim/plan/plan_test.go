package plan

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// percent formats a share as the page does: in percent, to 2 decimals.
func percent(x float64) string { return fmt.Sprintf("%.2f", 100*x) }

// TestComputePostNumbers pins the planner's figures quoted in the post and
// in MODEL.md's table, to the decimals printed there.
func TestComputePostNumbers(t *testing.T) {
	tests := []struct {
		reason         string
		in             Input
		servers        int
		answer, fewer  string // percent, 2 decimals
		offered        float64
		oneFewerExists bool
	}{
		{reason: "the sale: 150/s, 80 ms, 5% says 19; 18 -> 7.56%, 19 -> 4.35%",
			in: Input{RateRPS: 150, ServiceMS: 80, Target: 0.05}, servers: 19, answer: "4.35", fewer: "7.56", offered: 12},
		{reason: "the planner's own example, 120/s and 45 ms at 5%",
			in: DefaultInput(), servers: 11, answer: "2.52", fewer: "5.66", offered: 5.4},
		{reason: "the sale with waits over 100 ms under 5%",
			in: Input{RateRPS: 150, ServiceMS: 80, Target: 0.05, LimitMS: 100}, servers: 14, answer: "3.95", fewer: "20.18", offered: 12},
		{reason: "the sale with waits over 1 s under 5%: one server more than keeps up is enough",
			in: Input{RateRPS: 150, ServiceMS: 80, Target: 0.05, LimitMS: 1000}, servers: 13, answer: "0.00", fewer: "100.00", offered: 12},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			p, err := Compute(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.offered, p.OfferedLoad, "offered load in Erlangs; %s", tt.reason)
			assert.Equal(t, tt.servers, p.Servers, "servers; %s", tt.reason)
			assert.Equal(t, tt.servers, p.Answer.Servers, "the answer's row; %s", tt.reason)
			assert.Equal(t, tt.answer, percent(p.Answer.Wait), "wait with the answer; %s", tt.reason)
			require.NotNil(t, p.OneFewer, "%s", tt.reason)
			assert.Equal(t, tt.servers-1, p.OneFewer.Servers, "%s", tt.reason)
			assert.Equal(t, tt.fewer, percent(p.OneFewer.Wait), "wait with one fewer; %s", tt.reason)
			assert.True(t, p.Answer.MeetsTarget, "%s", tt.reason)
			assert.False(t, p.OneFewer.MeetsTarget, "%s", tt.reason)
		})
	}
}

// TestComputeRows checks the shape of every Plan: the answer is the fewest
// servers meeting the target, OneFewer, Nearby and Curve cover the counts
// they document, and every row agrees with the exported functions.
func TestComputeRows(t *testing.T) {
	tests := []struct {
		reason string
		in     Input
	}{
		{reason: "the planner's example", in: DefaultInput()},
		{reason: "the sale", in: Input{RateRPS: 150, ServiceMS: 80, Target: 0.05}},
		{reason: "the sale with a limit", in: Input{RateRPS: 150, ServiceMS: 80, Target: 0.05, LimitMS: 100}},
		{reason: "a whole-number load and a loose target: one fewer is c = a, unstable", in: Input{RateRPS: 150, ServiceMS: 80, Target: 0.99}},
		{reason: "a tiny load: one server, no OneFewer", in: Input{RateRPS: 0.1, ServiceMS: 10, Target: 0.05}},
		{reason: "a heavy load: the curve is cut 30 below the answer", in: Input{RateRPS: 20_000, ServiceMS: 50, Target: 0.05}},
		{reason: "the largest load and the smallest target", in: Input{RateRPS: 1_000_000, ServiceMS: 50, Target: MinTarget}},
		{reason: "the largest load, the smallest target and a limit", in: Input{RateRPS: 1_000_000, ServiceMS: 50, Target: MinTarget, LimitMS: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			p, err := Compute(tt.in)
			require.NoError(t, err)
			a, s := p.OfferedLoad, tt.in.ServiceMS
			require.Equal(t, tt.in.RateRPS*tt.in.ServiceMS/1000, a)
			require.Less(t, p.Servers, MaxServers)

			check := func(r Row) {
				c := r.Servers
				assert.Equal(t, a/float64(c), r.Utilisation, "utilisation at %d", c)
				assert.Equal(t, float64(c) > a, r.Stable, "stable at %d", c)
				if !r.Stable {
					assert.Equal(t, Row{Servers: c, Utilisation: a / float64(c), Wait: 1}, r, "an unstable row at %d", c)
					return
				}
				want := ErlangC(c, a)
				if tt.in.LimitMS > 0 {
					want = WaitOver(c, a, s, tt.in.LimitMS)
				}
				assert.Equal(t, want, r.Wait, "wait at %d must match the exported function to the bit", c)
				assert.Equal(t, MeanWaitMS(c, a, s), r.MeanWaitMS, "mean wait at %d", c)
				assert.Equal(t, P99WaitMS(c, a, s), r.P99QueueWaitMS, "p99 wait in the queue at %d", c)
				assert.Equal(t, r.Wait <= tt.in.Target, r.MeetsTarget, "meets target at %d", c)
			}

			check(p.Answer)
			assert.Equal(t, p.Servers, p.Answer.Servers)
			assert.True(t, p.Answer.MeetsTarget, "the answer meets the target")
			if p.Servers == 1 {
				assert.Nil(t, p.OneFewer, "no row for 0 servers")
			} else {
				require.NotNil(t, p.OneFewer)
				check(*p.OneFewer)
				assert.Equal(t, p.Servers-1, p.OneFewer.Servers)
				assert.False(t, p.OneFewer.MeetsTarget, "the answer is the fewest")
			}

			wantLo := max(1, p.Servers-4)
			require.Len(t, p.Nearby, p.Servers+4-wantLo+1)
			for i, r := range p.Nearby {
				assert.Equal(t, wantLo+i, r.Servers, "nearby rows run one by one")
				check(r)
			}

			curveLo := max(int(math.Floor(a))+1, p.Servers-30)
			require.Len(t, p.Curve, p.Servers+10-curveLo+1)
			for i, r := range p.Curve {
				assert.Equal(t, curveLo+i, r.Servers, "curve rows run one by one")
				assert.True(t, r.Stable, "the curve holds stable rows only")
				if i > 0 {
					assert.LessOrEqual(t, r.Wait, p.Curve[i-1].Wait, "waiting falls along the curve")
				}
			}

			// Every count below the answer misses the target.
			for c := max(1, p.Servers-40); c < p.Servers; c++ {
				assert.Greater(t, WaitOver(c, a, s, tt.in.LimitMS), tt.in.Target, "%d servers would already meet the target", c)
			}

			_, err = json.Marshal(p)
			assert.NoError(t, err, "every Plan must encode as JSON (no infinities)")
		})
	}
}

func TestComputeLargestLoad(t *testing.T) {
	p, err := Compute(Input{RateRPS: 1_000_000, ServiceMS: 50, Target: MinTarget})
	require.NoError(t, err)
	assert.Equal(t, 51_349, p.Servers, "the figure in MaxOfferedLoad's doc comment")
}

func TestValidate(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	ok := DefaultInput()
	with := func(f func(*Input)) Input {
		in := ok
		f(&in)
		return in
	}
	tests := []struct {
		reason string
		in     Input
		want   map[string][]string // field -> substrings of its message
	}{
		{reason: "the default is valid", in: ok},
		{reason: "the largest values are valid", in: Input{RateRPS: 1_000_000, ServiceMS: 50, Target: 0.999, LimitMS: 3_600_000}},
		{reason: "the smallest values are valid", in: Input{RateRPS: 1e-300, ServiceMS: 0.001, Target: MinTarget, LimitMS: 0}},
		{reason: "zero rate", in: with(func(in *Input) { in.RateRPS = 0 }),
			want: map[string][]string{"rate_rps": {"0 is too small", "above 0, up to 1,000,000"}}},
		{reason: "negative rate", in: with(func(in *Input) { in.RateRPS = -3 }),
			want: map[string][]string{"rate_rps": {"-3 is too small"}}},
		{reason: "NaN rate", in: with(func(in *Input) { in.RateRPS = nan }),
			want: map[string][]string{"rate_rps": {"NaN is not a number"}}},
		{reason: "infinite rate", in: with(func(in *Input) { in.RateRPS = inf }),
			want: map[string][]string{"rate_rps": {"+Inf is not a finite number"}}},
		{reason: "too high a rate", in: with(func(in *Input) { in.RateRPS = 2e6 }),
			want: map[string][]string{"rate_rps": {"2,000,000 is too large"}}},
		{reason: "zero service time", in: with(func(in *Input) { in.ServiceMS = 0 }),
			want: map[string][]string{"service_ms": {"0 is too small", "from 0.001 to 3,600,000"}}},
		{reason: "service time of a day", in: with(func(in *Input) { in.ServiceMS = 86_400_000 }),
			want: map[string][]string{"service_ms": {"86,400,000 is too large"}}},
		{reason: "-Inf service time", in: with(func(in *Input) { in.ServiceMS = math.Inf(-1) }),
			want: map[string][]string{"service_ms": {"-Inf is not a finite number"}}},
		{reason: "target as a percent, not a fraction", in: with(func(in *Input) { in.Target = 5 }),
			want: map[string][]string{"target": {"5 is too large", "0.05 for 5%"}}},
		{reason: "target of exactly 1", in: with(func(in *Input) { in.Target = 1 }),
			want: map[string][]string{"target": {"1 is too large", "below 1"}}},
		{reason: "target of 0", in: with(func(in *Input) { in.Target = 0 }),
			want: map[string][]string{"target": {"0 is too small", "at least a billionth"}}},
		{reason: "target below one in a billion", in: with(func(in *Input) { in.Target = 1e-12 }),
			want: map[string][]string{"target": {"1e-12 is too small"}}},
		{reason: "NaN target", in: with(func(in *Input) { in.Target = nan }),
			want: map[string][]string{"target": {"NaN is not a number"}}},
		{reason: "negative limit", in: with(func(in *Input) { in.LimitMS = -1 }),
			want: map[string][]string{"limit_ms": {"-1 is too small", "0 for any wait at all"}}},
		{reason: "NaN limit", in: with(func(in *Input) { in.LimitMS = nan }),
			want: map[string][]string{"limit_ms": {"NaN is not a number"}}},
		{reason: "a load that would need more servers than the planner sizes", in: Input{RateRPS: 1_000_000, ServiceMS: 1000, Target: 0.05},
			want: map[string][]string{"rate_rps": {"1,000,000 per second at 1,000 ms", "1,000,000 Erlangs", "at most 50,000"}}},
		{reason: "the zero Input names every field but the limit", in: Input{},
			want: map[string][]string{"rate_rps": {"0 is too small"}, "service_ms": {"0 is too small"}, "target": {"0 is too small"}}},
		{reason: "all four wrong at once", in: Input{RateRPS: -1, ServiceMS: nan, Target: 2, LimitMS: -5},
			want: map[string][]string{"rate_rps": {"-1"}, "service_ms": {"NaN"}, "target": {"2"}, "limit_ms": {"-5"}}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			err := tt.in.Validate()
			if len(tt.want) == 0 {
				assert.NoError(t, err, "%s", tt.reason)
				return
			}
			require.Error(t, err, "%s", tt.reason)
			got := map[string]string{}
			for _, e := range unjoin(err) {
				var fe *FieldError
				require.True(t, errors.As(e, &fe), "every error is a *FieldError, got %T", e)
				assert.NotContains(t, got, fe.Field, "one error per field")
				got[fe.Field] = fe.Msg
				assert.Equal(t, fe.Field+": "+fe.Msg, fe.Error())
			}
			require.Len(t, got, len(tt.want), "fields named: %v", got)
			for field, subs := range tt.want {
				for _, sub := range subs {
					assert.Contains(t, got[field], sub, "%s; %s", field, tt.reason)
				}
			}
			_, cerr := Compute(tt.in)
			assert.Equal(t, err.Error(), cerr.Error(), "Compute returns Validate's errors")
		})
	}
}

// unjoin returns the errors inside an errors.Join, or err itself.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// TestComputeGolden pins whole Plans, as JSON, in testdata. The files hold
// every float to the bit, so they fail on any platform whose arithmetic
// drifts. Refresh them with go test -update.
func TestComputeGolden(t *testing.T) {
	tests := []struct {
		reason string
		name   string
		in     Input
	}{
		{reason: "the planner's own example", name: "default", in: DefaultInput()},
		{reason: "the sale, as the post quotes it", name: "sale", in: Input{RateRPS: 150, ServiceMS: 80, Target: 0.05}},
		{reason: "the sale with waits over 100 ms", name: "sale_limit_100ms", in: Input{RateRPS: 150, ServiceMS: 80, Target: 0.05, LimitMS: 100}},
		{reason: "an unstable one-fewer row", name: "loose_target", in: Input{RateRPS: 150, ServiceMS: 80, Target: 0.99}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			p, err := Compute(tt.in)
			require.NoError(t, err)
			got, err := json.MarshalIndent(p, "", "  ")
			require.NoError(t, err)
			got = append(got, '\n')
			path := filepath.Join("testdata", tt.name+".json")
			if *update {
				require.NoError(t, os.MkdirAll("testdata", 0o755))
				require.NoError(t, os.WriteFile(path, got, 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test -update to create %s", path)
			assert.Equal(t, string(want), string(got), "%s (-want +got); %s", path, tt.reason)

			var back Plan
			require.NoError(t, json.Unmarshal(got, &back))
			assert.Equal(t, p, back, "a Plan survives a JSON round trip")
		})
	}
}

func BenchmarkCompute(b *testing.B) {
	benchmarks := []struct {
		name string
		in   Input
	}{
		{name: "default", in: DefaultInput()},
		{name: "sale", in: Input{RateRPS: 150, ServiceMS: 80, Target: 0.05}},
		{name: "sale_limit", in: Input{RateRPS: 150, ServiceMS: 80, Target: 0.05, LimitMS: 100}},
		{name: "largest", in: Input{RateRPS: 1_000_000, ServiceMS: 50, Target: MinTarget}},
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Compute(bm.in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
