package report

import (
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/sweep"
)

// Table is plain-text table: the first column left-aligned, the rest
// right-aligned, columns two spaces apart.
type Table struct {
	Header []string
	Rows   [][]string
	// TextColumns is how many leading columns hold text, aligned left;
	// the first always is, and the rest (numbers) are aligned right.
	TextColumns int
	// Groups titles runs of rows (every policy's tables keep the post's
	// six apart from the limits); nil for none.
	Groups []RowGroup `json:",omitempty"`
}

// RowGroup titles the rows of a Table from From up to the next group's.
type RowGroup struct {
	Title string `json:"title"`
	From  int    `json:"from"`
}

// PolicyGroups titles a table of policies, one row each in this order, by
// sim.Policy.Group: nil when they are all of one family, as the post's
// tables are.
func PolicyGroups(policies []sim.Policy) []RowGroup {
	var g []RowGroup
	for i, p := range policies {
		if i == 0 || p.Group() != policies[i-1].Group() {
			g = append(g, RowGroup{Title: p.Group(), From: i})
		}
	}
	if len(g) < 2 {
		return nil
	}
	return g
}

// WriteTo writes the table to w.
func (t Table) WriteTo(w io.Writer) (int64, error) {
	width := make([]int, len(t.Header))
	for _, row := range append([][]string{t.Header}, t.Rows...) {
		for i, cell := range row {
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	groups := t.Groups
	for r, row := range append([][]string{t.Header}, t.Rows...) {
		if len(groups) > 0 && groups[0].From == r-1 { // a group's title, on its own line after a blank one
			if r > 1 {
				b.WriteString("\n")
			}
			b.WriteString(groups[0].Title + "\n")
			groups = groups[1:]
		}
		for i, cell := range row {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(cell))
			switch {
			case i == 0:
				b.WriteString(cell + pad)
			case i < t.TextColumns:
				b.WriteString("  " + cell + pad)
			default:
				b.WriteString("  " + pad + cell)
			}
		}
		b.WriteString("\n")
	}
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	n, err := io.WriteString(w, strings.Join(lines, "\n"))
	return int64(n), err
}

// RowGroups is PolicyGroups of the rows' policies, in their order.
func RowGroups(rows []Row) []RowGroup {
	policies := make([]sim.Policy, len(rows))
	for i, r := range rows {
		policies[i] = r.Policy
	}
	return PolicyGroups(policies)
}

// CurveGroups is PolicyGroups of a sweep's curves, a policy each.
func CurveGroups(sw sweep.Sweep) []RowGroup {
	policies := make([]sim.Policy, len(sw.Curves))
	for i, cv := range sw.Curves {
		policies[i] = cv.Policy
	}
	return PolicyGroups(policies)
}

// ComparisonTable is the post's main table: every policy for the sale.
func ComparisonTable(rows []Row) Table {
	t := Table{Header: []string{"Policy", "Answered", "Refused", "Timed out", "Orders answered", "Median wait", "p99 wait", "Wasted", "Back to normal"}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{r.Title, PercentOf(r.Answered, r.People), PercentOf(r.Refused, r.People), PercentOf(r.TimedOut, r.People),
			PercentOf(r.OrdersAnswered, r.Orders), Millis(r.MedianWaitMS), Millis(r.P99WaitMS), Count(r.Wasted), BackCell(r)})
	}
	t.Groups = RowGroups(rows)
	return t
}

// Describe says in one line what c simulates.
func Describe(c sim.Config) string {
	retries := Retries(c.Retries)
	switch {
	case c.Retries > 0 && c.Client == sim.Fixed:
		retries += " " + Duration(c.RetryDelayMS) + " apart"
	case c.Retries > 0:
		retries = UpToRetries(c.Retries) + ", " + InSentence(c.Client.Title())
	case c.Client == sim.Throttle:
		retries += ", adaptive throttling"
	}
	return service(c) + ", " + retries + ", seed " + strconv.FormatUint(c.Seed, 10)
}

// Retries is a count of retries in words: "no retries", "1 retry", "3
// retries".
func Retries(n int) string {
	if n == 0 {
		return "no retries"
	}
	return strconv.Itoa(n) + " " + plural(n, "retry", "retries")
}

