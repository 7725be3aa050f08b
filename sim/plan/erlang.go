package plan

import (
	"math"

	"github.com/shedsim/shedsim/sim/internal/portable"
)

// ErlangB returns the Erlang B blocking probability of c servers offered a
// Erlangs: the share of arrivals that would find every server busy if there
// were no queue (M/M/c/c). It is a fraction in [0, 1].
//
// It uses the recursion, which needs no factorials and cannot overflow:
//
//	B(0, a) = 1
//	B(k, a) = a·B(k-1, a) / (k + a·B(k-1, a))
//
// It costs O(c). It returns NaN when c < 0 or when a is negative or NaN.
func ErlangB(c int, a float64) float64 {
	if c < 0 || !(a >= 0) {
		return math.NaN()
	}
	b := 1.0
	for k := 1; k <= c; k++ {
		b = erlangBStep(b, k, a)
	}
	return b
}

// erlangBStep returns B(k, a) from b = B(k-1, a). ErlangB and Compute both
// use it, so that they give the same bits.
func erlangBStep(b float64, k int, a float64) float64 {
	ab := float64(a * b)
	return ab / (float64(k) + ab)
}

// ErlangC returns the Erlang C probability that an arrival must wait, in an
// M/M/c queue with c servers offered a Erlangs (a = arrival rate × mean
// service time). It is a fraction in [0, 1]:
//
//	C(c, a) = c·B(c, a) / (c − a·(1 − B(c, a)))   when c > a
//	C(c, a) = 1                                    when c ≤ a
//
// where B is ErlangB. When c ≤ a the servers cannot keep up, the queue grows
// without bound and every arrival waits. It costs O(c). It returns NaN when
// c < 0 or when a is negative or NaN.
func ErlangC(c int, a float64) float64 {
	if c < 0 || !(a >= 0) {
		return math.NaN()
	}
	return erlangC(c, a, ErlangB(c, a))
}

// erlangC returns C(c, a) given b = B(c, a).
func erlangC(c int, a, b float64) float64 {
	n := float64(c)
	if n <= a {
		return 1
	}
	return float64(n*b) / (n - float64(a*(1-b)))
}

// WaitOver returns the probability that a request waits in the queue longer
// than limitMS milliseconds, in an M/M/c queue with c servers offered a
// Erlangs and a mean service time of serviceMS milliseconds. It is a
// fraction in [0, 1]:
//
//	P(W > t) = C(c, a) · exp(−(c − a)·t / s)
//
// with t = limitMS and s = serviceMS; at t = 0 it equals ErlangC. It is 1
// when c ≤ a. It costs O(c). It returns NaN when c < 0, a is negative or NaN,
// serviceMS is not above 0, or limitMS is negative or NaN.
func WaitOver(c int, a, serviceMS, limitMS float64) float64 {
	if c < 0 || !(a >= 0) || !(serviceMS > 0) || !(limitMS >= 0) {
		return math.NaN()
	}
	return waitOver(c, a, serviceMS, limitMS, ErlangC(c, a))
}

// waitOver returns P(W > limitMS) given pw = C(c, a).
func waitOver(c int, a, serviceMS, limitMS, pw float64) float64 {
	n := float64(c)
	if n <= a {
		return 1
	}
	return pw * portable.Exp(-(n-a)*limitMS/serviceMS)
}

// MeanWaitMS returns the mean wait in the queue, in milliseconds, over all
// requests (those that do not wait count as 0), in an M/M/c queue with c
// servers offered a Erlangs and a mean service time of serviceMS
// milliseconds:
//
//	E[W] = C(c, a) · s / (c − a)
//
// It is +Inf when c ≤ a. It costs O(c). It returns NaN for the arguments for
// which WaitOver does.
func MeanWaitMS(c int, a, serviceMS float64) float64 {
	if c < 0 || !(a >= 0) || !(serviceMS > 0) {
		return math.NaN()
	}
	return meanWaitMS(c, a, serviceMS, ErlangC(c, a))
}

// meanWaitMS returns E[W] given pw = C(c, a).
func meanWaitMS(c int, a, serviceMS, pw float64) float64 {
	n := float64(c)
	if n <= a {
		return math.Inf(1)
	}
	return pw * serviceMS / (n - a)
}

// P99WaitMS returns the 99th percentile of the wait in the queue, in
// milliseconds, over all requests, in an M/M/c queue with c servers offered
// a Erlangs and a mean service time of serviceMS milliseconds. It is 0 when
// at most 1% of requests wait (C(c, a) ≤ 0.01); otherwise it solves
// C·exp(−(c − a)·t / s) = 0.01 for t:
//
//	t99 = s · ln(C(c, a) / 0.01) / (c − a)
//
// It is +Inf when c ≤ a. It costs O(c). It returns NaN for the arguments for
// which WaitOver does.
func P99WaitMS(c int, a, serviceMS float64) float64 {
	if c < 0 || !(a >= 0) || !(serviceMS > 0) {
		return math.NaN()
	}
	return p99WaitMS(c, a, serviceMS, ErlangC(c, a))
}

// p99WaitMS returns t99 given pw = C(c, a).
func p99WaitMS(c int, a, serviceMS, pw float64) float64 {
	n := float64(c)
	if n <= a {
		return math.Inf(1)
	}
	if pw <= 0.01 {
		return 0
	}
	return serviceMS * portable.Log(pw/0.01) / (n - a)
}
