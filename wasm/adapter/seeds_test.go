package adapter

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/shedsim/shedsim/sim"
)

// TestSeedsFor: the seeds control takes 1, 10 or 40, and refuses anything
// else, and seeds past the largest, naming the field and what to choose
// instead.
func TestSeedsFor(t *testing.T) {
	post := sim.DefaultConfig()
	stuck := post
	stuck.Retries = 3
	big := post
	big.SaleRPS, big.Retries = 250, 3
	late := post
	late.Seed = sim.MaxSeed - 5
	cases := []struct {
		name, reason string
		c            sim.Config
		v            string
		want         int
		msg          []string // what the refusal says, in part
	}{
		{"one", "the default: one run, as the page has always shown", post, "1", 1, nil},
		{"ten", "the mean and spread over seeds 1 to 10", post, "10", 10, nil},
		{"forty", "the most the page runs", post, "40", 40, nil},
		{"spaces", "a link's spaces around the number are trimmed, as every number's are (sim.ParseWhole)", post, " 10 ", 10, nil},
		{"hexadecimal", "a link's value that is no decimal number is shown as it is", post, "0xa", 0, []string{`"0xa"`}},
		{"stuck at forty", "the post's stuck case (3 retries) fits at 40 seeds", stuck, "40", 40, nil},
		{"seven", "only the control's choices", post, "7", 0, []string{`"7" is not a number of seeds the page runs`, "choose 1, 10 or 40", "shedsim --seeds"}},
		{"zero", "no seeds is no run", post, "0", 0, []string{`"0"`, "choose 1, 10 or 40"}},
		{"empty", "an empty value is refused, not read as the default", post, "", 0, []string{`""`, "choose 1, 10 or 40"}},
		{"words", "not a number", post, "ten", 0, []string{`"ten"`}},
		{"long", "a long value is quoted short", post, strings.Repeat("9", 500), 0, []string{"…"}},
		{"past the largest seed", "seeds from near the largest run past it", late, "10", 0, []string{"pass the largest seed, 9007199254740991", "choose a smaller seed, or fewer seeds"}},
		{"one seed near the largest", "a single run needs no more seeds", late, "1", 1, nil},
		{"big runs", "each run is held to the page's budget, and they run in the workers", big, "40", 40, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, tc.c.Validate())
			n, e := SeedsFor(tc.c, tc.v, true)
			assert.Equal(t, tc.want, n, tc.reason)
			if tc.msg == nil {
				assert.Nil(t, e, tc.reason)
				return
			}
			require.NotNil(t, e, tc.reason)
			assert.Equal(t, SeedsKey, e.Field, "the refusal names the field")
			for _, m := range tc.msg {
				assert.Contains(t, e.Msg, m, tc.reason)
			}
			assert.Less(t, len(e.Msg), 400, "a refusal stays a sentence")
		})
	}
}

// TestSeedsForTheValueAlone: with the form's other fields wrong, only the
// value is checked, against nothing c's runs would need.
func TestSeedsForTheValueAlone(t *testing.T) {
	c := sim.DefaultConfig()
	c.Seed = sim.MaxSeed
	n, e := SeedsFor(c, "40", false)
	assert.Nil(t, e)
	assert.Equal(t, 40, n)
	_, e = SeedsFor(c, "4", false)
	require.NotNil(t, e, "a value that is no choice is refused all the same")
}

// TestWithSeeds: a link's or an attribute's seeds are kept as given (the
// form shows them, and SeedsFor refuses a bad one), and without any the
// control is at its default, which the URL leaves out.
func TestWithSeeds(t *testing.T) {
	assert.Equal(t, "10", WithSeeds(map[string]string{}, map[string]string{"seeds": "10"})[SeedsKey])
	assert.Equal(t, "7", WithSeeds(map[string]string{}, map[string]string{"seeds": "7"})[SeedsKey], "a bad value is kept, to be shown beside its error")
	assert.Equal(t, "1", WithSeeds(map[string]string{}, map[string]string{})[SeedsKey])
	assert.Equal(t, "?retries=1&seeds=10", EncodeQuery(PageKeys, map[string]string{"retries": "1", "seeds": "10"}, PageDefaults))
	assert.Equal(t, "", EncodeQuery(PageKeys, map[string]string{"seeds": "1"}, PageDefaults), "one seed is the default, left out")
}

// TestWriteSeedBars: over seeds of the post's inputs every bar carries
// the seeds' range, and the three policies the post gives a figure for a