// UpToRetries is the most retries a client strategy may make: "no
// retries", "up to 1 retry", "up to 3 retries".
func UpToRetries(n int) string {
	if n == 0 {
		return "no retries"
	}
	return "up to " + Retries(n)
}

// service is Describe without the clients: the workers, the traffic and
// the timeout.
func service(c sim.Config) string {
	c = c.Resolved()
	if c.Arrivals != "" {
		return fill("%s %s at %s (%s/s), %s, a %s timeout%s",
			strconv.Itoa(c.Workers), plural(c.Workers, "worker", "workers"), serviceTimes(c), Number(c.CapacityRPS(), 1), tableTraffic(c), Duration(c.TimeoutMS), patience(c))
	}
	from, to := saleSpan(c)
	normal, saleRate := apart(c.NormalRPS, c.SaleRPS, 2)
	sale := fill("a sale of %s/s from %s to %s%s", saleRate, from, to, shape(c))
	if NoSale(c) {
		sale = "no sale"
	}
	return fill("%s %s at %s (%s/s), %s/s normally and %s%s, a %s timeout%s",
		strconv.Itoa(c.Workers), plural(c.Workers, "worker", "workers"), serviceTimes(c), Number(c.CapacityRPS(), 1), normal, sale, incidents(c), Duration(c.TimeoutMS), patience(c))
}

// serviceTimes is the service time for Describe: the mean, as the post
// gives it, or for another shape (rule 3a) its three numbers: "a
// log-normal 80 ms mean, 41 ms median, 600 ms p99", "a constant 80 ms".
func serviceTimes(c sim.Config) string {
	switch c.Service {
	case sim.LognormalService:
		st := c.ServiceStats()
		return fill("a log-normal %s mean, %s median, %s p99", Duration(st.MeanMS), Duration(st.MedianMS), Duration(st.P99MS))
	case sim.ConstantService:
		return "a constant " + Duration(c.ServiceMS)
	case sim.HistogramService:
		st := c.ServiceStats()
		return fill("a histogram's %s mean, %s median, %s p99", Duration(st.MeanMS), Duration(st.MedianMS), Duration(st.P99MS))
	}
	return Duration(c.ServiceMS)
}

// tableTraffic is Describe's traffic for a rate table (rule 2b), c
// Resolved: "traffic from a table of 288 rows, 8/s to 140/s, and a sale
// of 140/s from 1,800 s to 2,100 s, its span above 100/s".
func tableTraffic(c sim.Config) string {
	rows, _ := sim.ParseRates(c.Arrivals)
	lo, hi := math.Inf(1), 0.0
	for _, r := range rows {
		lo, hi = min(lo, r.RPS), max(hi, r.RPS)
	}
	scale := 1.0
	if c.ArrivalsScale > 0 {
		scale = c.ArrivalsScale
	}
	out := fill("traffic from a table of %s %s, %s/s to %s/s", Count(len(rows)), plural(len(rows), "row", "rows"), Number(lo*scale, 2), Number(hi*scale, 2))
	if scale != 1 {
		out += fill(" (%s times the table's)", Number(scale, 2))
	}
	switch {
	case c.ArrivalsShiftS < 0:
		out += fill(" from %s into it", Seconds(-c.ArrivalsShiftS))
	case c.ArrivalsShiftS > 0:
		out += fill(", its first row at %s", Seconds(c.ArrivalsShiftS))
	}
	from, to := saleSpan(c)
	sale := fill("a sale of %s/s from %s to %s", Number(c.SaleRPS, 2), from, to)
	if NoSale(c) {
		sale = fill("the shares of the people from %s to %s", from, to)
	}
	if c.SaleThresholdRPS > 0 {
		return out + ", and " + sale + ", its span above " + Number(c.SaleThresholdRPS, 2) + "/s"
	}
	return out + ", and " + sale + " as set"
}

// patience is what Describe adds for people who give up before the
// timeout (rule 4a): ", people giving up after a mean of 3 s".
func patience(c sim.Config) string {
	if c.Patience != sim.ExponentialPatience {
		return ""
	}
	return ", people giving up after a mean of " + Duration(c.PatienceMS)
}

