package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestComesToOrder holds the integer test of the order draw to the one it
// replaces, Float64() < OrderShare, draw for draw: at the shares' edges, at
// shares that are exactly a draw's value (where < and <= part), and at the
// post's 0.2.
func TestComesToOrder(t *testing.T) {
	shares := []float64{0, 1, 0.2, 0.5, 1e-300, 0x1p-53, 1 - 0x1p-53, 0.123456789}
	probe := newStream(7, streamOrders)
	for range 20 { // shares on a draw's value, a step either side, and half a step above
		k := probe.Uint64() >> 11
		shares = append(shares, float64(k)*0x1p-53, float64(k+1)*0x1p-53, float64(k-1)*0x1p-53)
		if k < 1<<52 { // k + 1/2 has a float64 of its own
			shares = append(shares, (float64(k)+0.5)*0x1p-53)
		}
	}
	for _, share := range shares {
		c := DefaultConfig()
		c.OrderShare = share
		c.Seed = 7
		e := newEngine(c, nil)
		want := newStream(7, streamOrders)
		e.orders = newStream(7, streamOrders)
		for i := range 50_000 {
			if got, w := e.comesToOrder(), want.Float64() < share; got != w {
				assert.Equal(t, w, got, "share %v, draw %d", share, i)
				break
			}
		}
	}
}
