package plan

import (
	"errors"
	"math"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/internal/limits"
)

const (
	// MaxServers is the most servers the planner considers. Validate keeps
	// the offered load low enough that the answer and its curve fit.
	MaxServers = 100_000
	// MaxOfferedLoad is the largest offered load, in Erlangs
	// (RateRPS × ServiceMS / 1000), that Validate accepts. With MinTarget,
	// 50,000 Erlangs need 51,349 servers, well inside MaxServers.
	MaxOfferedLoad = 50_000
	// MinTarget is the smallest Target Validate accepts: one request in a
	// billion. Far smaller targets would ask for shares that float64
	// arithmetic only holds as subnormal numbers, where the recursion stops
	// falling.
	MinTarget = 1e-9

	// MaxPatienceLoad is the most arrivals a mean patience may hold
	// (RateRPS × PatienceMS / 1000), which bounds the terms Erlang A sums
	// for each count of servers (see computeErlangA).
	MaxPatienceLoad = 200_000

	maxRPS     = limits.MaxRPS
	minService = limits.MinServiceMS
	maxMS      = limits.MaxMS

	// nearbySpan is how many server counts Nearby shows either side of the
	// answer.
	nearbySpan = 4
	// curveBelow and curveAbove bound Curve: at most this many server
	// counts below and above the answer.
	curveBelow = 30
	curveAbove = 10
)

// Input is what the planner is asked, with snake_case JSON keys. Unlike
// sim.Config, a zero field does not mean its default: Validate refuses it.
type Input struct {
	// RateRPS is the arrival rate, in requests a second, above 0 and at
	// most 1,000,000. Default 120.
	RateRPS float64 `json:"rate_rps"`
	// ServiceMS is the mean service time, in milliseconds, from 0.001 to
	// 3,600,000. Default 45.
	ServiceMS float64 `json:"service_ms"`
	// Target is the largest acceptable share of requests that wait (or that
	// wait longer than LimitMS), a fraction from MinTarget (1e-9) to below 1.
	// Default 0.05, that is 5%.
	Target float64 `json:"target"`
	// LimitMS is the wait, in milliseconds, that Target is about: 0 means
	// any wait at all; above 0 means waits longer than LimitMS. From 0 to
	// 3,600,000. Default 0.
	LimitMS float64 `json:"limit_ms"`
	// PatienceMS is the mean time a person waits in the queue before
	// giving up, in milliseconds, exponential (Erlang A, M/M/c+M): 0 (the
	// default) for Erlang C alone, where nobody gives up; else above 0 and
	// at most 3,600,000, and the Plan has ErlangA beside Erlang C's answer.
	PatienceMS float64 `json:"patience_ms,omitempty"`
	// AbandonTarget, with PatienceMS, sizes Erlang A's answer for at most
	// this share of people giving up, a fraction from MinTarget to below
	// 1, instead of Target on the share that wait; 0 (the default) keeps
	// Target.
	AbandonTarget float64 `json:"abandon_target,omitempty"`
}

// DefaultInput returns the planner's own example: 120 requests a second,
// 45 ms each, at most 5% of requests waiting at all.
func DefaultInput() Input {
	return Input{RateRPS: 120, ServiceMS: 45, Target: 0.05, LimitMS: 0}
}

// OfferedLoad returns the offered load, in Erlangs: RateRPS × ServiceMS /
// 1000, the average number of busy servers (12 at 150/s and 80 ms).
func (in Input) OfferedLoad() float64 {
	return in.RateRPS * in.ServiceMS / 1000
}

// FieldError is a problem with one field of an Input: the field's JSON key
// (such as "rate_rps") and a message that gives the value and what to use
// instead. It is the engine's type, so that sim.FieldErrors lists both.
type FieldError = sim.FieldError