// ServiceNumbers is the service's three numbers and the capacity they
// give, as a form shows them beside its fields: "median 55.5 ms, mean
// 80 ms, p99 368.4 ms: 8 workers serve 100/s". The mean alone fixes the
// capacity, whatever the shape.
func ServiceNumbers(c sim.Config) string {
	st := c.ServiceStats()
	if st.P99MS == 0 { // a log-normal whose p99 cannot be
		return fill("mean %s: %s %s serve %s/s", Duration(st.MeanMS), strconv.Itoa(c.Workers), plural(c.Workers, "worker", "workers"), Number(st.CapacityRPS, 2))
	}
	return fill("median %s, mean %s, p99 %s: %s %s serve %s/s", Duration(st.MedianMS), Duration(st.MeanMS), Duration(st.P99MS),
		strconv.Itoa(c.Workers), plural(c.Workers, "worker", "workers"), Number(st.CapacityRPS, 2))
}

// NoSale reports whether c's traffic has no sale: the sale's rate is the
// normal one, or the sale lasts no time. The shares are then of the people
// who arrived in the sale's window all the same.
func NoSale(c sim.Config) bool { return c.SaleRPS == c.NormalRPS || c.SaleS == 0 }

// SalePeople names the people whose shares the tables and lines give, for
// a sentence: "the sale's people", or with no sale "the people from 60 s
// to 120 s".
func SalePeople(c sim.Config) string {
	if IncidentOnly(c) {
		return "the people who arrived during " + Trigger(c)
	}
	if NoSale(c) {
		return "the people " + Arrived(c)
	}
	return "the sale's people"
}

// Nobody says that no one arrived in the window the shares are of:
// "nobody arrived during the sale", "nobody arrived in a sale of 0 s", or
// with no sale "nobody arrived from 60 s to 120 s".
func Nobody(c sim.Config) string {
	if IncidentOnly(c) {
		return "nobody arrived during " + Trigger(c)
	}
	if c.SaleS == 0 {
		return "nobody arrived in a sale of 0 s"
	}
	return "nobody arrived " + Arrived(c)
}

// SaleShares says how the sale's people fared, for a sentence: "7.0% of
// the sale's people answered, 0.0% refused, 93.0% timed out", or Nobody.
func SaleShares(r sim.Result) string {
	if r.Sale.People == 0 {
		return Nobody(r.Config)
	}
	return answeredOf(r) + ", " + Percent(r.Sale.RefusedShare) + " refused, " + Percent(r.Sale.TimedOutShare) + " timed out"
}

// salePercent is a share of r's sale people for a table cell: "-" when
// there were none.
func salePercent(r sim.Result, share float64) string { return PercentOf(share, r.Sale.People) }

// SaleBand says what the chart's shaded band is: the sale, or that there
// is none.
func SaleBand(c sim.Config) string {
	if IncidentOnly(c) {
		return "the shaded band is " + Trigger(c)
	}
	if NoSale(c) {
		return "there is no sale, so no shaded band"
	}
	return "the shaded band is the sale"
}

// SaleArrivals says when those people first arrived, for a heading:
// "during the sale", or "from 60 s to 120 s (no sale)".
func SaleArrivals(c sim.Config) string {
	if IncidentOnly(c) {
		return Arrived(c)
	}
	if NoSale(c) {
		return Arrived(c) + " (no sale)"
	}
	return "during the sale"
}

// Arrived says when the people the shares are of first arrived, for a
// sentence: "during the sale", "from 60 s to 120 s", or "at 60 s, in a
// sale of 0 s".
func Arrived(c sim.Config) string {
	switch {
	case IncidentOnly(c):
		from, to := saleSpan(c)
		return fill("during %s, from %s to %s", Trigger(c), from, to)
	case c.SaleS == 0:
		return fill("at %s, in a sale of 0 s", Seconds(c.SaleStartS))
	case NoSale(c):
		from, to := saleSpan(c)
		return fill("from %s to %s", from, to)
	}
	return "during the sale"
}

