package sim

import (
	"math"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim/internal/limits"
)

// A table-valued setting (Kind Table) holds a whole table as text: a rate
// over time (Config.Arrivals, rule 2b) or a latency histogram
// (Config.ServiceHistogram, rule 3b). The text is either a CSV file's, a
// header line then a row a line, as a dashboard or a load test exports
// it, or the compact form the address and the widget's attributes carry,
// its rows on one line: "0:70,60:150,120:70". Both read the same numbers;
// FormatRates and FormatBuckets write the compact form.

// Limits on a table, so that no paste can hang the page or exhaust its
// memory: a table over them is refused, naming the limit, before it is
// read.
const (
	// MaxRateRows is the most rows a rate table may have: six hours at
	// Grafana's 15 s step, or a day at one-minute steps.
	MaxRateRows = 1440
	// MaxBuckets is the most buckets a latency histogram may have.
	MaxBuckets = 200
	// MaxTableBytes is the longest a table's text may be, in bytes.
	MaxTableBytes = 256 << 10
)

// TableError is a problem at one place in a table's text: its line and
// column, from 1 (the compact form is line 1, its column the character's).
type TableError struct {
	Line, Col int
	Msg       string
}

func (e *TableError) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return "line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Col) + ": " + e.Msg
}

// RateRow is one row of a rate table: from TimeS seconds (from the table's
// first row) on, new people arrive at RPS a second.
type RateRow struct {
	TimeS, RPS float64
}

// Bucket is one bucket of a latency histogram as Prometheus keeps it: LeMS,
// its upper bound in milliseconds (+Inf for the last), and Count, the
// observations at or below it (cumulative).
type Bucket struct {
	LeMS, Count float64
}

// cell is one field of a table's row and where it starts.
type cell struct {
	text      string
	line, col int
}

// tableRows splits text into its rows of two cells each. CSV text (any
// text with a line break) must start with a header, whose first column's
// name it returns; the compact form ("0:70,60:150") has none. Blank lines
// and lines starting with # are skipped; cells may be quoted ("70.5"), as
// jq's @csv and Grafana write them. most is the most rows the table may
// have; what names the table in messages; header is an example header,
// for the message when there is none.
func tableRows(text string, most int, what, header string) (first string, rows [][2]cell, err error) {
	if len(text) > MaxTableBytes {
		return "", nil, &TableError{Msg: what + " is " + limits.Count(int64(len(text))) + " bytes, over the " + limits.Count(MaxTableBytes) +
			" a table may have: export fewer rows (a coarser step), at most " + limits.Count(int64(most))}
	}
	csv := strings.ContainsAny(text, "\n\r")
	rowSep, cellSep := byte(','), byte(':') // the compact form: one line
	if csv {
		rowSep, cellSep = '\n', ','
	}
	headed := !csv
	line, col := 1, 1
	for rest := text; ; {
		rec, after, more := strings.Cut(rest, string(rowSep))
		rec = strings.TrimRight(rec, "\r")
		if t := strings.TrimSpace(rec); t != "" && t[0] != '#' {
			cells := splitCells(rec, cellSep, line, col)
			switch {
			case !headed:
				if _, err := ParseNumber(cells[0].text); err == nil {
					return "", nil, cells[0].err("missing header: the first line names the columns (" + header + "), then a row a line")
				}
				if len(cells) != 2 {
					return "", nil, cells[0].err("the header has " + strconv.Itoa(len(cells)) + " columns; " + what + " has two (" + header + "): export one series")
				}
				first, headed = strings.ToLower(cells[0].text), true
			case len(cells) != 2:
				n := strconv.Itoa(len(cells)) + " columns"
				if len(cells) == 1 {
					n = "1 column"
				}
				return "", nil, cells[min(len(cells), 2)%len(cells)].err(quoteCell(strings.TrimSpace(rec)) + " has " + n +
					" where a row has two: " + header + " in a CSV, 60:150 in the short form")
			case len(rows) == most:
				return "", nil, cells[0].err(what + " has more than " + limits.Count(int64(most)) + " rows, the most it may have: export a coarser step")
			default:
				rows = append(rows, [2]cell{cells[0], cells[1]})
			}
		}
		if !more {
			break
		}
		if csv {
			line++
		} else {
			col += len(rec) + 1
		}
		rest = after
	}
	if len(rows) == 0 {
		return "", nil, &TableError{Msg: what + " has no rows: give at least one (" + header + ")"}
	}
	return first, rows, nil
}

// splitCells splits line at sep into trimmed cells, unquoting each,
// numbering their columns from col.
func splitCells(line string, sep byte, lineNo, col int) []cell {
	var out []cell
	start := 0
	for i := 0; i <= len(line); i++ {
		if i < len(line) && line[i] != sep {
			continue
		}
		raw := line[start:i]
		lead := len(raw) - len(strings.TrimLeft(raw, " \t"))
		t := strings.TrimSpace(raw)
		if len(t) >= 2 && t[0] == '"' && t[len(t)-1] == '"' {
			t = strings.TrimSpace(t[1 : len(t)-1])
		}
		out = append(out, cell{text: t, line: lineNo, col: col + start + lead})
		start = i + 1
	}
	return out
}

