package sim

// MaxHops is the most services a chain may hold, the entry included.
const MaxHops = 4

// Hop is a service behind the entry (rule 40): the one the hop before it
// calls, with a proxy in front of it that retries on the caller's behalf.
// A worker of the hop before is held for the whole call, retries
// included. A hop reads the entry's settings for what it does not set
// itself: its policy's own settings, the refusal's cost, the seed.
type Hop struct {
	// Name is the hop as the chain's drawing and tables label it
	// ("payments"): letters, digits, spaces, dashes, up to 20 characters.
	Name string `json:"name"`
	// Workers and ServiceMS are the hop's workers and its own mean
	// service time, ms, before any call it makes itself.
	Workers   int     `json:"workers"`
	ServiceMS float64 `json:"service_ms"`
	// Service and ServiceP99MS are its service times' shape (rule 3a).
	Service      ServiceShape `json:"service,omitempty"`
	ServiceP99MS float64      `json:"service_p99_ms,omitempty"`
	// Policy is what it does with a request that does not fit, and Queue
	// its bound for the policies with one (0 automatic).
	Policy Policy `json:"policy"`
	Queue  int    `json:"queue,omitempty"`
	// TimeoutMS is the caller's timeout on the whole call to this hop, ms,
	// its proxy's retries included.
	TimeoutMS float64 `json:"timeout_ms"`
	// Proxy is the retry policy of the proxy in front of it.
	Proxy Proxy `json:"proxy"`
}

