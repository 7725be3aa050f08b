package plan

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

// chainA is an independent computation of Erlang A, by other routes than
// computeErlangA's: the stationary distribution of the birth-death chain
// truncated at c + n states, normalised directly; the abandoned share as
// each state's chance of giving up before a server comes (a product of
// "a departure ahead before my patience" odds), not as gamma E[queue] /
// lambda; and the share still waiting at t by uniformization of the
// tagged person's own chain (the number ahead, falling, with their own
// abandonment as a way out), not by the negative binomial sum.
func chainA(c int, lambda, mu, gamma, t float64, n int) (waits, waitOver, abandons float64) {
	pi := make([]float64, c+n+1)
	pi[0] = 1
	sum := 1.0
	for k := 1; k < len(pi); k++ {
		rate := float64(min(k, c))*mu + float64(max(k-c, 0))*gamma
		pi[k] = pi[k-1] * lambda / rate
		sum += pi[k]
	}
	for k := range pi {
		pi[k] /= sum
	}
	for j := 0; j <= n; j++ { // an arrival finds c + j: j waiting ahead
		p := pi[c+j]
		waits += p
		served := 1.0
		for k := 0; k <= j; k++ {
			served *= (float64(c)*mu + float64(k)*gamma) / (float64(c)*mu + float64(k+1)*gamma)
		}
		abandons += p * (1 - served)
		if t > 0 && p > 1e-300 {
			waitOver += p * stillWaiting(j, float64(c)*mu, gamma, t)
		}
	}
	if t == 0 {
		waitOver = waits
	}
	return waits, waitOver, abandons
}

// stillWaiting is the chance that a person with j ahead in the queue is
// neither served nor gone t seconds later: uniformization at rate L = c mu
// + (j+1) gamma, the sum over m of Poisson(L t; m) times the chance the
// embedded chain is still in the queue after m steps.
func stillWaiting(j int, cmu, gamma, t float64) float64 {
	L := cmu + float64(j+1)*gamma
	v := make([]float64, j+1) // v[k]: the chance of k ahead, still waiting
	v[j] = 1
	lt := L * t
	logw := -lt // log Poisson weight of m = 0
	out := 0.0
	for m := 0; ; m++ {
		in := 0.0
		for _, x := range v {
			in += x
		}
		w := math.Exp(logw)
		out += w * in
		if float64(m) > lt+20*math.Sqrt(lt)+50 || in < 1e-300 { // the Poisson tail beyond is nothing
			break
		}
		next := make([]float64, j+1)
		for k, x := range v {
			down := cmu + float64(k)*gamma // someone ahead leaves (or a server takes me at k = 0)
			next[k] += x * (1 - (down+gamma)/L)
			if k > 0 {
				next[k-1] += x * down / L
			}
		}
		v = next
		logw += math.Log(lt) - math.Log(float64(m+1))
	}
	return out
}

// TestErlangAAgainstTheChain holds computeErlangA to chainA, to 1e-9, at
// loads under, at and over capacity, with and without a limit.
func TestErlangAAgainstTheChain(t *testing.T) {
	tests := []struct {
		c                        int
		lambda, mu, gamma, limit float64
	}{
		{8, 85, 12.5, 1, 0},
		{8, 100, 12.5, 1, 0.2},
		{8, 130, 12.5, 1, 0.5},   // 30% over capacity
		{8, 120, 12.5, 3.3, 0.1}, // impatient
		{1, 5, 10, 0.5, 1},
		{3, 40, 10, 20, 0.05}, // far over capacity, very impatient
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("c=%d lambda=%g mu=%g gamma=%g t=%g", tt.c, tt.lambda, tt.mu, tt.gamma, tt.limit), func(t *testing.T) {
			got := computeErlangA(tt.c, tt.lambda, tt.mu, tt.gamma, tt.limit, ErlangB(tt.c, tt.lambda/tt.mu))
			w, wo, ab := chainA(tt.c, tt.lambda, tt.mu, tt.gamma, tt.limit, 400)
			assert.InDelta(t, w, got.waits, 1e-9, "P(W > 0)")
			assert.InDelta(t, wo, got.waitOver, 1e-9, "P(W > t)")
			assert.InDelta(t, ab, got.abandons, 1e-9, "P(Ab)")
			assert.Less(t, got.abandons, got.waits, "those who give up waited")
		})
	}
}

// TestErlangABecomesErlangC: with patience far longer than any wait,
// Erlang A's figures are Erlang C's (Garnett, Mandelbaum and Reiman's
// limit as patience grows), the post's 18 servers at 150/s and 80 ms
// waiting 7.56% among them, and its P(W > t) is C e^(-(c mu - lambda) t).
func TestErlangABecomesErlangC(t *testing.T) {
	for _, c := range []int{18, 19, 25} {
		got := computeErlangA(c, 150, 12.5, 1/1000.0, 0.1, ErlangB(c, 12)) // 1,000 s of patience
		assert.InDelta(t, ErlangC(c, 12), got.waits, 1e-5, "%d servers: P(W > 0)", c)
		assert.InDelta(t, WaitOver(c, 12, 80, 100), got.waitOver, 1e-5, "%d servers: P(W > 100 ms)", c)
		assert.Less(t, got.abandons, 1e-5, "%d servers: hardly anyone gives up", c)
	}
	p, err := Compute(Input{RateRPS: 150, ServiceMS: 80, Target: 0.05, PatienceMS: 1_000_000})
	require.NoError(t, err)
	require.NotNil(t, p.ErlangA)
	assert.Equal(t, p.Servers, p.ErlangA.Servers, "infinitely patient people need Erlang C's 19")
	assert.Equal(t, "7.56%", fmt.Sprintf("%.2f%%", 100*p.ErlangA.OneFewer.Wait))
}

