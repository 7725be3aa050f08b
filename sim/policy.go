package sim

// Policy is what the service does with a request that does not fit. The six
// policies are a closed set; the zero value is FIFO.
type Policy int

const (
	// FIFO is the unbounded queue (rule 6): every request waits, oldest first,
	// however long that takes, and a worker serves it even when its client
	// has already given up. It sheds nothing. It is most frameworks' default.
	FIFO Policy = iota
	// Skip is skip the abandoned (rule 7): FIFO, but a worker drops, at no
	// cost and with no reply, a request whose client has already given up.
	// It sheds only dead work, and only once that work reaches the front.
	Skip
	// Bounded is a bounded queue (rule 8): an arrival is refused at once when
	// Config.Queue requests are already waiting. Abandoned requests are still
	// served. It sheds only if Queue divided by capacity is shorter than the
	// client's timeout (Fred Hebert, "Queues Don't Fix Overload", 2014).
	Bounded
	// CoDel is the queue timeout from Ben Maurer's "Fail at Scale" (ACM Queue,
	// 2015), a variant of controlled delay (rule 9): each request may wait
	// CoDelTarget (M, 5 ms) if the queue has not been empty for the last
	// CoDelInterval (N, 100 ms), otherwise N. Decided on arrival, enforced
	// at pickup: a request over its limit is refused, or dropped silently if
	// its client has gone.
	CoDel
	// LIFO is adaptive LIFO from the same article (rule 10): CoDel, but while
	// the queue has not been empty for CoDelInterval the worker takes the
	// newest request, whose client is the most likely to still be waiting.
	LIFO
	// Priority is the bounded queue with room kept for orders (rule 11): when
	// the queue is full and an order arrives, the newest waiting preview is
	// refused to make room. Google's SRE book calls this criticality
	// ("Handling Overload"). It sheds previews first, orders only when no
	// preview is waiting.
	Priority
)

// Policies lists every policy in the order the post introduces them.
var Policies = []Policy{FIFO, Skip, Bounded, CoDel, LIFO, Priority}

// policyKeys are the policy keys and titles, in the order of the constants.
var policyKeys = keys{
	typ:   "Policy",
	noun:  "policy",
	names: []string{"fifo", "skip", "bounded", "codel", "lifo", "priority"},
	titles: []string{
		"Unbounded queue",
		"Skip the abandoned",
		"Bounded queue",
		"Queue timeout (CoDel)",
		"Newest first (adaptive LIFO)",
		"Priority for orders",
	},
	shorts: []string{"unbounded", "skip", "bounded", "CoDel", "LIFO", "priority"},
}

// String returns the policy's key, as used in JSON, URLs and flags ("fifo").
func (p Policy) String() string { return policyKeys.name(int(p)) }

// Title returns the policy's name as the post writes it ("Bounded queue").
func (p Policy) Title() string { return policyKeys.title(int(p)) }

// Short returns the policy's name in a word or two ("bounded"), for a
// chart's direct labels, where the title would not fit.
func (p Policy) Short() string { return policyKeys.short(int(p)) }

// ParsePolicy returns the policy whose key is s, ignoring case and spaces.
func ParsePolicy(s string) (Policy, error) {
	i, err := policyKeys.parse(s)
	return Policy(i), err
}

// MarshalText encodes the policy as its key.
func (p Policy) MarshalText() ([]byte, error) { return policyKeys.marshal(int(p)) }

// UnmarshalText decodes a policy from its key.
func (p *Policy) UnmarshalText(b []byte) error {
	v, err := ParsePolicy(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}
