package sim

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// postSale is the post's traffic written as a rate table: 70/s, 150/s for
// a minute from 60 s, then 70/s (testdata/traffic/post-sale.csv).
const postSale = "time_s,rps\n0,70\n60,150\n120,70\n"

// resultBytes is r as JSON without its Config, which differs by the table
// itself.
func resultBytes(t *testing.T, r Result) string {
	t.Helper()
	r.Config = Config{}
	b, err := json.Marshal(r)
	require.NoError(t, err)
	return string(b)
}

// TestPostSaleAsTable holds the table path to the normal, sale and timing
// fields' draws: the post's sale written as a table gives the same Result,
// byte for byte (its Config aside), for every policy, with and without
// retries and a series, with the window set by hand or found by a
// threshold, at several seeds, on both of the engine's paths.
func TestPostSaleAsTable(t *testing.T) {
	defer func(was bool) { eventLoopOnly = was }(eventLoopOnly)
	for _, eventLoop := range []bool{false, true} {
		eventLoopOnly = eventLoop
		for _, p := range Policies {
			for _, seed := range []uint64{1, 2, 3} {
				for _, retries := range []int{0, 3} {
					c := DefaultConfig()
					c.Policy, c.Seed, c.Retries = p, seed, retries
					if seed == 3 {
						c.SeriesStepS = 1
					}
					want, err := Run(c)
					require.NoError(t, err)
					for _, threshold := range []float64{0, 100} {
						tc := c
						tc.Arrivals, tc.SaleThresholdRPS = postSale, threshold
						got, err := Run(tc)
						require.NoError(t, err)
						name := fmt.Sprintf("event loop %v, %s, seed %d, retries %d, threshold %v", eventLoop, p, seed, retries, threshold)
						require.Equal(t, resultBytes(t, want), resultBytes(t, got), name)
						assert.Equal(t, c.NormalRPS, got.Config.NormalRPS, name)
						assert.Equal(t, c.SaleRPS, got.Config.SaleRPS, name)
						assert.Equal(t, c.SaleStartS, got.Config.SaleStartS, name)
						assert.Equal(t, c.SaleS, got.Config.SaleS, name)
					}
				}
			}
		}
	}
}
