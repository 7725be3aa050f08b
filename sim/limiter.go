package sim

// An adaptive concurrency limit (rules 27 and on) sits in front of the
// service's queue, as Envoy's filter or Netflix's SimpleLimiter does: it
// admits a request while fewer than its limit are in flight (admitted and
// not yet finished, queued or in service), refuses the rest at once
// (a refusal as rule 12 counts it, with its cost), and learns the limit
// from each request that leaves. Behind it the queue is the post's
// unbounded one: the service never learns that a client left.

// limiter is an adaptive limit's rule, as its library computes it.
type limiter interface {
	// limit is the most requests it lets be in flight now.
	limit() int
	// sample hears one admitted request leave at now, ns: admitted at
	// start, ns, when inflight were in flight counting itself; dropped
	// says the service saw it fail rather than finish. Each library
	// says what a drop is; its rule in MODEL.md states it.
	sample(now, start int64, inflight int, dropped bool)
}

// limitState is the engine's side of an adaptive limit: the rule, the
// requests in flight, and for each request in flight (by attempt id) the
// requests in flight when it was admitted, counting itself.
type limitState struct {
	rule     limiter
	inFlight int
	admitted []int32
	// what the Result reports: the limit's range over the run, and the
	// attempts it refused, those of people outside the sale among them
	lowest, highest int
	refused         int
	normalRefused   int
}

// newLimitState starts c's policy's limiter; nil for a policy without one.
func newLimitState(c Config) *limitState {
	sp := c.Policy.spec()
	if sp.limiter == nil {
		return nil
	}
	r := sp.limiter(c)
	l := r.limit()
	return &limitState{rule: r, lowest: l, highest: l}
}

// admit decides attempt i's admission (a arriving now): true, and counted
// in flight, while fewer than the limit are in flight.
func (l *limitState) admit(i id, a *attempt) bool {
	if l.inFlight >= l.rule.limit() {
		l.refused++
		if !a.sale {
			l.normalRefused++
		}
		return false
	}
	l.inFlight++
	for int(i) >= len(l.admitted) {
		l.admitted = append(l.admitted, 0)
	}
	l.admitted[i] = int32(l.inFlight)
	return true
}

// leave is attempt i (a), admitted, leaving at now: finished, or dropped
// as its library counts a drop. ignored says the service saw neither (a
// worker lost with the request, rule 22): it leaves the count, but the
// rule hears no sample, as a library's onIgnore.
func (l *limitState) leave(i id, a *attempt, now int64, dropped, ignored bool) {
	l.inFlight--
	if ignored {
		return
	}
	l.rule.sample(now, a.t0, int(l.admitted[i]), dropped)
	n := l.rule.limit()
	l.lowest, l.highest = min(l.lowest, n), max(l.highest, n)
}

// stats is what the Result reports of the limit.
func (l *limitState) stats(attempts, saleAttempts int) *LimitStats {
	s := &LimitStats{Lowest: l.lowest, Highest: l.highest, AtEnd: l.rule.limit(), Refused: l.refused}
	if n := attempts - saleAttempts; n > 0 {
		s.NormalRefusedShare = float64(l.normalRefused) / float64(n)
	}
	return s
}

// LimitStats is what a run with an adaptive limit reports of it.
type LimitStats struct {
	// Lowest and Highest are the limit's range over the run, and AtEnd
	// its value when the run ended, in requests in flight.
	Lowest  int `json:"lowest"`
	Highest int `json:"highest"`
	AtEnd   int `json:"at_end"`
	// Refused is the attempts the limit refused.
	Refused int `json:"refused"`
	// NormalRefusedShare is the share of the attempts of people outside
	// the sale that the limit refused: its false sheds, in [0, 1].
	NormalRefusedShare float64 `json:"normal_refused_share"`
}
