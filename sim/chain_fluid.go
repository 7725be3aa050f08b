package sim

// The fluid view of a chain (rules 18 and 40): once everyone times out,
// each layer retries every try that fails, so each hop is offered the
// entry's normal rate times every layer's tries down to it. A hop drains
// when that is under its own capacity (its workers over its own service
// time); a hop that does not keeps failing the calls above it, so a
// service is stuck when it or any hop behind it cannot drain.

// HopLoad is one service of a chain as the fluid view sees it.
type HopLoad struct {
	// Name is the hop's, "" for the entry.
	Name string `json:"name"`
	// Tries are the factors of its offered load, entry first: the
	// entry's tries per person (FluidTries), then each proxy's tries per
	// call down to this hop (1 + retries, or what its limit lets
	// through; Proxy.fluidTries).
	Tries []float64 `json:"tries"`
	// OfferedRPS is the entry's normal rate times every factor, and
	// CapacityRPS the hop's own, Workers x 1000 / ServiceMS (after any
	// incident at the entry), both per second.
	OfferedRPS  float64 `json:"offered_rps"`
	CapacityRPS float64 `json:"capacity_rps"`
	// Drains says OfferedRPS is under CapacityRPS.
	Drains bool `json:"drains"`
}

// ChainLoads returns the fluid view of c's services, the entry first: one
// for a service alone, as Drains sees it.
func (c Config) ChainLoads() []HopLoad {
	c = c.Resolved()
	tries := []float64{c.FluidTries(c.Retries)}
	out := []HopLoad{{Tries: tries, OfferedRPS: float64(c.NormalRPS * tries[0]), CapacityRPS: c.CapacityAfterRPS()}}
	offered := out[0].OfferedRPS
	for _, h := range c.HopList() {
		t := h.Proxy.fluidTries(offered, h.TimeoutMS)
		offered = float64(offered * t)
		tries = append(tries[:len(tries):len(tries)], t)
		out = append(out, HopLoad{Name: h.Name, Tries: tries, OfferedRPS: offered, CapacityRPS: float64(h.Workers) * 1000 / h.ServiceMS})
	}
	for k := range out {
		out[k].Drains = out[k].OfferedRPS < out[k].CapacityRPS
	}
	return out
}

// chainRecovery classifies, as rule 18 does, the recovery of a chain's
// service k (0 the entry) that is not back to normal: stuck when it or a
// hop behind it cannot drain, since the calls down to that hop keep
// failing; else overloaded when its policy cannot hold a timeout's wait
// (hc is the Config it ran), a backlog otherwise.
func chainRecovery(loads []HopLoad, k int, hc Config) Recovery {
	if !stillDrains(loads[k:]) {
		return Stuck
	}
	if !hc.HoldsTimeout() {
		return Overloaded
	}
	return Backlog
}

// stillDrains says every service of loads drains.
func stillDrains(loads []HopLoad) bool {
	for _, l := range loads {
		if !l.Drains {
			return false
		}
	}
	return true
}

// fluidTries is the most tries a call through p makes, on average, once
// every try fails and calls come at calls a second (rules 41 to 44): 1 +
// Retries, or what its limit lets through. Envoy's max_retries keeps at
// most MaxRetries retries out at once, each out for a failing try's time
// (the per-try timeout, else the call's timeout, timeoutMS), so at most
// MaxRetries over that time a second. Envoy's retry_budget keeps retries
// at once under BudgetPercent of the tries out, so under 1 / (1 -
// BudgetPercent/100) tries a call; Linkerd's deposits, a call, what pays
// for deposit/withdraw retries (1/trunc(1/RetryRatio) up to a ratio of 1),
// so 1 + that; gRPC's
// throttle stops retrying once failures have taken half its tokens, so 1.
func (p Proxy) fluidTries(calls, timeoutMS float64) float64 {
	most := float64(1 + p.Retries)
	switch p.Budget {
	case EnvoyMaxRetries:
		out := timeoutMS
		if p.PerTryTimeoutMS > 0 {
			out = p.PerTryTimeoutMS
		}
		if calls > 0 && out > 0 {
			most = atMost(most, 1+float64(p.MaxRetries)*1000/out/calls)
		}
	case EnvoyBudget:
		if p.BudgetPercent < 100 {
			most = atMost(most, 1/(1-p.BudgetPercent/100))
		}
	case LinkerdBudget:
		if b := newLinkerdBudget(p); b.withdraw > 0 {
			most = atMost(most, 1+float64(b.deposit)/float64(b.withdraw))
		}
	case GRPCThrottle:
		most = 1
	}
	return most
}
