package sim

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

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

// ratesCSV and bucketsCSV write the sample tables as the files in
// tools/shedsim/samples/ hold them: a header, then a row a line (bounds in seconds).
func ratesCSV(rows []RateRow) string {
	var b strings.Builder
	b.WriteString("time_s,rps\n")
	for _, r := range rows {
		b.WriteString(strconv.FormatFloat(r.TimeS, 'g', -1, 64) + "," + strconv.FormatFloat(r.RPS, 'g', -1, 64) + "\n")
	}
	return b.String()
}

func bucketsCSV(bs []Bucket) string {
	var b strings.Builder
	b.WriteString("le,count\n")
	for _, k := range bs {
		le := "+Inf"
		if !math.IsInf(k.LeMS, 1) {
			le = strconv.FormatFloat(k.LeMS/1000, 'g', -1, 64)
		}
		b.WriteString(le + "," + strconv.FormatFloat(k.Count, 'g', -1, 64) + "\n")
	}
	return b.String()
}

// TestSampleTables holds the files in tools/shedsim/samples/ to the tables the samples
// replay (-update writes them), and reads them back to the same numbers.
func TestSampleTables(t *testing.T) {
	files := map[string]string{
		"post-sale.csv":        ratesCSV(PostSaleRows()),
		"day.csv":              ratesCSV(DayRows()),
		"checkout-latency.csv": bucketsCSV(CheckoutBuckets()),
	}
	for name, want := range files {
		path := filepath.Join("..", "tools", "shedsim", "samples", name)
		if *update {
			require.NoError(t, os.WriteFile(path, []byte(want), 0o644))
		}
		got, err := os.ReadFile(path)
		require.NoError(t, err, "go test ./sim -run TestSampleTables -update writes it")
		assert.Equal(t, want, string(got), "%s: made by the project (-update rewrites it)", name)
	}
	rows, err := ParseRates(files["day.csv"])
	require.NoError(t, err)
	assert.Equal(t, DayRows(), rows)
	bs, err := ParseBuckets(files["checkout-latency.csv"])
	require.NoError(t, err)
	assert.Equal(t, CheckoutBuckets(), bs)
	for _, s := range Samples() {
		require.NoError(t, s.Config.Validate(), s.Key)
	}
}

// upperGamma is the regularized upper incomplete gamma function Q(a, x),
// by its series below a + 1 and its continued fraction above (Press et
// al., Numerical Recipes, 3rd ed., 6.2): a chi-square statistic x2 with k
// degrees of freedom has p-value Q(k/2, x2/2).
func upperGamma(a, x float64) float64 {
	lg, _ := math.Lgamma(a)
	if x < a+1 {
		sum, term := 1/a, 1/a
		for n := 1; n < 1000; n++ {
			term *= x / (a + float64(n))
			sum += term
			if term < sum*1e-15 {
				break
			}
		}
		return 1 - sum*math.Exp(-x+a*math.Log(x)-lg)
	}
	b := x + 1 - a
	c, d := 1/1e-300, 1/b
	h := d
	for i := 1; i < 1000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		c = b + an/c
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return math.Exp(-x+a*math.Log(x)-lg) * h
}

func TestUpperGamma(t *testing.T) {
	// chi-square critical values at the 1% level (any table): 6.635 for 1
	// degree of freedom, 23.209 for 10, 26.217 for 12.
	assert.InDelta(t, 0.01, upperGamma(0.5, 6.635/2), 1e-4)
	assert.InDelta(t, 0.01, upperGamma(5, 23.209/2), 1e-4)
	assert.InDelta(t, 0.01, upperGamma(6, 26.217/2), 1e-4)
}