// quoteCell is a cell's text for a message, shortened.
//
//go:noinline
func quoteCell(s string) string {
	if len(s) > 24 {
		s = s[:24] + "..."
	}
	return strconv.Quote(s)
}

// err is msg at c. Not inlined: its many callers are code the page's
// module carries.
//
//go:noinline
func (c cell) err(msg string) error { return &TableError{Line: c.line, Col: c.col, Msg: msg} }

// number reads c as a finite number in plain decimal (ParseNumber), what
// in messages.
func (c cell) number(what string) (float64, error) {
	x, err := ParseNumber(c.text)
	switch {
	case strings.EqualFold(c.text, "nan"):
		return 0, c.err(what + " is NaN, a gap in the data: fill it, or drop the row")
	case err != nil || math.IsInf(x, 0):
		return 0, c.err(quoteCell(c.text) + " is not a number in plain decimal: " + what + " must be one")
	}
	return x, nil
}

// tableKind is what tells the two tables apart as readTable reads them.
type tableKind struct {
	most               int
	what, header       string
	key, value, unit   string // the columns, in messages: "the time", "the rate", " a second"
	buckets            bool   // a histogram: bounds (+Inf last), cumulative counts
	firstMax, valueMax float64
}

var (
	rateTable   = tableKind{MaxRateRows, "the rate table", "time_s,rps", "the time", "the rate", " a second", false, maxDuration, maxRPS}
	bucketTable = tableKind{MaxBuckets, "the histogram", "le,count", "the bound", "the count", "", true, maxMS, math.MaxFloat64}
)

// readTable reads text as a table of kind k, each row's two numbers: the
// first rising from row to row (a time from the first row's, or a bucket's
// bound in ms, +Inf last), the second finite and not negative (and for a
// histogram, not falling).
func readTable(text string, k tableKind) ([][2]float64, error) {
	first, cells, err := tableRows(text, k.most, k.what, k.header)
	if err != nil {
		return nil, err
	}
	seconds := first != "" && !strings.HasSuffix(first, "ms") // a histogram's bounds in s
	out := make([][2]float64, len(cells))
	origin := 0.0 // a rate table's first time
	for i, r := range cells {
		var x float64
		switch t := strings.TrimPrefix(strings.ToLower(r[0].text), "+"); {
		case k.buckets && t == "inf":
			if i != len(cells)-1 {
				return nil, r[0].err("+Inf is the last bucket's bound: put it last")
			}
			x = math.Inf(1)
		case k.buckets:
			if x, err = r[0].number(k.key); err != nil {
				return nil, err
			}
			if seconds { // in ms, read from the decimal text, so 0.005 s is 5 ms exactly
				x, _ = strconv.ParseFloat(strings.TrimSpace(r[0].text)+"e3", 64)
			}
			if x <= 0 {
				return nil, r[0].err(k.key + " " + quoteCell(r[0].text) + " is not above 0: a service takes some time; drop the bucket")
			}
		default:
			if x, err = r[0].time(); err != nil {
				return nil, err
			}
			if i == 0 {
				origin = x
			}
			x -= origin
		}
		if i > 0 && !(x > out[i-1][0]) {
			return nil, r[0].err(k.key + " " + quoteCell(r[0].text) + " is not after the previous row's: sort the rows by it, rising, one row each")
		}
		if x > k.firstMax && !math.IsInf(x, 1) {
			return nil, r[0].err(k.key + " " + quoteCell(r[0].text) + " is out of range: at most a day from the first row, or an hour for a bound (+Inf for the last bucket)")
		}
		v, err := r[1].number(k.value)
		switch {
		case err != nil:
			return nil, err
		case v < 0:
			return nil, r[1].err(k.value + " " + limits.Num(v) + " is negative: use 0 or more")
		case v > k.valueMax:
			return nil, r[1].err(k.value + " " + limits.Num(v) + " is over " + limits.Count(maxRPS) + k.unit + ", the most a run may have")
		case k.buckets && i > 0 && v < out[i-1][1]:
			return nil, r[1].err(k.value + " " + limits.Num(v) + " is below the previous bucket's " + limits.Num(out[i-1][1]) +
				": counts are cumulative, each bucket's observations at or below its bound, as Prometheus's _bucket series")
		}
		out[i] = [2]float64{x, v}
	}
	return out, nil
}

// ParseRates reads a rate table (rule 2b): CSV with a header and two
// columns, the time and the rate a second, or the compact form
// "0:70,60:150". The time is seconds, or, as a dashboard exports it, a
// Unix time in seconds or milliseconds (from 1e11, a time in seconds no
// dashboard holds) or a date and time ("2026-03-01 09:00:00", RFC 3339):
// each row's time is taken from the first row's, so the table starts at 0.
// Times must rise; rates must be finite and not negative.
func ParseRates(text string) ([]RateRow, error) {
	t, err := readTable(text, rateTable)
	rows := make([]RateRow, len(t))
	for i, r := range t {
		rows[i] = RateRow{r[0], r[1]}
	}
	return rows, err
}

