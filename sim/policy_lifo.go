package sim

// LIFO is adaptive LIFO from the same article as CoDel (rule 10): the
// queue timeout, but while the queue has not been empty for CoDelInterval
// the worker takes the newest request, whose client is the most likely
// to still be waiting.
const LIFO Policy = 4

func init() {
	definePolicy(LIFO, policySpec{
		key: "lifo", title: "Newest first (adaptive LIFO)", short: "LIFO", noun: "adaptive LIFO (newest first)",
		light: "#c2185b", dark: "#f48fb1", dash: "3 3",
		rule: 10, post: true,
		settings:     []string{"codel_target_ms", "codel_interval_ms"},
		refusesEarly: true,
		admit:        admitCoDel, take: takeNewestCrowded, shed: shedOverLimit,
	})
}