// TestHistogramSampler draws 10^6 service times from the checkout's
// histogram, as the engine draws them, at seeds 1 to 5: the counts per
// bucket pass a chi-square test against the histogram's shares at the 1%
// level, and the mean is the histogram's within 4 standard errors.
func TestHistogramSampler(t *testing.T) {
	bs := CheckoutBuckets()
	h := newEmpirical(bs)
	unit := histogramUnit(h)
	mean := h.mean()
	const n = 1_000_000
	for seed := uint64(1); seed <= 5; seed++ {
		s := newStream(seed, streamService)
		counts := make([]float64, len(bs))
		var sum, sum2 float64
		for range n {
			x := float64(mean * unit(&s)) // ms
			sum += x
			sum2 += x * x
			// the bucket: the first bound at or above x; the +Inf bucket's
			// draws are its cap, the last finite bound, counted there
			k := 0
			for k < len(bs)-1 && x > bs[k].LeMS {
				k++
			}
			if math.IsInf(bs[k].LeMS, 1) {
				k--
			}
			counts[k]++
		}
		var x2 float64
		df := -1
		below := 0.0
		for k, b := range bs {
			p := (b.Count - below) / h.total
			below = b.Count
			if math.IsInf(b.LeMS, 1) {
				p = 0 // counted in the bucket below: none here
			}
			if k+1 < len(bs) && math.IsInf(bs[k+1].LeMS, 1) {
				p += (bs[k+1].Count - b.Count) / h.total
			}
			if p == 0 {
				require.Zero(t, counts[k], "seed %d: no draw in an empty bucket", seed)
				continue
			}
			e := p * n
			x2 += (counts[k] - e) * (counts[k] - e) / e
			df++
		}
		pv := upperGamma(float64(df)/2, x2/2)
		m := sum / n
		se := math.Sqrt((sum2/n - m*m) / n)
		t.Logf("seed %d: chi-square %.2f with %d degrees of freedom, p = %.3f; mean %.3f ms (se %.3f) against %.3f", seed, x2, df, pv, m, se, mean)
		assert.Greater(t, pv, 0.01, "seed %d: the draws fit the histogram at the 1%% level", seed)
		assert.InDelta(t, mean, m, 4*se, "seed %d: the mean", seed)
	}
}

// TestHistogramQuantile holds the reading to histogram_quantile's: linear
// within a bucket, from 0 in the lowest, and the last finite bound for a
// quantile in +Inf's.
func TestHistogramQuantile(t *testing.T) {
	h := newEmpirical([]Bucket{{10, 50}, {20, 90}, {40, 90}, {80, 95}, {math.Inf(1), 100}})
	assert.InDelta(t, 5, h.quantile(0.25), 1e-12)   // half way through the first bucket, from 0
	assert.InDelta(t, 15, h.quantile(0.70), 1e-12)  // half way through the second
	assert.InDelta(t, 60, h.quantile(0.925), 1e-12) // the empty (20, 40] skipped
	assert.Equal(t, 80.0, h.quantile(0.97))         // in +Inf's: the last finite bound
	assert.InDelta(t, (50*5+40*15+5*60+5*80)/100.0, h.mean(), 1e-12)
}

// TestRateTableIntegral replays the day's traffic (08:30 to 09:30, the
// morning sample) at seeds 1 to 5: the new people arriving in each
// five-minute row are the table's integral over it within 4 Poisson
// standard deviations, and a chi-square over the rows passes at the 1%
// level.
func TestRateTableIntegral(t *testing.T) {
	s, ok := SampleByKey("morning")
	require.True(t, ok)
	rows := DayRows()
	for seed := uint64(1); seed <= 5; seed++ {
		c := s.Config
		c.Seed, c.SeriesStepS = seed, 300
		r, err := Run(c)
		require.NoError(t, err)
		var x2 float64
		for k, p := range r.Series.Points {
			want := rows[102+k].RPS * 300 // 08:30 is row 102
			assert.InDelta(t, want, float64(p.FirstAttempts), 4*math.Sqrt(want), "seed %d, %s s", seed, strconv.FormatFloat(p.StartS, 'g', -1, 64))
			x2 += (float64(p.FirstAttempts) - want) * (float64(p.FirstAttempts) - want) / want
		}
		pv := upperGamma(float64(len(r.Series.Points))/2, x2/2)
		t.Logf("seed %d: chi-square %.2f over %d rows, p = %.3f", seed, x2, len(r.Series.Points), pv)
		assert.Greater(t, pv, 0.01, "seed %d", seed)
		assert.Equal(t, 140.0, r.Config.SaleRPS, "the spike is the sale")
		assert.Equal(t, 1800.0, r.Config.SaleStartS, "found above 100 a second at 09:00")
		assert.Equal(t, 300.0, r.Config.SaleS)
	}
}

