package report

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFill(t *testing.T) {
	cases := []struct {
		reason, template string
		args             []string
		want             string
	}{
		{"no verbs, no args", "plain", nil, "plain"},
		{"each %s takes the next arg, in order", "%s of %s", []string{"7.0%", "6,771"}, "7.0% of 6,771"},
		{"an arg that holds %s is not filled again", "[%s] %s", []string{"%s", "x"}, "[%s] x"},
		{"a lone percent sign stays", "10% of %s", []string{"requests"}, "10% of requests"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, fill(tc.template, tc.args...), tc.reason)
	}
	assert.Panics(t, func() { fill("%s and %s", "one") }, "fewer args than verbs is a bug")
	assert.Panics(t, func() { fill("%s", "one", "two") }, "more args than verbs is a bug")
}
