package sweep

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

func nanValue() float64 { return math.NaN() }

// assertRefused checks that err refuses a request, naming field first and
// saying says, as the sweep's, the map's and the seek's Validate do.
func assertRefused(t *testing.T, err error, field, says, reason string) {
	t.Helper()
	require.Error(t, err, reason)
	fes := sim.FieldErrors(err)
	require.NotEmpty(t, fes, reason)
	assert.Equal(t, field, fes[0].Field, reason)
	assert.Contains(t, err.Error(), says, reason)
}
