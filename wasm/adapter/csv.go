package adapter

import (
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim/report"
)

// ViewCSV is the simulator's results as CSV: the comparison of every
// policy, a blank line, then the chosen policy's 10 s windows. Shares are
// fractions, times in milliseconds or seconds as the headers say, and an
// empty cell stands for "none" (no median when nobody was answered, no
// return to normal, no share of nobody).
func ViewCSV(v report.View) string {
	var b strings.Builder
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	opt := func(x *float64) string {
		if x == nil {
			return ""
		}
		return g(*x)
	}
	of := func(share float64, n int) string { // a share of n people or orders
		if n == 0 {
			return ""
		}
		return g(share)
	}
	b.WriteString("policy,title,answered,refused,timed_out,orders_answered,median_wait_ms,p99_wait_ms,wasted,back_to_normal_s,recovery,attempts_per_person\n")
	for _, r := range v.Rows {
		for i, cell := range [...]string{r.Policy.String(), csvQuote(r.Title), of(r.Answered, r.People), of(r.Refused, r.People), of(r.TimedOut, r.People),
			of(r.OrdersAnswered, r.Orders), opt(r.MedianWaitMS), opt(r.P99WaitMS), strconv.Itoa(r.Wasted), opt(r.BackToNormalS), string(r.Recovery), of(r.AttemptsPerPerson, r.People)} {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(cell)
		}
		b.WriteByte('\n')
	}
	b.WriteString("\nwindow_start_s,in_sale,people,answered,refused,timed_out,unfinished,answered_share,attempts\n")
	c := v.Config
	for _, w := range v.Chosen.Windows {
		sale := c.MeasuredAt(w.StartS) // a wave of the sale, or an incident with no sale
		for i, cell := range [...]string{g(w.StartS), strconv.FormatBool(sale), strconv.Itoa(w.People), strconv.Itoa(w.Answered), strconv.Itoa(w.Refused),
			strconv.Itoa(w.TimedOut), strconv.Itoa(w.Unfinished), of(w.AnsweredShare, w.People-w.Unfinished), strconv.Itoa(w.Attempts)} {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(cell)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func csvQuote(s string) string {
	if strings.ContainsAny(s, ",\"\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}