// TestPlanErlangA: the planner's Erlang A answer beside Erlang C's.
func TestPlanErlangA(t *testing.T) {
	tests := []struct {
		reason string
		in     Input
		check  func(t *testing.T, p Plan)
	}{
		{"people who give up after 3 s need fewer servers than Erlang C says", Input{RateRPS: 150, ServiceMS: 80, Target: 0.05, PatienceMS: 3000},
			func(t *testing.T, p Plan) {
				assert.LessOrEqual(t, p.ErlangA.Servers, p.Servers)
				assert.True(t, p.ErlangA.Answer.MeetsTarget)
				assert.False(t, p.ErlangA.OneFewer.MeetsTarget)
				assert.LessOrEqual(t, p.ErlangA.Answer.WaitOver, 0.05)
			}},
		{"a target on giving up can be met over capacity: 30% may give up after half a second, at 150/s on fewer than 12 servers",
			Input{RateRPS: 150, ServiceMS: 80, Target: 0.05, PatienceMS: 500, AbandonTarget: 0.3},
			func(t *testing.T, p Plan) {
				assert.Less(t, float64(p.ErlangA.Servers), p.OfferedLoad, "fewer servers than the offered load: over capacity, finite")
				assert.LessOrEqual(t, p.ErlangA.Answer.Abandon, 0.3)
				assert.Greater(t, p.ErlangA.OneFewer.Abandon, 0.3)
			}},
		{"a limit: the share still waiting after 200 ms", Input{RateRPS: 150, ServiceMS: 80, Target: 0.01, LimitMS: 200, PatienceMS: 2000},
			func(t *testing.T, p Plan) {
				for _, r := range p.ErlangA.Nearby {
					assert.LessOrEqual(t, r.WaitOver, r.Wait, "%d servers: waiting past 200 ms is some of waiting", r.Servers)
				}
				assert.LessOrEqual(t, p.ErlangA.Answer.WaitOver, 0.01)
			}},
		{"no patience: no Erlang A", Input{RateRPS: 150, ServiceMS: 80, Target: 0.05},
			func(t *testing.T, p Plan) { assert.Nil(t, p.ErlangA) }},
	}
	for _, tt := range tests {
		p, err := Compute(tt.in)
		require.NoError(t, err, tt.reason)
		if tt.in.PatienceMS > 0 {
			require.NotNil(t, p.ErlangA, tt.reason)
			for i := 1; i < len(p.ErlangA.Nearby); i++ {
				a, b := p.ErlangA.Nearby[i-1], p.ErlangA.Nearby[i]
				assert.Equal(t, a.Servers+1, b.Servers)
				assert.GreaterOrEqual(t, a.Abandon, b.Abandon, "%s: fewer give up with more servers", tt.reason)
				assert.GreaterOrEqual(t, a.WaitOver, b.WaitOver, "%s: fewer wait with more servers", tt.reason)
			}
		}
		t.Run(tt.reason, func(t *testing.T) { tt.check(t, p) })
	}
}

// TestPlanErlangAValidate: bad patience and abandon targets are named.
func TestPlanErlangAValidate(t *testing.T) {
	tests := []struct {
		reason string
		in     Input
		field  string
	}{
		{"a negative patience", Input{RateRPS: 150, ServiceMS: 80, Target: 0.05, PatienceMS: -1}, "patience_ms"},
		{"a NaN patience", Input{RateRPS: 150, ServiceMS: 80, Target: 0.05, PatienceMS: math.NaN()}, "patience_ms"},
		{"an abandon target with nobody giving up", Input{RateRPS: 150, ServiceMS: 80, Target: 0.05, AbandonTarget: 0.02}, "abandon_target"},
		{"an abandon target of 1", Input{RateRPS: 150, ServiceMS: 80, Target: 0.05, PatienceMS: 3000, AbandonTarget: 1}, "abandon_target"},
		{"too many arrivals in a patience", Input{RateRPS: 100_000, ServiceMS: 0.1, Target: 0.05, PatienceMS: 3_000_000}, "patience_ms"},
	}
	for _, tt := range tests {
		err := tt.in.Validate()
		require.Error(t, err, tt.reason)
		fes := sim.FieldErrors(err)
		if assert.Len(t, fes, 1, "%s: %v", tt.reason, err) {
			assert.Equal(t, tt.field, fes[0].Field, tt.reason)
		}
	}
}
