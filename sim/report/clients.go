package report

import (
	"io"
	"strconv"

	"github.com/shedsim/shedsim/sim"
)

// ClientRow is one client strategy's line in the client comparison, for
// the people who first arrived during the sale.
type ClientRow struct {
	Client sim.Client `json:"client"`
	Title  string     `json:"title"`
	// People is the sale's people, and Answered, Refused and TimedOut are
	// shares of them (0 when there were none).
	People   int     `json:"people"`
	Answered float64 `json:"answered"`
	Refused  float64 `json:"refused"`
	TimedOut float64 `json:"timed_out"`
	// AttemptsPerPerson is the attempts that reached the service per sale
	// person (0 when there were none); ExtraLoad is the share of the
	// service's arrivals, Attempts over the whole run, that were retries
	// (0 when there were none).
	AttemptsPerPerson float64 `json:"attempts_per_person"`
	Attempts          int     `json:"attempts"`
	ExtraLoad         float64 `json:"extra_load"`
	// Throttled is the attempts the clients refused themselves.
	Throttled     int          `json:"throttled"`
	Declined      int          `json:"declined"`
	MedianWaitMS  *float64     `json:"median_wait_ms"`
	BackToNormalS *float64     `json:"back_to_normal_s"`
	Recovery      sim.Recovery `json:"recovery"`
	// Fluid is the fluid view for this client at the config's retries.
	Fluid string `json:"fluid"`
}

// CompareClients runs c under every client strategy, in the order of
// sim.Clients, with everything else the same. It returns c's validation
// errors unchanged.
func CompareClients(c sim.Config) ([]sim.Result, error) {
	return variants(c, sim.Clients, func(c *sim.Config, cl sim.Client) { c.Client = cl })
}

// ClientRowOf summarises one Result as a client comparison row.
func ClientRowOf(r sim.Result) ClientRow {
	extra := 0.0
	if r.Attempts > 0 {
		extra = float64(r.Client.RetriesSent) / float64(r.Attempts)
	}
	return ClientRow{
		Client:            r.Config.Client,
		Title:             r.Config.Client.Title(),
		People:            r.Sale.People,
		Answered:          r.Sale.AnsweredShare,
		Refused:           r.Sale.RefusedShare,
		TimedOut:          r.Sale.TimedOutShare,
		AttemptsPerPerson: r.AttemptsPerPerson,
		Attempts:          r.Attempts,
		ExtraLoad:         extra,
		Throttled:         r.Client.Throttled,
		Declined:          r.Client.Declined,
		MedianWaitMS:      r.Sale.MedianWaitMS,
		BackToNormalS:     r.BackToNormalS,
		Recovery:          r.Recovery,
		Fluid:             FluidLine(r.Config, r.Config.Retries),
	}
}

// ClientRows summarises Results as client comparison rows, in order.
func ClientRows(rs []sim.Result) []ClientRow {
	out := make([]ClientRow, len(rs))
	for i, r := range rs {
		out[i] = ClientRowOf(r)
	}
	return out
}

// ClientTable is the client comparison as a text table.
func ClientTable(rows []ClientRow) Table {
	t := Table{Header: []string{"Client", "Answered", "Refused", "Timed out", "Attempts per person (sale)", "Retries among all attempts (run)", "Back to normal"}}
	for _, r := range rows {
		back := Row{BackToNormalS: r.BackToNormalS, Recovery: r.Recovery}
		t.Rows = append(t.Rows, []string{r.Title, PercentOf(r.Answered, r.People), PercentOf(r.Refused, r.People), PercentOf(r.TimedOut, r.People),
			perPerson(r), PercentOf(r.ExtraLoad, r.Attempts), BackCell(back)})
	}
	return t
}

// perPerson is a client row's attempts per sale person for a table cell:
// "-" when nobody arrived during the sale.
func perPerson(r ClientRow) string {
	if r.People == 0 {
		return "-"
	}
	return Number(r.AttemptsPerPerson, 2)
}

// ClientView is every client strategy side by side for one Config's
// policy: the page shows it under the policies, the command line with
// --clients.
type ClientView struct {
	Config sim.Config  `json:"config"`
	Rows   []ClientRow `json:"rows"`
}

// BuildClients runs c's policy under every client strategy.
func BuildClients(c sim.Config) (ClientView, error) {
	rs, err := CompareClients(c)
	if err != nil {
		return ClientView{}, err
	}
	return ClientView{Config: c, Rows: ClientRows(rs)}, nil
}

// WriteClients writes the client comparison for c's policy, with each
// client's fluid view.
func WriteClients(w io.Writer, v ClientView) error {
	c := v.Config
	if _, err := io.WriteString(w, fill("Every client strategy, with %s and %s (%s, seed %s):\n\n", PolicyNoun(c.Policy), UpToRetries(c.Retries), service(c), strconv.FormatUint(c.Seed, 10))); err != nil {
		return err
	}
	if _, err := ClientTable(v.Rows).WriteTo(w); err != nil {
		return err
	}
	note := "\nBudgets, ratios and throttling are kept by the sending side as a whole, not per person.\n"
	for _, r := range v.Rows {
		if r.Client == sim.Throttle && r.Throttled > 0 {
			// Its Refused mixes the two: say how much is its own.
			note += fill("Adaptive throttling's Refused counts the people its clients refused themselves, as well as those the service refused: the clients refused %s attempts before sending them.\n", Count(r.Throttled))
		}
	}
	if _, err := io.WriteString(w, note+"The fluid view for each, once everyone times out:\n"); err != nil {
		return err
	}
	for _, r := range v.Rows {
		if _, err := io.WriteString(w, "  "+r.Fluid+"\n"); err != nil {
			return err
		}
	}
	return nil
}
