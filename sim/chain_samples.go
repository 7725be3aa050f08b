package sim

// chainSamples are the chain's samples (rule 40): the shop's sale at a
// checkout that calls orders, which calls payments, through proxies that
// retry. The checkout has 200 workers and 20 ms of its own work, orders
// 64 at 10 ms, so that payments, 8 workers at 60 ms (133 a second), is
// the hop the sale tips. The run ends 2 minutes after the sale.
func chainSamples() []Sample {
	chain := func(orders, payments string) Config {
		c := DefaultConfig()
		c.Workers, c.ServiceMS, c.DurationS = 200, 20, 240
		c.Hops = "orders: workers=64 service_ms=10 timeout_ms=1500 " + orders + "\n" +
			"payments: workers=8 service_ms=60 timeout_ms=1000 " + payments
		return c
	}
	return []Sample{
		{"chain-retries", "Three hops, a retry at each, no limit",
			"The checkout calls orders, which calls payments (133 a second). Each proxy retries a try once, after a per-try timeout of 500 ms to orders and 300 ms to payments, as Envoy's retry_on 5xx does, with no limit on retries at once (Istio sets Envoy's max_retries to 4,294,967,295). The sale tips payments, and both layers' retries keep it from draining: 70 × 2 × 2 = 280 a second against 133.",
			chain("proxy=envoy budget=none per_try_timeout_ms=500", "proxy=envoy budget=none per_try_timeout_ms=300")},
		{"chain-envoy", "The same behind Envoy's default limit",
			"The same retries under Envoy's default circuit breaker, max_retries: at most 3 retries at once to each hop. Most retries are refused, and payments drains after the sale.",
			chain("proxy=envoy per_try_timeout_ms=500", "proxy=envoy per_try_timeout_ms=300")},
		{"chain-envoy-budget", "The same with Envoy's retry budget",
			"Envoy's retry_budget in place of the breaker: retries at once up to 20% of the tries out, at least 3. Under load that lets more through than the breaker's 3, up to 1.25 tries a call at each layer: 70 × 1.25 × 1.25 = 109 a second against payments' 133, which drains, slowly.",
			chain("proxy=envoy budget=envoy per_try_timeout_ms=500", "proxy=envoy budget=envoy per_try_timeout_ms=300")},
		{"chain-istio", "Istio's 2 retries at every hop",
			"Payments keeps a bounded queue and refuses what does not fit; Istio's sidecars retry a refusal twice at each hop, so payments takes 1.8 tries a person, up to 3 × 3 = 9, and answers about the same share of the sale as with no retries.",
			chain("proxy=istio", "policy=bounded proxy=istio")},
		{"chain-grpc", "gRPC's retry throttle",
			"The same refusals, retried by gRPC channels (3 retries, A6's throttle of 10 tokens): once failures have taken half the tokens, the channel stops retrying until successes earn them back, so payments sees about one try a call.",
			chain("proxy=grpc", "policy=bounded proxy=grpc")},
	}
}
