package sim

// Skip is skip the abandoned (rule 7): FIFO, but a worker drops, at no
// cost and with no reply, a request whose client has already given up.
// It sheds only dead work, and only once that work reaches the front.
const Skip Policy = 1

func init() {
	definePolicy(Skip, policySpec{
		key: "skip", title: "Skip the abandoned", short: "skip", noun: "skipping the abandoned",
		light: "#8a4fc2", dark: "#c39af5", dash: "2 3",
		rule: 7, post: true,
		admit: admitAll, take: takeOldest, shed: shedAbandoned,
		arrivalOrder: true,
	})
}
