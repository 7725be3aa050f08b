package report

import "github.com/shedsim/shedsim/sim"

// Row is one policy's line in the comparison table, for the people who
// first arrived during the sale (wasted work is over the whole run).
type Row struct {
	Policy sim.Policy `json:"policy"`
	// Title is the policy's name as the post writes it.
	Title string `json:"title"`
	// People is the sale's people, and Answered, Refused and TimedOut are
	// shares of them (0 when there were none).
	People   int     `json:"people"`
	Answered float64 `json:"answered"`
	Refused  float64 `json:"refused"`
	TimedOut float64 `json:"timed_out"`
	// Orders is the sale's orders, and OrdersAnswered the share of them
	// answered (0 when there were none).
	Orders         int     `json:"orders"`
	OrdersAnswered float64 `json:"orders_answered"`
	// MedianWaitMS and P99WaitMS are over answered sale people, service
	// included; nil when nobody was answered.
	MedianWaitMS *float64 `json:"median_wait_ms"`
	P99WaitMS    *float64 `json:"p99_wait_ms"`
	// Wasted counts requests served after their client had gone.
	Wasted int `json:"wasted"`
	// BackToNormalS is nil when the run never got back.
	BackToNormalS *float64     `json:"back_to_normal_s"`
	Recovery      sim.Recovery `json:"recovery"`
	// AttemptsPerPerson is the mean attempts per sale person.
	AttemptsPerPerson float64 `json:"attempts_per_person"`
}

// RowOf summarises one Result as a table row.
func RowOf(r sim.Result) Row {
	return Row{
		Policy:            r.Config.Policy,
		Title:             r.Config.Policy.Title(),
		People:            r.Sale.People,
		Answered:          r.Sale.AnsweredShare,
		Refused:           r.Sale.RefusedShare,
		TimedOut:          r.Sale.TimedOutShare,
		Orders:            r.Sale.Orders,
		OrdersAnswered:    r.Sale.OrdersAnsweredShare,
		MedianWaitMS:      r.Sale.MedianWaitMS,
		P99WaitMS:         r.Sale.P99WaitMS,
		Wasted:            r.Wasted,
		BackToNormalS:     r.BackToNormalS,
		Recovery:          r.Recovery,
		AttemptsPerPerson: r.AttemptsPerPerson,
	}
}

// Shares says how the row's people fared, for a bar's text: "7.0%
// answered, 0.0% refused, 93.0% timed out", or "nobody arrived".
func (r Row) Shares() string {
	if r.People == 0 {
		return "nobody arrived"
	}
	return Percent(r.Answered) + " answered, " + Percent(r.Refused) + " refused, " + Percent(r.TimedOut) + " timed out"
}

// Compare runs c under every policy, in the order of sim.Policies, with
// everything else the same. It returns c's validation errors unchanged.
func Compare(c sim.Config) ([]sim.Result, error) {
	return variants(c, sim.Policies, func(c *sim.Config, p sim.Policy) { c.Policy = p })
}

// ComparePost is Compare for the post's six policies alone
// (sim.PostPolicies), for the post's own tables.
func ComparePost(c sim.Config) ([]sim.Result, error) {
	return variants(c, sim.PostPolicies, func(c *sim.Config, p sim.Policy) { c.Policy = p })
}

// variants runs c once for each value, set into a copy of c, as one batch
// (sim.Runs). It returns c's validation errors unchanged.
func variants[T any](c sim.Config, values []T, set func(*sim.Config, T)) ([]sim.Result, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	cs := make([]sim.Config, len(values))
	for i, v := range values {
		cs[i] = c
		set(&cs[i], v)
	}
	return sim.Runs(cs)
}

// Rows summarises Results as table rows, in order.
func Rows(rs []sim.Result) []Row {
	out := make([]Row, len(rs))
	for i, r := range rs {
		out[i] = RowOf(r)
	}
	return out
}

// Recovered says in words how a run ended after the sale: "back to normal
// 90 s after the sale", "back to normal at once", "not back by 300 s: a
// backlog too long for the run", "not back by 300 s: stuck".
func Recovered(r sim.Result) string {
	switch {
	case r.BackToNormalS != nil && *r.BackToNormalS == 0:
		return "back to normal at once"
	case r.BackToNormalS != nil && NoSale(r.Config) && !IncidentOnly(r.Config):
		return "back to normal " + Seconds(*r.BackToNormalS) + " after " + Seconds(r.Config.SaleEndS())
	case r.BackToNormalS != nil:
		return "back to normal " + Seconds(*r.BackToNormalS) + " after " + afterTrigger(r.Config)
	case r.Recovery == sim.Backlog:
		return "not back by " + Seconds(r.Config.DurationS) + ": a backlog too long for the run"
	case r.Recovery == sim.Throttled:
		return "not back by " + Seconds(r.Config.DurationS) + ": the clients are still throttling themselves"
	case r.Recovery == sim.Overloaded:
		return "not back by " + Seconds(r.Config.DurationS) + ": overloaded even at normal traffic"
	case r.Recovery == sim.Unmeasured && NoSale(r.Config) && !IncidentOnly(r.Config):
		return "not measured: nobody arrived after " + Seconds(r.Config.SaleEndS())
	case r.Recovery == sim.Unmeasured:
		return "not measured: nobody arrived after " + afterTrigger(r.Config)
	case r.Config.CollapsedAt(r.QueueAtEnd):
		return "not back by " + Seconds(r.Config.DurationS) + ": stuck, its queue slows the service below the normal traffic"
	case !r.Config.Drains(0): // no retry is needed to keep it full
		return "not back by " + Seconds(r.Config.DurationS) + ": stuck, the normal traffic alone is over capacity"
	case r.Recovery == sim.Stuck && stuckBehindName(r) != "":
		return "not back by " + Seconds(r.Config.DurationS) + ": stuck, " + stuckBehindName(r) + " behind it never drains"
	default:
		return "not back by " + Seconds(r.Config.DurationS) + ": stuck, retries keep the queue full"
	}
}

// BackCell is the short form for a table cell: "at once", "90 s",
// "backlog", "stuck".
func BackCell(r Row) string {
	switch {
	case r.BackToNormalS != nil && *r.BackToNormalS == 0:
		return "at once"
	case r.BackToNormalS != nil:
		return Seconds(*r.BackToNormalS)
	case r.Recovery == sim.Backlog:
		return "backlog"
	case r.Recovery == sim.Throttled:
		return "throttled"
	case r.Recovery == sim.Overloaded:
		return "overloaded"
	case r.Recovery == sim.Unmeasured:
		return "nobody after"
	default:
		return "stuck"
	}
}

// stuckBehind is, for the entry of a chain that is stuck though its own
// queue drains (rule 40), the first hop behind it that never drains, whose
// calls keep failing; false for any other Result.
func stuckBehind(r sim.Result) (sim.HopLoad, bool) {
	if r.Recovery != sim.Stuck || len(r.Hops) == 0 {
		return sim.HopLoad{}, false
	}
	loads := r.Config.ChainLoads()
	if !loads[0].Drains {
		return sim.HopLoad{}, false
	}
	for _, l := range loads[1:] {
		if !l.Drains {
			return l, true
		}
	}
	return sim.HopLoad{}, false
}

// stuckBehindName is stuckBehind's hop's name, or "".
func stuckBehindName(r sim.Result) string {
	l, _ := stuckBehind(r)
	return l.Name
}
