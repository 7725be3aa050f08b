package sim

import (
	"errors"
	"slices"
)

// Scope is what a command or a page runs of a Config: its own policy and
// client alone (one run), or every policy side by side (the post's tables,
// the page's comparison), or every client strategy (the client
// comparison). A setting counts if any run in scope reads it.
type Scope struct {
	EveryPolicy bool // every policy is run with the Config's other settings
	EveryClient bool // every client strategy is run with them
	Series      bool // a run's time series is shown (series_step_s counts)
	Orders      bool // how the sale's orders fared is shown, as a Result's Sale does (order_share counts under any policy)
}

// Unused returns a *FieldError for each key in given (JSON keys, as the
// caller was given them: a flag, a URL key, an attribute, a JS API key)
// whose setting changes nothing that the runs in scope do, naming the
// setting that would make it count; nil when every one counts. It is for
// settings given explicitly, not for defaults, which are there whether
// they count or not. Keys of settings that every run reads, and keys it
// does not know, are not its business. Read its messages with
// FieldError.Say, so that the setting it names is spelled as the caller
// spells it ("needs --client budget").
//
// Who reads a setting is its Setting's Owner. A client's own settings
// count only with that client (budget_tokens with budget), and only when
// there are retries (but throttling, which refuses first attempts too);
// the retry delay and its jitter only with retries and a client that
// waits them (backoff draws its own); a client other than fixed and
// throttle only with retries; a policy's own settings (policySpec.settings:
// the queue bound for the bounded queues, the queue timeout's M and N),
// the refusal cost and the budget client's cost of a refusal (for the
// policies that refuse) only under those policies, unless every policy
// runs; the share of orders only under priority for orders, or where how
// orders fared is shown. The client only where it is the one client run.
// Settings that a shape or a trigger
// reads (service_p99_ms, slow_start_s) are Validate's: it refuses them
// when their shape or trigger is off.
func (c Config) Unused(given []string, s Scope) error {
	var errs []error
	for _, key := range given {
		if says := c.unused(key, s); says != "" {
			errs = append(errs, NewFieldError(key, says))
		}
	}
	return errors.Join(errs...)
}

// policyOwners returns the policies that read key's setting of their own
// (policySpec.settings); for the refusal cost and the budget client's
// cost of a refusal, the policies that refuse (rule 12: under another, no
// request is refused); for the share of orders, those that put orders
// first (rule 11). nil for a setting every policy reads.
func policyOwners(key string) []Policy {
	var out []Policy
	for _, p := range Policies {
		reads := slices.Contains(p.spec().settings, key)
		switch key {
		case "refusal_cost_ms", "budget_refusal_cost":
			reads = p.Refuses()
		case "order_share":
			reads = p.PutsOrdersFirst()
		}
		if reads {
			out = append(out, p)
		}
	}
	return out
}

// unused is why key's setting counts for nothing in c under s, marked as
// NewFieldError reads it, or "" if it counts.
func (c Config) unused(key string, s Scope) string {
	noRetries := "needs {retries} above 0 (with none, no client retries): give {retries}, or leave out {" + key + "}"
	setting, _ := SettingByKey(key)
	if setting.Owner.Kind == ByOrders && (s.Orders || s.EveryPolicy || c.Policy.PutsOrdersFirst()) {
		return ""
	}
	if owners := policyOwners(key); owners != nil && !s.EveryPolicy && !slices.Contains(owners, c.Policy) {
		if setting.Owner.Kind == ByOrders {
			return "needs " + either("policy", owners) + " (the policy is " + c.Policy.String() + "): only it treats orders apart, " +
				"and nothing here shows how orders fared: choose it, or leave out {" + key + "}"
		}
		return "needs " + either("policy", owners) + " (the policy is " + c.Policy.String() + "): choose one, or leave out {" + key + "}"
	}
	if key == "client" && s.EveryClient {
		return "counts for nothing where every client strategy runs: leave out {client}"
	}
	if setting.Owner.Kind == BySeries && !s.Series {
		return "changes only a run's time series, which nothing here shows: leave out {" + key + "}, or ask for one run's series"
	}
	if setting.Owner.Kind == ByClient {
		owners := setting.Owner.Clients
		if !s.EveryClient && !slices.Contains(owners, c.Client) {
			return "needs " + either("client", owners) + " (the client is " + c.Client.String() + "): add it, or leave out {" + key + "}"
		}
		throttles := c.Client == Throttle || s.EveryClient && slices.Contains(owners, Throttle)
		if c.Retries == 0 && !throttles {
			return noRetries
		}
		return ""
	}
	switch {
	case setting.Owner.Kind == ByRetries:
		if c.Retries == 0 {
			return noRetries
		}
		if c.Client == Backoff && !s.EveryClient {
			return "counts for nothing with {client=backoff}, which draws its own delays from {backoff_base_ms} and {backoff_cap_ms}: " +
				"leave out {" + key + "}, or choose another client"
		}
	case (key == "normal_rps" || key == "sale_rps") && c.Arrivals != "":
		return "counts for nothing with {arrivals}, whose table gives every rate: leave out {" + key + "}, or scale the table with {arrivals_scale}"
	case (key == "sale_start_s" || key == "sale_s") && c.Arrivals != "" && c.SaleThresholdRPS > 0:
		return "counts for nothing with {sale_threshold_rps}, which finds the sale's window in the table: leave out {" + key + "}, or {sale_threshold_rps}"
	case key == "service_ms" && c.Service == HistogramService:
		return "counts for nothing with {service=histogram}, whose mean is the service time: leave out {service_ms}"
	case key == "client":
		if c.Retries == 0 && c.Client != Fixed && c.Client != Throttle && !s.EveryClient {
			return "needs {retries} above 0: the " + c.Client.String() + " client only decides retries, and there are none: give {retries}, or leave out {client}"
		}
	}
	return ""
}

// either writes "{key=a}" or "{key=a} or {key=b}" for the values of key.
func either[V interface{ String() string }](key string, values []V) string {
	s := ""
	for i, v := range values {
		if i > 0 {
			s += " or "
		}
		s += "{" + key + "=" + v.String() + "}"
	}
	return s
}
