package sim

// FIFO is the unbounded queue (rule 6): every request waits, oldest first,
// however long that takes, and a worker serves it even when its client
// has already given up. It sheds nothing. It is most frameworks' default.
const FIFO Policy = 0

func init() {
	definePolicy(FIFO, policySpec{
		key: "fifo", title: "Unbounded queue", short: "unbounded", noun: "the unbounded queue",
		light: "#1f5fbf", dark: "#7fb0ff",
		rule: 6, post: true,
		admit: admitAll, take: takeOldest, shed: shedNothing,
		arrivalOrder: true,
	})
}