// AboutTheNumbers says what c's comparison is of, for a reader who meets
// it without the post around it: one seed's run, what the shares are of,
// and what wasted and back to normal mean.
func AboutTheNumbers(c sim.Config) string {
	return fill("One run, seed %s. The post's figures come from a run of its own: this engine matches them on average over seeds, "+
		"not seed by seed, so change the seed to see the spread. Shares are of the people who first arrived %s, by each person's last attempt. "+
		"Wasted: requests a worker finished after their client had given up, over the whole run. %s",
		strconv.FormatUint(c.Seed, 10), SaleArrivals(c), backToNormalNoteFor(c))
}

const backToNormalNote = "Back to normal: the first 10 s after the sale from which every later 10 s answers at least 90% of its people."

// backToNormalNoteFor is backToNormalNote for c's trigger.
func backToNormalNoteFor(c sim.Config) string {
	if afterTrigger(c) == "the sale" {
		return backToNormalNote
	}
	return "Back to normal: the first 10 s after " + afterTrigger(c) + " from which every later 10 s answers at least 90% of its people."
}

// WritePostTables runs base and its variations and writes the post's tables
// to w: every policy in the sale, the bound as a time, an ordinary morning,
// the cost of saying no, the client's timeout, retries, and the fluid view.
// A variation that is not a valid Config (more attempts than the budget,
// say, with 3 retries) is shown as over the budget rather than run.
func WritePostTables(w io.Writer, base sim.Config) error {
	var err error
	p := func(format string, args ...string) {
		if err == nil {
			_, err = io.WriteString(w, fill(format, args...))
		}
	}
	tab := func(t Table) {
		if err == nil {
			_, err = t.WriteTo(w)
		}
	}
	run := func(c sim.Config) sim.Result {
		r, e := sim.Run(c)
		if e != nil && err == nil {
			err = e
		}
		return r
	}
	const overBudget = "over budget"

	rs, e := ComparePost(base)
	if e != nil {
		return e
	}
	p("The sale: %s.\nShares are of the people who first arrived %s; wasted work is the whole run's.\n\n", Describe(base), SaleArrivals(base))
	tab(ComparisonTable(Rows(rs)))
	p("\n%s\n", backToNormalNote)

	// The bound as a time.
	p("\nThe bound is a time: a bound sheds only if bound / capacity is shorter than the timeout (%s).\n\n", Duration(base.TimeoutMS))
	bt := Table{Header: []string{"Queue bound", "Work it holds", "Answered", "Refused", "Timed out", "Median wait"}}
	for _, q := range []int{0, 1024} {
		c := base
		c.Policy, c.Queue = sim.Bounded, q
		r := run(c)
		name := Count(c.QueueBound())
		if q == 0 {
			name += " (automatic)"
		}
		bt.Rows = append(bt.Rows, []string{name, Seconds(c.QueueSeconds()), salePercent(r, r.Sale.AnsweredShare),
			salePercent(r, r.Sale.RefusedShare), salePercent(r, r.Sale.TimedOutShare), Millis(r.Sale.MedianWaitMS)})
	}
	f := rs[sim.FIFO]
	bt.Rows = append(bt.Rows, []string{"none", "-", salePercent(f, f.Sale.AnsweredShare), salePercent(f, f.Sale.RefusedShare),
		salePercent(f, f.Sale.TimedOutShare), Millis(f.Sale.MedianWaitMS)})
	tab(bt)

	// An ordinary morning.
	morning := base
	morning.SaleRPS = base.NormalRPS
	p("\nAn ordinary morning: %s/s throughout, no sale. Shares of the people who arrived %s.\n\n",
		Number(base.NormalRPS, 2), Arrived(morning))
	if e := morning.Validate(); e != nil {
		p("Not run: " + strings.ReplaceAll(e.Error(), "\n", "; ") + "\n")
	} else {
		qs, e := ComparePost(morning)
		if e != nil {
			return e
		}
		qt := Table{Header: []string{"Policy", "Answered", "Refused", "Median wait"}}
		for _, r := range qs {
			qt.Rows = append(qt.Rows, []string{r.Config.Policy.Title(), salePercent(r, r.Sale.AnsweredShare), salePercent(r, r.Sale.RefusedShare), Millis(r.Sale.MedianWaitMS)})
		}
		tab(qt)
	}

	// The cost of saying no.
	p("\nSaying no costs worker time: the bounded queue when each refusal takes a worker first, and the share of the workers' time in the sale spent refusing.\n\n")
	ct := Table{Header: []string{"Refusal cost", "Answered", "Refused", "Timed out", "Workers' time refusing"}}
	for _, cost := range []float64{0, 20, 40, 80} {
		c := base
		c.Policy, c.RefusalCostMS = sim.Bounded, cost
		r := run(c)
		ct.Rows = append(ct.Rows, []string{Duration(cost), salePercent(r, r.Sale.AnsweredShare), salePercent(r, r.Sale.RefusedShare),
			salePercent(r, r.Sale.TimedOutShare), refusing(r)})
	}
	tab(ct)
	if f.Sale.People > 0 {
		p("For comparison, the unbounded queue answers %s.\n", Percent(f.Sale.AnsweredShare))
	}

	// The client's timeout.
	p("\nThe client's timeout, for the unbounded queue: a longer one buys time, not capacity.\n\n")
	tt := Table{Header: []string{"Timeout", "Answered", "Median wait", "Back to normal"}}
	for _, ms := range []float64{1000, 2000, 4000} {
		c := base
		c.Policy, c.TimeoutMS = sim.FIFO, ms
		r := run(c)
		tt.Rows = append(tt.Rows, []string{Duration(ms), salePercent(r, r.Sale.AnsweredShare), Millis(r.Sale.MedianWaitMS), BackCell(RowOf(r))})
	}
	tab(tt)

	// Retries.
	p("\nWith retries, %s apart, after a timeout or a refusal: answered, and back to normal.\n\n", Duration(base.RetryDelayMS))
	rt := Table{Header: []string{"Policy", "retries=0", "back", "retries=1", "back", "retries=3", "back"}}
	skipped := false
	for _, pol := range sim.PostPolicies {
		row := []string{pol.Title()}
		for _, n := range []int{0, 1, 3} {
			c := base
			c.Policy, c.Retries = pol, n
			if c.Validate() != nil {
				row, skipped = append(row, overBudget, "-"), true
				continue
			}
			r := run(c)
			row = append(row, salePercent(r, r.Sale.AnsweredShare), BackCell(RowOf(r)))
		}
		rt.Rows = append(rt.Rows, row)
	}
	tab(rt)
	if skipped {
		p("Over budget: with that many retries the run would send more than " + Count(sim.MaxAttempts) + " attempts.\n")
	}

	if HasBand(base) { // with no sale and no incident there is no "after" to speak of
		p("\nThe fluid view: after %s, an unbounded queue drains only if every person's tries fit\n", afterTrigger(base))
		for _, l := range Fluid(base) {
			p("  %s\n", l)
		}
	}
	if err == nil && base.Hops != "" { // the chain behind base's own policy
		chosen := sim.Result{}
		for _, r := range rs {
			if r.Config.Policy == base.Policy {
				chosen = r
			}
		}
		if chosen.Hops == nil {
			chosen = run(base)
		}
		if err == nil {
			err = WriteChain(w, chosen)
		}
	}
	return err
}