// time reads c as a time in seconds: a number (a Unix time in
// milliseconds from 1e11), or a date and time.
func (c cell) time() (float64, error) {
	if x, err := ParseNumber(c.text); err == nil && !math.IsInf(x, 0) {
		if x >= 1e11 {
			x /= 1000
		}
		return x, nil
	}
	if strings.EqualFold(c.text, "nan") {
		return 0, c.err("the time is NaN: give each row a time")
	}
	if t, ok := dateTime(c.text); ok {
		return t, nil
	}
	return 0, c.err(quoteCell(c.text) + " is not a time: give seconds, a Unix time, or a date and time such as 2026-03-01 09:00:00")
}

// dateTime reads a date and time as a dashboard writes one, in seconds
// from the Unix epoch: "2026-03-01 09:00", with seconds and a fraction
// of them if given, a T for the space (RFC 3339), and Z or an offset
// such as +01:00 (UTC without one; only differences of times matter).
// Written out, not with package time, whose parser would add a tenth to
// the page's module.
func dateTime(s string) (float64, bool) {
	num := func(t string) (int, bool) {
		n := 0
		for i := range len(t) {
			if t[i] < '0' || t[i] > '9' {
				return 0, false
			}
			n = n*10 + int(t[i]-'0')
		}
		return n, t != ""
	}
	if len(s) < 16 || s[4] != '-' || s[7] != '-' || s[10] != ' ' && s[10] != 'T' || s[13] != ':' {
		return 0, false
	}
	y, ok1 := num(s[0:4])
	mo, ok2 := num(s[5:7])
	d, ok3 := num(s[8:10])
	h, ok4 := num(s[11:13])
	mi, ok5 := num(s[14:16])
	if !(ok1 && ok2 && ok3 && ok4 && ok5) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 {
		return 0, false
	}
	rest, sec := s[16:], 0.0
	if strings.HasPrefix(rest, ":") {
		end := 1
		for end < len(rest) && (rest[end] >= '0' && rest[end] <= '9' || rest[end] == '.') {
			end++
		}
		x, err := strconv.ParseFloat(rest[1:end], 64)
		if err != nil || x >= 61 {
			return 0, false
		}
		sec, rest = x, rest[end:]
	}
	offset := 0
	switch {
	case rest == "" || rest == "Z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := num(rest[1:3])
		om, ok2 := num(rest[4:6])
		if !ok1 || !ok2 {
			return 0, false
		}
		offset = oh*3600 + om*60
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return 0, false
	}
	// Days from 1970-01-01 to y-mo-d (Hinnant, "chrono-compatible
	// low-level date algorithms", days_from_civil).
	if mo <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (mo + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	days := era*146097 + doe - 719468
	return float64(days*86400+h*3600+mi*60-offset) + sec, true
}

// FormatRates writes rows in the compact form, "0:70,60:150,120:70".
func FormatRates(rows []RateRow) string {
	var b strings.Builder
	for i, r := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(r.TimeS, 'g', -1, 64) + ":" + strconv.FormatFloat(r.RPS, 'g', -1, 64))
	}
	return b.String()
}

// ParseBuckets reads a latency histogram (rule 3b): CSV with a header and
// two columns, each bucket's upper bound (le) and its cumulative count, or
// the compact form "5:120,10:400,25:900,inf:1000". In CSV the bound is in
// seconds, Prometheus's unit, unless the header's first column ends in
// "ms" (le_ms); in the compact form it is in milliseconds. The last bound
// may be +Inf (Prometheus's last bucket): those samples are capped at the
// last finite bound. Bounds must rise from above 0; counts must be finite,
// not negative, not fall from bucket to bucket, and not all 0.
func ParseBuckets(text string) ([]Bucket, error) {
	t, err := readTable(text, bucketTable)
	if err != nil {
		return nil, err
	}
	out := make([]Bucket, len(t))
	for i, r := range t {
		out[i] = Bucket{r[0], r[1]}
	}
	n := len(out)
	if out[n-1].Count == 0 {
		return nil, &TableError{Msg: "every count is 0: a histogram needs observations"}
	}
	if math.IsInf(out[n-1].LeMS, 1) && (n == 1 || out[n-2].Count == 0) {
		return nil, &TableError{Msg: "every observation is in the +Inf bucket, which has no bound: give finite buckets below it"}
	}
	return out, nil
}

// FormatBuckets writes buckets in the compact form, bounds in ms:
// "5:120,10:400,inf:1000".
func FormatBuckets(bs []Bucket) string {
	var b strings.Builder
	for i, k := range bs {
		if i > 0 {
			b.WriteByte(',')
		}
		le := "inf"
		if !math.IsInf(k.LeMS, 1) {
			le = strconv.FormatFloat(k.LeMS, 'g', -1, 64)
		}
		b.WriteString(le + ":" + strconv.FormatFloat(k.Count, 'g', -1, 64))
	}
	return b.String()
}
