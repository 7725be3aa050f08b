package sim

// CoDel is the queue timeout from Ben Maurer's "Fail at Scale" (ACM Queue,
// 2015), a variant of controlled delay (rule 9): each request may wait
// CoDelTarget (M, 5 ms) if the queue has not been empty for the last
// CoDelInterval (N, 100 ms), otherwise N. Decided on arrival, enforced
// at pickup: a request over its limit is refused, or dropped silently if
// its client has gone.
const CoDel Policy = 3

func init() {
	definePolicy(CoDel, policySpec{
		key: "codel", title: "Queue timeout (CoDel)", short: "CoDel", noun: "the queue timeout (CoDel)",
		light: "#a65300", dark: "#f0a050", dash: "7 3 2 3",
		rule: 9, post: true,
		settings:     []string{"codel_target_ms", "codel_interval_ms"},
		refusesEarly: true,
		admit:        admitCoDel, take: takeOldest, shed: shedOverLimit,
		arrivalOrder: true,
	})
}