// refusing is the share of the workers' time in the sale spent refusing,
// for a table cell: "-" for a sale that lasts no time.
func refusing(r sim.Result) string {
	if r.Config.SaleS == 0 {
		return "-"
	}
	return Percent(r.Sale.RefusingShare)
}

// WriteTimelines writes the answered share per 10 s window for every policy
// under c, the sale's windows marked.
func WriteTimelines(w io.Writer, c sim.Config) error {
	rs, err := Compare(c)
	if err != nil {
		return err
	}
	marks := capital(bandMark(c)) + " windows are marked *.\n"
	if !HasBand(c) {
		marks = ""
	}
	if _, err := io.WriteString(w, fill("Answered per 10 s of arrivals, every policy: %s.\n%s\n", Describe(c), marks)); err != nil {
		return err
	}
	t := Table{Header: []string{"Window"}}
	for _, r := range rs {
		t.Header = append(t.Header, r.Config.Policy.Title()) // names, not the flags' keys
	}
	for i, w0 := range rs[0].Windows {
		mark := " "
		if marks != "" && InBand(c, w0.StartS) {
			mark = "*"
		}
		row := []string{fill("%s %s", mark, Seconds(w0.StartS))}
		for _, r := range rs {
			row = append(row, WindowAnswered(r.Windows[i]))
		}
		t.Rows = append(t.Rows, row)
	}
	if _, err := t.WriteTo(w); err != nil {
		return err
	}
	t = Table{Header: []string{"Policy", "Recovery"}} // its cells say "back to normal ..."
	for _, r := range rs {
		t.Rows = append(t.Rows, []string{r.Config.Policy.Title(), Recovered(r)})
	}
	_, err = io.WriteString(w, "\n")
	if err == nil {
		_, err = t.WriteTo(w)
	}
	return err
}