// Validate checks every field and returns the problems joined, each a
// *FieldError naming the field, the value and the allowed range; nil when
// Compute can answer.
func (in Input) Validate() error {
	var errs []error
	bad := func(field, msg string) {
		errs = append(errs, &FieldError{Field: field, Msg: msg})
	}
	// check reports whether x is in range (ok); if not, it records why,
	// with the range in words, want.
	check := func(field string, x float64, ok, tooSmall bool, want string) bool {
		switch {
		case math.IsNaN(x):
			bad(field, limits.Num(x)+" is not a number: use "+want)
		case math.IsInf(x, 0):
			bad(field, limits.Num(x)+" is not a finite number: use "+want)
		case ok:
			return true
		case tooSmall:
			bad(field, limits.Num(x)+" is too small: use "+want)
		default:
			bad(field, limits.Num(x)+" is too large: use "+want)
		}
		return false
	}
	r, s, t, l := in.RateRPS, in.ServiceMS, in.Target, in.LimitMS
	rateOK := check("rate_rps", r, r > 0 && r <= maxRPS, r <= 0,
		"a number of requests per second above 0, up to "+limits.Num(maxRPS))
	serviceOK := check("service_ms", s, s >= minService && s <= maxMS, s < minService,
		"a number of milliseconds from "+limits.Num(minService)+" to "+limits.Num(maxMS))
	check("target", t, t >= MinTarget && t < 1, t < MinTarget,
		"a fraction below 1 (and at least a billionth), such as 0.05 for 5%")
	check("limit_ms", l, l >= 0 && l <= maxMS, l < 0,
		"0 for any wait at all, or a number of milliseconds up to "+limits.Num(maxMS))
	patienceOK := check("patience_ms", in.PatienceMS, in.PatienceMS >= 0 && in.PatienceMS <= maxMS, in.PatienceMS < 0,
		"0 for nobody giving up (Erlang C alone), or a mean patience in milliseconds up to "+limits.Num(maxMS))
	if at := in.AbandonTarget; check("abandon_target", at, at == 0 || at >= MinTarget && at < 1, at < MinTarget,
		"0 to size for the share that wait, or a fraction below 1 (and at least a billionth), such as 0.02 for 2% giving up") &&
		at > 0 && in.PatienceMS == 0 && patienceOK {
		errs = append(errs, sim.NewFieldError("abandon_target", limits.Num(at)+" counts people who give up, and with {patience_ms} 0 nobody does: give {patience_ms}, or leave {abandon_target} out"))
	}
	if rateOK && patienceOK && in.PatienceMS > 0 {
		if n := float64(in.RateRPS*in.PatienceMS) / 1000; n > MaxPatienceLoad {
			errs = append(errs, sim.NewFieldError("patience_ms", limits.Num(in.PatienceMS)+" ms at "+limits.Num(in.RateRPS)+" per second is "+limits.Num(n)+
				" arrivals in a mean patience, more than the planner's Erlang A sums: keep {rate_rps} × {patience_ms} / 1000 at most "+limits.Count(MaxPatienceLoad)))
		}
	}
	if rateOK && serviceOK {
		if a := in.OfferedLoad(); a > MaxOfferedLoad {
			errs = append(errs, sim.NewFieldError("rate_rps", limits.Num(in.RateRPS)+" per second at "+limits.Num(in.ServiceMS)+" ms each is an offered load of "+limits.Num(a)+
				" Erlangs, more than the planner sizes: keep {rate_rps} × {service_ms} / 1000 at most "+limits.Count(MaxOfferedLoad)))
		}
	}
	return errors.Join(errs...)
}

// Row is how one number of servers fares.
type Row struct {
	// Servers is the number of servers, c.
	Servers int `json:"servers"`
	// Utilisation is the offered load over the servers, a/c: the share of
	// the time each server is busy when Stable; 1 or more when not.
	Utilisation float64 `json:"utilisation"`
	// Stable reports whether the servers keep up on average (c > a). When
	// false the queue grows without bound: Wait is 1, MeetsTarget is false,
	// and MeanWaitMS and P99QueueWaitMS are 0, standing for "no finite value"
	// (JSON has no infinity).
	Stable bool `json:"stable"`
	// Wait is the share of requests the target is about, a fraction in
	// [0, 1]: those that wait at all (ErlangC) when the Input's LimitMS is
	// 0, else those that wait longer than LimitMS (WaitOver).
	Wait float64 `json:"wait"`
	// MeanWaitMS is the mean wait in the queue over all requests, in
	// milliseconds (MeanWaitMS).
	MeanWaitMS float64 `json:"mean_wait_ms"`
	// P99QueueWaitMS is the 99th percentile of the wait in the queue over
	// all requests, from arrival to the start of service, service left
	// out, in milliseconds (P99WaitMS); 0 when at most 1% wait. It is the
	// simulator's Sale.P99QueueWaitMS, not its Sale.P99WaitMS, the time to
	// an answer, which includes the service (MODEL.md rules 16 and 20).
	// The key was "p99_wait_ms" before it was named apart from the
	// simulator's time to an answer.
	P99QueueWaitMS float64 `json:"p99_queue_wait_ms"`
	// MeetsTarget reports whether Wait is at most the Input's Target.
	MeetsTarget bool `json:"meets_target"`
}

