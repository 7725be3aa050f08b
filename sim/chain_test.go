package sim

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quietChain is a light load on a chain of three hops behind the entry,
// every timeout far longer than any wait: nothing times out, so what each
// hop receives is what the proxies' retries make of it.
func quietChain() Config {
	c := DefaultConfig()
	c.NormalRPS, c.SaleRPS, c.SaleStartS, c.SaleS, c.DurationS = 0, 5, 0, 20, 120
	c.Workers, c.ServiceMS, c.TimeoutMS = 200, 1, 60_000
	return c
}

// TestChainAmplification: with the bottom hop answering every call with an
// error, and every proxy retrying errors r times with no budget, hop k
// receives exactly (1 + r)^k tries per person (rule 40), asserted, not
// sampled: every person's calls end long before the run does.
func TestChainAmplification(t *testing.T) {
	for _, r := range []int{1, 2} {
		c := quietChain()
		c.Hops = "" +
			"orders: workers=200 service_ms=1 timeout_ms=50000 retries=R retry_on=refusals\n" +
			"payments: workers=200 service_ms=1 timeout_ms=40000 retries=R retry_on=refusals\n" +
			"bank: workers=200 service_ms=1 timeout_ms=30000 retries=R retry_on=refusals errors=1"
		c.Hops = replaceAll(c.Hops, "R", r)
		res, err := Run(c)
		require.NoError(t, err)
		require.Len(t, res.Hops, 3)
		require.Positive(t, res.People)
		assert.Equal(t, res.People, res.Attempts, "the entry's people do not retry")
		assert.Equal(t, res.People, res.Windows[0].Refused+res.Windows[1].Refused, "every person hears the error")
		for k, h := range res.Hops {
			want := res.People * int(math.Pow(float64(1+r), float64(k+1)))
			assert.Equal(t, want, h.Result.Attempts, "hop %d (%s), r=%d", k+1, h.Hop.Name, r)
			assert.Equal(t, float64(want)/float64(res.People), h.TriesPerPerson)
		}
		assert.Equal(t, res.Hops[2].Result.Attempts, res.Hops[2].Result.ErrorAnswers, "the bottom answers every try with an error")
	}
}

func replaceAll(s, old string, n int) string {
	out := ""
	for _, ch := range s {
		if string(ch) == old {
			out += string(rune('0' + n))
		} else {
			out += string(ch)
		}
	}
	return out
}
