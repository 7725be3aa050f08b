package sim

// INTERIM until the proxies' branch lands: the smallest Proxy methods the
// engine calls. Deleted at the merge.

import "strconv"

func (p *Proxy) set(k, v string) error {
	x, err := strconv.ParseFloat(v, 64)
	switch k {
	case "proxy":
		*p = Proxy{}
		if v == "envoy" {
			*p = Proxy{Retries: 1, BackoffBaseMS: 25, BackoffMaxMS: 250}
		}
		return nil
	case "retries":
		p.Retries = int(x)
	case "per_try_timeout_ms":
		p.PerTryTimeoutMS = x
	case "backoff_base_ms":
		p.BackoffBaseMS = x
	case "backoff_max_ms":
		p.BackoffMaxMS = x
	case "retry_on":
		p.RetryOn = map[string]RetryOn{"both": RetryBoth, "refusals": RetryRefusals, "timeouts": RetryTimeouts}[v]
		return nil
	default:
		return &hopKeyError{k, "no such key"}
	}
	return err
}

func (p Proxy) appendText(b []byte) []byte {
	b = append(b, "retries="...)
	b = strconv.AppendInt(b, int64(p.Retries), 10)
	b = appendKey(b, "per_try_timeout_ms", p.PerTryTimeoutMS, false)
	b = appendKey(b, "backoff_base_ms", p.BackoffBaseMS, false)
	b = appendKey(b, "backoff_max_ms", p.BackoffMaxMS, false)
	if p.RetryOn != RetryBoth {
		b = append(b, []string{"", " retry_on=refusals", " retry_on=timeouts"}[p.RetryOn]...)
	}
	return b
}

func (p Proxy) newBudget() retryBudget { return nil }

func (p Proxy) backoffNS(n int32, u float64) int64 {
	return int64(float64(backoffCeiling(p.BackoffBaseMS*1e6, p.BackoffMaxMS*1e6, n) * u))
}

func (p Proxy) retriesOn(refused bool) bool {
	return p.RetryOn == RetryBoth || (p.RetryOn == RetryRefusals) == refused
}

func (p Proxy) check(bad func(key, msg string)) {}

func (p Proxy) fluidTries() float64 { return float64(1 + p.Retries) }
