package sim

// Bounded is a bounded queue (rule 8): an arrival is refused at once when
// Config.Queue requests are already waiting. Abandoned requests are still
// served. It sheds only if Queue divided by capacity is shorter than the
// client's timeout (Fred Hebert, "Queues Don't Fix Overload", 2014).
const Bounded Policy = 2

func init() {
	definePolicy(Bounded, policySpec{
		key: "bounded", title: "Bounded queue", short: "bounded", noun: "the bounded queue",
		light: "#1b7f5a", dark: "#4fcf98", dash: "10 5",
		rule: 8, post: true,
		settings:     []string{"queue"},
		refusesEarly: true,
		admit:        admitBound, take: takeOldest, shed: shedNothing,
		arrivalOrder: true,
	})
}
