package sim

import (
	"fmt"
	"math"
	"testing"
)

// The checks in this file hold the service's shapes (rule 3a) and the
// people's patience (rule 4a) to queueing theory where it has exact
// answers. Each figure is measured over independent seeds, and its
// standard error is the spread between seeds over the square root of their
// number: independent replications, so no batch-means correction is
// needed. Each is allowed theoryZ (4) standard errors.

// seedEstimate runs c at seeds 1..n and returns the mean of f over them and
// its standard error.
func seedEstimate(t *testing.T, c Config, n int, f func(Result) float64) (mean, se float64) {
	t.Helper()
	var cs []Config
	for s := 1; s <= n; s++ {
		c.Seed = uint64(s)
		cs = append(cs, c)
	}
	var xs []float64
	for _, r := range runAll(t, cs) {
		xs = append(xs, f(r))
	}
	return meanEstimate(xs)
}

// TestTheoryPollaczekKhinchine runs one worker at utilisation 0.7 with
// the timeout out of reach, for each service shape, and holds the mean wait
// in the queue to the Pollaczek-Khinchine formula for the M/G/1 queue,
// E[Wq] = lambda E[S^2] / (2 (1 - rho)): E[S^2] is 2 m^2 for the
// exponential, m^2 for the constant and m^2 e^(sigma^2) for the log-normal,
// so at the same mean (the same capacity) the tail alone moves the wait.
func TestTheoryPollaczekKhinchine(t *testing.T) {
	const (
		serviceMS = 80.0
		rho       = 0.7
		duration  = 2110.0
		seeds     = 16
	)
	lambda := rho * 1000 / serviceMS
	m := serviceMS / 1000 // s
	tests := []struct {
		reason string
		change func(*Config)
		second float64 // E[S^2], s^2
	}{
		{"exponential: E[S^2] = 2 m^2", func(*Config) {}, 2 * m * m},
		{"constant: E[S^2] = m^2, half the exponential's wait", func(c *Config) { c.Service = ConstantService }, m * m},
		{"a log-normal with a p99 of 600 ms: E[S^2] = m^2 e^(sigma^2)", func(c *Config) { c.Service, c.ServiceP99MS = LognormalService, 600 },
			func() float64 { s, _ := lognormalSigma(serviceMS, 600); return m * m * math.Exp(s*s) }()},
		{"a mild log-normal, p99 200 ms", func(c *Config) { c.Service, c.ServiceP99MS = LognormalService, 200 },
			func() float64 { s, _ := lognormalSigma(serviceMS, 200); return m * m * math.Exp(s*s) }()},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			c := steady(FIFO, 1, serviceMS, lambda, duration)
			tt.change(&c)
			want := lambda * tt.second / (2 * (1 - rho)) * 1000 // ms
			got, se := seedEstimate(t, c, seeds, func(r Result) float64 { return r.Sale.MeanWaitMS })
			assertNear(t, "mean wait in queue, ms", got, want, se, "Pollaczek-Khinchine")
		})
	}
}

// erlangA is the M/M/c+M queue (Erlang A: Poisson arrivals at lambda,
// c servers at mu each, exponential patience at rate gamma, first come
// first served), solved here directly as its birth-death chain, with no
// formula from the literature: the stationary probabilities pi(n) of n in
// the system, from pi(n) mu(n) = pi(n-1) lambda with mu(n) = min(n, c) mu +
// max(n - c, 0) gamma, truncated where the terms stop mattering. Then (by
// PASTA) an arrival waits with probability P(n >= c), and abandons with
// probability gamma E[queue] / lambda (the rate of abandonment over the rate
// of arrival).
func erlangA(c int, lambda, mu, gamma float64) (waits, abandons float64) {
	term, sum := 1.0, 1.0
	var busy, queued float64 // sums of pi(n) for n >= c, and of (n - c) pi(n)
	if c == 0 {
		busy = 1
	}
	for n := 1; ; n++ {
		rate := float64(min(n, c))*mu + float64(max(n-c, 0))*gamma
		term *= lambda / rate
		sum += term
		if n >= c {
			busy += term
			queued += float64(n-c) * term
		}
		if n > c && lambda < rate && term < 1e-17*sum {
			break
		}
	}
	return busy / sum, gamma * queued / sum / lambda
}

// TestErlangAChain pins the chain against what Erlang A must reduce to:
// Erlang C as patience grows without bound, and the M/M/c/c loss system's
// blocking (Erlang B) as patience shrinks to nothing.
func TestErlangAChain(t *testing.T) {
	w, ab := erlangA(18, 150, 12.5, 1e-9)
	if math.Abs(w-erlangC(18, 12)) > 1e-6 || ab > 1e-8 {
		t.Errorf("infinitely patient: P(wait) %g, want Erlang C %g; abandons %g, want 0", w, erlangC(18, 12), ab)
	}
	// Patience so short that no one waits long: those who find all busy
	// all abandon, and the queue is the M/M/c/c loss system.
	w, ab = erlangA(8, 100, 12.5, 1e9)
	if math.Abs(w-erlangB(8, 8)) > 1e-6 || math.Abs(ab-erlangB(8, 8)) > 1e-6 {
		t.Errorf("no patience: P(wait) %g and abandons %g, want Erlang B %g", w, ab, erlangB(8, 8))
	}
}

// TestTheoryErlangA runs skip the abandoned with exponential patience,
// exponential service and the timeout out of reach: that is Erlang A's
// queue, since a request whose person has given up is dropped at no cost
// when a worker reaches it, so it takes no worker's time, as if it had left
// the queue when its person did. (Under fifo it would be served.) Erlang A
// counts a person as abandoning if their patience runs out before service
// starts; here a person also gives up if it runs out during their service,
// which by memorylessness happens to a share gamma / (mu + gamma) of those
// served. So, with P(W > 0) and P(Ab) from the chain:
//   - answered share = (1 - P(Ab)) mu / (mu + gamma);
//   - waited share of those served = (P(W > 0) - P(Ab)) / (1 - P(Ab)), since
//     everyone who abandons waited.
//
// At four points, one of them 30% over capacity, where Erlang C has no
// steady state and Erlang A has one.
func TestTheoryErlangA(t *testing.T) {
	const (
		workers   = 8
		serviceMS = 80.0
		duration  = 610.0 // 500 s measured after a 100 s warm-up
		seeds     = 8
	)
	mu := 1000 / serviceMS
	tests := []struct {
		lambda     float64 // per second
		patienceMS float64
	}{
		{85, 1000},
		{100, 1000}, // exactly at capacity
		{130, 1000}, // over capacity
		{120, 300},  // impatient, over capacity
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%g a second, patience %g ms", tt.lambda, tt.patienceMS), func(t *testing.T) {
			c := steady(Skip, workers, serviceMS, tt.lambda, duration)
			c.Patience, c.PatienceMS = ExponentialPatience, tt.patienceMS
			gamma := 1000 / tt.patienceMS
			pw, pab := erlangA(workers, tt.lambda, mu, gamma)
			t.Logf("Erlang A: P(W > 0) %.4f, P(Ab) %.4f", pw, pab)
			got, se := seedEstimate(t, c, seeds, func(r Result) float64 { return r.Sale.AnsweredShare })
			assertNear(t, "answered share", got, (1-pab)*mu/(mu+gamma), se, "Erlang A's abandonment")
			got, se = seedEstimate(t, c, seeds, func(r Result) float64 { return r.Sale.WaitedShare })
			assertNear(t, "waited share of the served", got, (pw-pab)/(1-pab), se, "Erlang A's probability of waiting")
		})
	}
}