// TestTablesBothPaths holds the arrival-order path to the event loop for
// Configs with a rate table, a histogram, or both, under the policies and
// retries it takes, with and without a series.
func TestTablesBothPaths(t *testing.T) {
	policies := []Policy{FIFO, Skip, Bounded, CoDel}
	taken := 0
	for i := range 96 {
		c := DefaultConfig()
		c.Seed, c.Policy, c.Retries = uint64(i), policies[i%4], i%3
		if i%8 == 7 {
			c.SeriesStepS = 2
		}
		rng := rand.New(rand.NewPCG(uint64(i), 26))
		for c.Arrivals == "" && c.ServiceHistogram == "" {
			c.Seed += 1000 // randomTables draws from the seed
			randomTables(&c)
		}
		if c.Arrivals != "" && rng.IntN(2) == 0 {
			c.SaleThresholdRPS = 100
			if c.Validate() != nil {
				c.SaleThresholdRPS = 0
			}
		}
		require.NoError(t, c.Validate(), "config %d", i)
		got, ok := arrivalOrderResult(c)
		if !ok {
			continue
		}
		taken++
		assert.Equal(t, eventLoopResult(c), got, "config %d", i)
	}
	t.Logf("%d Configs with tables on both paths", taken)
	assert.Greater(t, taken, 48, "the path takes most of them")
}

// exponentialBuckets is a histogram of an exponential of mean meanMS, as
// Prometheus would count n draws of it at bounds width ms apart up to
// top, then +Inf: the expected counts, exactly.
func exponentialBuckets(meanMS, width, top, n float64) []Bucket {
	var bs []Bucket
	for le := width; le <= top; le += width {
		bs = append(bs, Bucket{LeMS: le, Count: n * -math.Expm1(-le/meanMS)})
	}
	return append(bs, Bucket{LeMS: math.Inf(1), Count: n})
}

// TestTheoryHistogramErlangC: with a histogram of an exponential's
// buckets (mean 80 ms, 10 ms buckets to 800 ms) at a steady 80 a second
// on 8 workers, the share of the served who waited (rule 19's
// WaitedShare) is Erlang C at the histogram's mean, within 4 standard
// errors over seeds 1 to 8 and the discretisation error: the difference
// between Erlang C at the histogram's mean and at the exponential's.
func TestTheoryHistogramErlangC(t *testing.T) {
	bs := exponentialBuckets(80, 10, 800, 1e6)
	h := newEmpirical(bs)
	var shares []float64
	var cs []Config
	for seed := uint64(1); seed <= 8; seed++ {
		c := steady(FIFO, 8, 80, 80, 2100)
		c.Seed, c.Service, c.ServiceHistogram = seed, HistogramService, FormatBuckets(bs)
		cs = append(cs, c)
	}
	for _, r := range runAll(t, cs) {
		shares = append(shares, r.Sale.WaitedShare)
	}
	got, se := meanEstimate(shares)
	want := erlangC(8, 80*h.mean()/1000)
	discretisation := math.Abs(want - erlangC(8, 80*80.0/1000))
	t.Logf("histogram mean %.4f ms; waited %.5f (se %.5f) against Erlang C %.5f at its mean, %.5f at 80 ms: discretisation error %.5f",
		h.mean(), got, se, want, erlangC(8, 6.4), discretisation)
	assert.InDelta(t, want, got, theoryZ*se+discretisation)
}