// Plan is the planner's answer.
type Plan struct {
	// Input is what was asked.
	Input Input `json:"input"`
	// OfferedLoad is RateRPS × ServiceMS / 1000, in Erlangs: the average
	// number of busy servers. Any stable count of servers is above it.
	OfferedLoad float64 `json:"offered_load"`
	// Servers is the answer: the fewest servers whose Wait is at most the
	// Target.
	Servers int `json:"servers"`
	// Answer is the Row for Servers.
	Answer Row `json:"answer"`
	// OneFewer is the Row for Servers − 1, what one fewer would cost (it
	// may be unstable); nil when Servers is 1.
	OneFewer *Row `json:"one_fewer"`
	// Nearby holds the Rows from max(1, Servers − 4) to Servers + 4, in
	// order; unstable ones are marked by Stable.
	Nearby []Row `json:"nearby"`
	// Curve holds the Rows for a chart of how waiting falls as servers are
	// added: every stable count from max(first stable count, Servers − 30)
	// to Servers + 10, in order.
	Curve []Row `json:"curve"`
	// ErlangA is the answer when people give up (Input.PatienceMS above
	// 0), beside Erlang C's; nil when nobody does.
	ErlangA *PlanA `json:"erlang_a,omitempty"`
}

// RowA is how one number of servers fares when people give up (Erlang A).
// Every figure is finite, over capacity too.
type RowA struct {
	Servers int `json:"servers"`
	// Utilisation is the offered load over the servers, a/c; above 1 the
	// servers are over capacity, and those who give up keep the queue
	// finite.
	Utilisation float64 `json:"utilisation"`
	// Wait is the share of people who wait at all, P(W > 0).
	Wait float64 `json:"wait"`
	// WaitOver is the share still waiting LimitMS after they arrive,
	// neither served nor gone, P(W > limit); Wait when LimitMS is 0.
	WaitOver float64 `json:"wait_over"`
	// Abandon is the share who give up before a server takes them, P(Ab).
	Abandon float64 `json:"abandon"`
	// MeetsTarget reports whether the share the answer is sized on (Abandon
	// with an AbandonTarget, else WaitOver) is at most its target.
	MeetsTarget bool `json:"meets_target"`
}

// PlanA is Erlang A's answer.
type PlanA struct {
	// Servers is the fewest servers that meet the target: AbandonTarget on
	// Abandon when it is set, else Target on WaitOver. It is never more
	// than Erlang C's answer for the waiting targets, and may be below the
	// offered load.
	Servers int `json:"servers"`
	// Answer is the RowA for Servers; OneFewer for Servers − 1 (nil when
	// Servers is 1); Nearby from max(1, Servers − 4) to Servers + 4.
	Answer   RowA   `json:"answer"`
	OneFewer *RowA  `json:"one_fewer"`
	Nearby   []RowA `json:"nearby"`
}

