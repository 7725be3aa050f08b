package report

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAxisLabel: a series chart's y axis writes its labels in full below
// 1,000, and in thousands or millions on an axis that reaches it, so
// that they keep to the chart's left margin on a phone; the part of a
// broken axis below its break stays in full.
func TestAxisLabel(t *testing.T) {
	tests := []struct {
		axis   axisFormat
		v, top float64
		want   string
		reason string
	}{
		{rateAxis, 250, 500, "250/s", "an axis below 1,000 is in full"},
		{rateAxis, 2500, 5000, "2.5k/s", "one that reaches 1,000 in thousands: \"5,000/s\" touched a phone's edge"},
		{rateAxis, 5000, 5000, "5k/s", "its top too"},
		{rateAxis, 0, 20000, "0/s", "zero is zero"},
		{rateAxis, 10000, 20000, "10k/s", "the chain's entry, 200 workers at 20 ms: 20,000/s ran past a phone's edge"},
		{rateAxis, 20000, 20000, "20k/s", "its top"},
		{rateAxis, 5000, 10000, "5k/s", "an axis that reaches 1,000 writes every label from 1,000 in thousands"},
		{rateAxis, 12500, 25000, "12.5k/s", "a half of 25,000"},
		{rateAxis, 1250000, 2500000, "1.25M/s", "millions"},
		{rateAxis, 500, 1000, "500/s", "under 1,000 in full"},
		{workAxis, 4, 30000, "4 s", "below a break, in full"},
		{workAxis, 30000, 30000, "30k s", "seconds of work above the break"},
		{workAxis, 1.25, 2.5, "1.25 s", "two decimals, as workSeconds"},
		{countAxis, 16, 32, "16", "a count"},
		{countAxis, 25000, 50000, "25k", "a count in thousands"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.axis.label(tt.v, tt.top), tt.reason)
	}
	assert.Equal(t, perSecond(750), rateAxis.label(750, 750), "below 1,000, as the tables write it")
	assert.Equal(t, workSeconds(2.25), workAxis.label(2.25, 5), "below 1,000, as the tables write it")
}