// WriteView writes one run as the simulator page shows it: every policy side
// by side, the chosen policy's windows, the two lines and the advice.
// OneRun is the headline of one run, for the top of its view: "This run,
// the unbounded queue: 7.0% of the sale's people answered, 93.0% timed
// out, none refused; stuck: not back by 300 s." With patience it says how
// many of the timed out gave up first.
func OneRun(r sim.Result) string {
	c := r.Config
	if r.Sale.People == 0 {
		return fill("This run, %s: %s.", PolicyNoun(c.Policy), Nobody(c))
	}
	share := func(x float64, what string) string {
		if x == 0 {
			return "none " + what
		}
		return Percent(x) + " " + what
	}
	timedOut := share(r.Sale.TimedOutShare, "timed out")
	if r.Sale.GaveUp > 0 { // some gave up before the timeout (rule 4a)
		timedOut += " (" + Percent(r.Sale.GaveUpShare) + " gave up before the timeout)"
	}
	return fill("This run, %s: %s of %s answered, %s, %s; %s.", PolicyNoun(c.Policy), Percent(r.Sale.AnsweredShare), SalePeople(c),
		timedOut, share(r.Sale.RefusedShare, "refused"), Recovered(r))
}

func WriteView(w io.Writer, v View) error {
	var err error
	p := func(format string, args ...string) {
		if err == nil {
			_, err = io.WriteString(w, fill(format, args...))
		}
	}
	c := v.Config
	p("%s.\n", Describe(c))
	if c.Policy.Bounds() {
		p("Queue bound %s, %s of work.\n", Count(v.QueueBound), Seconds(v.QueueSeconds))
	}
	// The one run asked for first; every policy for comparison after it.
	p("\n%s\n", OneRun(v.Chosen))
	p("\nEvery policy, for the people who first arrived %s:\n\n", SaleArrivals(c))
	if err == nil {
		_, err = ComparisonTable(v.Rows).WriteTo(w)
	}
	marks := " (* " + Trigger(c) + ")"
	if !HasBand(c) {
		marks = ""
	}
	p("\n%s, answered per 10 s of arrivals%s:\n\n", c.Policy.Title(), marks)
	t := Table{Header: []string{"Window", "People", "Answered", "Refused", "Timed out", "Still waiting", "Attempts"}}
	for _, win := range v.Chosen.Windows {
		mark := " "
		if marks != "" && InBand(c, win.StartS) {
			mark = "*"
		}
		t.Rows = append(t.Rows, []string{mark + " " + Seconds(win.StartS), Count(win.People), WindowAnswered(win),
			Count(win.Refused), Count(win.TimedOut), Count(win.Unfinished), Count(win.Attempts)})
	}
	if err == nil {
		_, err = t.WriteTo(w)
	}
	p("\n%s\n%s\n\nWhat to change:\n", v.Outlook.String(), v.ThisRun.String())
	for _, a := range v.Advice {
		p("- %s\n", a.Text)
	}
	if HasBand(c) { // with no sale and no incident there is no "after" to speak of
		p("\nThe fluid view: after %s, an unbounded queue drains only if every person's tries fit\n", afterTrigger(c))
		for _, l := range v.Fluid {
			p("  %s\n", l)
		}
	}
	if err == nil && (c.Retries > 0 || c.Client != sim.Fixed) {
		var cv ClientView
		if cv, err = BuildClients(c); err == nil {
			p("\n")
			err = WriteClients(w, cv)
		}
	}
	if err == nil {
		err = WriteChain(w, v.Chosen)
	}
	return err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
