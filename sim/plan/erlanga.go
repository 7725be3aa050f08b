package plan

import (
	"math"

	"github.com/shedsim/shedsim/sim/internal/portable"
)

// Erlang A is the M/M/c+M queue: Poisson arrivals at lambda, c servers
// with exponential service at mu each, first come first served, and a
// patience for each person, exponential at rate gamma, after which a person
// still waiting gives up and leaves the queue. It is Erlang C with people who
// give up, and unlike Erlang C it has a steady state at any load: over
// capacity, the queue grows until as many give up as the servers cannot take.
//
// Sources: O. Garnett, A. Mandelbaum and M. Reiman, "Designing a call center
// with impatient customers", Manufacturing & Service Operations Management
// 4(3), 2002, section 2 (the model and its birth-death chain); and
// A. Mandelbaum and S. Zeltyn, "The M/M/n+G queue: summary of performance
// measures" (Technion, 2005), section 3 for exponential patience.
//
// The numbers come from the chain's stationary distribution. With a =
// lambda / mu and B = B(c, a) (ErlangB), the states below c have total
// weight pi(c) (1/B - 1); above c, pi(c + j) = pi(c) t(j) with
//
//	t(0) = 1,   t(j) = t(j-1) lambda / (c mu + j gamma)
//
// and S = sum t(j). Then, by PASTA (Poisson arrivals see time averages):
//
//	P(W > 0) = S / (1/B - 1 + S)
//	P(Ab)    = gamma E[queue] / lambda = gamma sum j t(j) / (lambda (1/B - 1 + S))
//
// (abandonments per second over arrivals per second). For the share still
// waiting t seconds after arriving, P(W > t) with W the time in the queue
// until service or giving up (Mandelbaum and Zeltyn's), an arrival that
// finds j waiting is still in the queue at t if its own patience lasts, e^(-gamma t),
// and the j ahead of it and then itself have not all reached a server:
// those are departures at rates c mu + k gamma for k = j down to 0, a sum of
// exponentials in arithmetic progression whose survival at t is the
// negative binomial sum
//
//	P(V > t | j) = sum over b = 0..j of T(b),  T(0) = q^m,  T(b) = T(b-1) p (m + b - 1) / b
//
// with q = e^(-gamma t), p = 1 - q and m = c mu / gamma (as gamma -> 0 it
// becomes the Erlang distribution of Erlang C's wait). So
//
//	P(W > t) = e^(-gamma t) sum t(j) P(V > t | j) / (1/B - 1 + S).
//
// The sums run until the terms, past their peak at j = (lambda - c mu) /
// gamma, stop mattering (under 1e-17 of the sum); Validate bounds the
// arrivals in a mean patience, lambda / gamma, and so the terms summed. The
// numbers are scaled by powers of two (exactly, with math.Ldexp) so that
// neither sum overflows nor underflows.

// erlangA is one count of servers' Erlang A figures.
type erlangA struct {
	waits    float64 // P(W > 0)
	waitOver float64 // P(W > t), t the limit; P(W > 0) with no limit
	abandons float64 // P(Ab)
}

// scaleBits is how far the scaled sums may grow before they are brought
// back down, as a power of two.
const scaleBits = 500

// computeErlangA returns the Erlang A figures of c >= 1 servers, given b =
// B(c, a), for arrivals at lambda per second, service at mu, patience at
// gamma (all per second) and a limit of limitS seconds (0 for none).
func computeErlangA(c int, lambda, mu, gamma, limitS, b float64) erlangA {
	cmu := float64(float64(c) * mu)
	// The negative binomial's terms, for P(V > t | j): T(b) = tm 2^te,
	// their running sum F = fm 2^te (at most 1).
	limited := limitS > 0
	var q, p, m, tm, fm float64
	var te int
	if limited {
		q = portable.Exp(-float64(gamma * limitS))
		p = 1 - q
		m = cmu / gamma
		// T(0) = q^m = e^(-c mu t), as a mantissa in [1, 2) and a power of two.
		x := -float64(cmu * limitS)
		te = int(math.Floor(x / math.Ln2))
		tm = portable.Exp(x - float64(float64(te)*math.Ln2))
		fm = tm
	}
	// t(j) = tj 2^e, and the sums in the same units.
	tj, e := 1.0, 0
	s, queued, over := 1.0, 0.0, 0.0
	if limited {
		over = math.Ldexp(fm, te) // t(0) P(V > t | 0)
	}
	for j := 1; ; j++ {
		rate := cmu + float64(float64(j)*gamma)
		ratio := lambda / rate
		tj = float64(tj * ratio)
		s += tj
		queued += float64(float64(j) * tj)
		if limited {
			tm = float64(tm*p) * (m + float64(j-1)) / float64(j)
			fm += tm
			if tm > 0x1p500 {
				tm, fm, te = math.Ldexp(tm, -scaleBits), math.Ldexp(fm, -scaleBits), te+scaleBits
			}
			over += float64(tj * min(1, math.Ldexp(fm, te)))
		}
		if tj > 0x1p500 {
			tj, s, queued, over = math.Ldexp(tj, -scaleBits), math.Ldexp(s, -scaleBits), math.Ldexp(queued, -scaleBits), math.Ldexp(over, -scaleBits)
			e += scaleBits
		}
		// Past the peak the ratio falls, so the rest is at most
		// t(j) ratio / (1 - ratio) (a geometric bound) and j t(j) times that.
		if ratio < 1 && float64(float64(j+1)*tj)*ratio/(1-ratio) < 1e-17*s {
			break
		}
	}
	total := math.Ldexp(1/b-1, -e) + s
	r := erlangA{waits: s / total, abandons: float64(gamma*queued) / float64(lambda*total)}
	r.waitOver = r.waits
	if limited {
		r.waitOver = min(1, q*over/total)
	}
	return r
}
