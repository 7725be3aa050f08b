package sim

// Priority is the bounded queue with room kept for orders (rule 11): when
// the queue is full and an order arrives, the newest waiting preview is
// refused to make room. Google's SRE book calls this criticality
// ("Handling Overload"). It sheds previews first, orders only when no
// preview is waiting.
const Priority Policy = 5

func init() {
	definePolicy(Priority, policySpec{
		key: "priority", title: "Priority for orders", short: "priority", noun: "priority for orders",
		light: "#5d6b00", dark: "#c5d250", dash: "16 3 3 3",
		rule: 11, post: true,
		settings:     []string{"queue"},
		refusesEarly: true,
		admit:        admitPriority, take: takeOldestOfTwo, shed: shedNothing,
	})
}