// Compute returns the Plan for in, or the errors of in.Validate. It walks the
// Erlang B recursion once up to the answer and once more up to the end of the
// Curve, so it costs O(Servers) time and O(1) memory beyond the Plan.
func Compute(in Input) (Plan, error) {
	if err := in.Validate(); err != nil {
		return Plan{}, err
	}
	a := in.OfferedLoad()
	p := Plan{Input: in, OfferedLoad: a}

	// The fewest servers: C(c, a), and so Wait, falls as c grows past a,
	// so the first count that meets the target is the answer.
	b := 1.0
	for c := 1; ; c++ {
		if c > MaxServers {
			return Plan{}, &FieldError{Field: "target", Msg: limits.Num(in.Target) + " would need more than " + limits.Count(MaxServers) +
				" servers at an offered load of " + limits.Num(a) + " Erlangs: use a larger target or a smaller load"}
		}
		b = erlangBStep(b, c, a)
		if r := row(in, c, a, b); r.MeetsTarget {
			p.Servers = c
			break
		}
	}

	firstStable := int(math.Floor(a)) + 1 // a <= MaxOfferedLoad, so this fits
	nearLo := max(1, p.Servers-nearbySpan)
	curveLo := max(firstStable, p.Servers-curveBelow)
	hi := p.Servers + max(nearbySpan, curveAbove)
	p.Nearby = make([]Row, 0, p.Servers+nearbySpan-nearLo+1)
	p.Curve = make([]Row, 0, p.Servers+curveAbove-curveLo+1)
	b = 1.0
	for c := 1; c <= hi; c++ {
		b = erlangBStep(b, c, a)
		if c < min(nearLo, curveLo, p.Servers-1) {
			continue // no row wanted yet; the recursion still needs this step
		}
		r := row(in, c, a, b)
		if c == p.Servers {
			p.Answer = r
		}
		if c == p.Servers-1 {
			fewer := r
			p.OneFewer = &fewer
		}
		if c >= nearLo && c <= p.Servers+nearbySpan {
			p.Nearby = append(p.Nearby, r)
		}
		if c >= curveLo && c <= p.Servers+curveAbove && r.Stable {
			p.Curve = append(p.Curve, r)
		}
	}
	if in.PatienceMS > 0 {
		p.ErlangA = planA(in, a)
	}
	return p, nil
}

// rowA returns the RowA for c >= 1 servers at offered load a.
func rowA(in Input, c int, a float64) RowA {
	mu, gamma := 1000/in.ServiceMS, 1000/in.PatienceMS
	f := computeErlangA(c, in.RateRPS, mu, gamma, in.LimitMS/1000, ErlangB(c, a))
	r := RowA{Servers: c, Utilisation: a / float64(c), Wait: f.waits, WaitOver: f.waitOver, Abandon: f.abandons}
	if in.AbandonTarget > 0 {
		r.MeetsTarget = r.Abandon <= in.AbandonTarget
	} else {
		r.MeetsTarget = r.WaitOver <= in.Target
	}
	return r
}

// planA finds Erlang A's answer by bisection: every share falls as servers
// are added, so the counts that meet the target are those from the answer
// up. The search starts from the first count that meets it among 1, 2, 4,
// 8, ..., so it costs O(log Servers) evaluations.
func planA(in Input, a float64) *PlanA {
	lo, hi := 0, 1 // lo fails (no servers serve no one); hi is tried
	for !rowA(in, hi, a).MeetsTarget {
		lo, hi = hi, min(2*hi, MaxServers)
		if lo == MaxServers {
			break // Validate's bounds keep the answer far below this
		}
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if rowA(in, mid, a).MeetsTarget {
			hi = mid
		} else {
			lo = mid
		}
	}
	pa := &PlanA{Servers: hi}
	for c := max(1, hi-nearbySpan); c <= hi+nearbySpan; c++ {
		r := rowA(in, c, a)
		pa.Nearby = append(pa.Nearby, r)
		switch c {
		case hi:
			pa.Answer = r
		case hi - 1:
			fewer := r
			pa.OneFewer = &fewer
		}
	}
	return pa
}

// row returns the Row for c servers given b = B(c, a).
func row(in Input, c int, a, b float64) Row {
	r := Row{Servers: c, Utilisation: a / float64(c)}
	if float64(c) <= a {
		r.Wait = 1
		return r
	}
	pw := erlangC(c, a, b)
	r.Stable = true
	r.Wait = pw
	if in.LimitMS > 0 {
		r.Wait = waitOver(c, a, in.ServiceMS, in.LimitMS, pw)
	}
	r.MeanWaitMS = meanWaitMS(c, a, in.ServiceMS, pw)
	r.P99QueueWaitMS = p99WaitMS(c, a, in.ServiceMS, pw)
	r.MeetsTarget = r.Wait <= in.Target
	return r
}