// TestBadTables: each bad file is refused with its line and column and
// what to do, quickly, whatever its size.
func TestBadTables(t *testing.T) {
	many := func(n int) string {
		var b strings.Builder
		b.WriteString("time_s,rps\n")
		for i := range n {
			b.WriteString(strconv.Itoa(i) + ",70\n")
		}
		return b.String()
	}
	rates := []struct {
		reason, text, says string
	}{
		{"a time that goes back", "time_s,rps\n0,70\n60,150\n30,70\n", "line 4, column 1: the time \"30\" is not after the previous row's"},
		{"a repeated time", "time_s,rps\n0,70\n0,80\n", "line 3, column 1: the time \"0\" is not after"},
		{"a negative rate", "time_s,rps\n0,70\n60,-5\n", "line 3, column 4: the rate -5 is negative"},
		{"NaN", "Time,rate\n0,70\n60,NaN\n", "line 3, column 4: the rate is NaN"},
		{"no header", "0,70\n60,150\n", "line 1, column 1: missing header"},
		{"three columns", "time_s,rps,other\n0,70,1\n", "line 1, column 1: the header has 3 columns"},
		{"a row of three", "time_s,rps\n0,70,1\n", "line 2, column 6: \"0,70,1\" has 3 columns where a row has two"},
		{"a word for a rate", "time_s,rps\n0,seventy\n", "line 2, column 3: \"seventy\" is not a number"},
		{"a bad time", "time_s,rps\nyesterday,70\n", "line 2, column 1: \"yesterday\" is not a time"},
		{"a compact row with no colon", "0:70,60", "line 1, column 6: \"60\" has 1 column where a row has two"},
		{"10^6 rows", many(1_000_000)[:MaxTableBytes], "more than 1,440 rows"},
		{"a 50 MB paste", strings.Repeat("x", 50<<20), "is 52,428,800 bytes, over the 262,144"},
		{"no rows", "time_s,rps\n", "has no rows"},
	}
	for _, tt := range rates {
		_, err := ParseRates(tt.text)
		if assert.Error(t, err, tt.reason) {
			assert.Contains(t, err.Error(), tt.says, tt.reason)
		}
	}
	buckets := []struct {
		reason, text, says string
	}{
		{"a bound that goes back", "le,count\n0.1,5\n0.05,9\n", "line 3, column 1: the bound \"0.05\" is not after the previous row's"},
		{"a count that falls", "le,count\n0.1,5\n0.2,4\n", "line 3, column 5: the count 4 is below the previous bucket's 5: counts are cumulative"},
		{"a negative count", "le,count\n0.1,-1\n", "line 2, column 5: the count -1 is negative"},
		{"NaN", "le,count\n0.1,NaN\n", "line 2, column 5: the count is NaN"},
		{"no header", "0.1,5\n+Inf,9\n", "line 1, column 1: missing header"},
		{"+Inf not last", "le,count\n+Inf,5\n0.1,9\n", "line 2, column 1: +Inf is the last bucket's bound"},
		{"all in +Inf", "le,count\n0.1,0\n+Inf,9\n", "every observation is in the +Inf bucket"},
		{"no observations", "le,count\n0.1,0\n+Inf,0\n", "every count is 0"},
		{"a bound of 0", "le,count\n0,1\n0.1,5\n", "line 2, column 1: the bound \"0\" is not above 0"},
	}
	for _, tt := range buckets {
		_, err := ParseBuckets(tt.text)
		if assert.Error(t, err, tt.reason) {
			assert.Contains(t, err.Error(), tt.says, tt.reason)
		}
	}
	// And through a Config: the field's error names the line.
	c := DefaultConfig()
	c.Arrivals = "time_s,rps\n0,70\n60,-5\n"
	fes := FieldErrors(c.Validate())
	require.Len(t, fes, 1)
	assert.Equal(t, "arrivals", fes[0].Field)
	assert.Contains(t, fes[0].Msg, "line 3, column 4")
}

// TestDateTime holds the hand-written date reader to package time's.
func TestDateTime(t *testing.T) {
	for _, s := range []string{"2026-03-01 09:00:00", "2024-02-29T23:59:59.5Z", "1999-12-31 00:00", "2026-03-01T09:00:00+01:00", "2000-01-01T00:00:00-05:30", "1970-01-01 00:00:00"} {
		got, ok := dateTime(s)
		require.True(t, ok, s)
		var want time.Time
		var err error
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05", "2006-01-02 15:04"} {
			if want, err = time.Parse(layout, s); err == nil {
				break
			}
		}
		require.NoError(t, err, s)
		assert.Equal(t, float64(want.UnixNano())/1e9, got, s)
	}
	for _, s := range []string{"2026-13-01 09:00", "2026-03-01", "yesterday", "2026-03-01 09:00:00+0100"} {
		_, ok := dateTime(s)
		assert.False(t, ok, s)
	}
}
