package adapter

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"

	"github.com/shedsim/shedsim/sim"
)

// workerConfigOf reads the Config in configJSON, as WorkerConfig writes
// it: what the page sends its workers, having validated it for the form
// already. It is read as sim.Config's JSON (json.Unmarshal), from the zero
// Config, and must be exactly what WorkerConfig writes for the Config it
// reads: so a key no Config has, a key misspelt or in another case, and a
// key left out that is not an omitempty zero are each refused, not run as
// a zero (a json.Decoder that refuses unknown keys cost the page's module
// 25 KB; writing the Config again costs the worker some 9 us). It is not
// how the API reads a caller's settings, which refuses one that counts for
// nothing (the client comparison's backoff with no retries is a run the
// page makes); it is held to the page's budget for one run.
func workerConfigOf(configJSON string) (sim.Config, error) {
	var c sim.Config
	if err := json.Unmarshal([]byte(configJSON), &c); err != nil {
		return sim.Config{}, errors.New("the page sent a worker a Config that does not decode: " + err.Error())
	}
	if WorkerConfig(c) != configJSON {
		return sim.Config{}, errors.New("the page sent a worker a Config that is not as workerConfig writes it (a key unknown, misspelt or left out): " +
			"runTotals, runParts and runOutcome are the page's own; use shedsim.run for a configuration of your own")
	}
	errs := SimErrors(c.Validate(), nil)
	if len(errs) == 0 {
		if e := budget(c, 1); e != nil {
			errs = append(errs, *e)
		}
	}
	if len(errs) > 0 {
		return sim.Config{}, errors.New("the page sent a worker a Config it refuses: " + errs[0].Field + ": " + errs[0].Msg)
	}
	return c, nil
}

// runConfig runs the Config in configJSON (workerConfigOf).
func runConfig(configJSON string) (sim.Result, error) {
	c, err := workerConfigOf(configJSON)
	if err != nil {
		return sim.Result{}, err
	}
	return sim.Run(c)
}

// WorkerConfig is c as the page sends it to its workers (runConfig):
// sim.Config's own JSON, which the page writes on its main thread for
// every run, a tenth of the time that every field as a string in a map
// took (BenchmarkWorkerConfig).
func WorkerConfig(c sim.Config) string { return MustJSON(c) }

// RunTotals is a worker's answer for a run the page only compares: the
// Result of runConfig without its Windows (null), as JSON, or {"error"}.
func RunTotals(configJSON string) string {
	totals, _ := RunParts(configJSON)
	return totals
}

// RunParts is a worker's answer for the chosen policy's run: runConfig's
// Result in two parts, without its Windows as JSON and the Windows as
// windowsBytes; or {"error"} and nil.
func RunParts(configJSON string) (totals string, windows []byte) {
	r, err := runConfig(configJSON)
	if err != nil {
		return Fail(err.Error()), nil
	}
	windows = windowsBytes(r.Windows)
	r.Windows = nil
	if r.Series != nil {
		// The series' points go as float64s too, after the windows and
		// their count, so that the page does not read thousands of them
		// out of the parsed JSON one field at a time (ReadParts).
		windows = append(numbersBytes([]float64{float64(len(windows) / (windowNumbers * 8))}), windows...)
		windows = append(windows, numbersBytes(r.Series.Points)...)
		series := *r.Series
		series.Points = nil
		r.Series = &series
	}
	return MustJSON(r), windows
}

// ReadParts reads RunParts' bytes into r, whose totals are read: its
// Windows and, when r has a series, its points.
func ReadParts(r *sim.Result, b []byte) (err error) {
	if r.Series == nil {
		r.Windows, err = readWindows(b)
		return err
	}
	if len(b) < 8 {
		return errors.New("a worker's series run has no count of its windows")
	}
	var n []float64
	if err := readNumbers(b[:8], &n); err != nil {
		return err
	}
	end := 8 + int(n[0])*windowNumbers*8
	if end > len(b) {
		return errors.New("a worker's series run is shorter than its windows")
	}
	if r.Windows, err = readWindows(b[8:end]); err != nil {
		return err
	}
	return readNumbers(b[end:], &r.Series.Points)
}

// DecodeRun reads a worker's answer for the Config sent: a sim.Result, as
// json.Marshal writes it, or {"errors"} or {"error"} for a Config that
// should not have reached it. The page validates every Config before it
// sends it, so either of those is a bug, returned as an error. One
// json.Unmarshal reads all three: no Result field is named error or
// errors. The Result's Config, which is the one sent (sim.Run keeps it
// as given), is not decoded but set from sent: it is half the answer, and
// the page decodes every run's answer on its main thread.
func DecodeRun(data string, sent sim.Config) (sim.Result, error) {
	var answer struct {
		sim.Result
		Config json.RawMessage `json:"config"` // not read: sent
		Error  string          `json:"error"`
		Errors []FieldMsg      `json:"errors"`
	}
	if err := json.Unmarshal([]byte(data), &answer); err != nil {
		return sim.Result{}, errors.New("a worker's answer is not JSON of a Result: " + err.Error())
	}
	switch {
	case answer.Error != "":
		return sim.Result{}, errors.New("a worker failed: " + answer.Error)
	case len(answer.Errors) > 0:
		return sim.Result{}, errors.New("a worker refused the run: " + answer.Errors[0].Field + ": " + answer.Errors[0].Msg)
	}
	answer.Result.Config = sent.Resolved() // as the engine ran it, its tables' fields filled in
	return answer.Result, nil
}

// windowNumbers is how many numbers a Window is in windowsBytes: one a
// field, in Window's order, each an int or a float64 (windowField panics
// on a Window that grows any other kind, which the tests run into).
var windowNumbers = reflect.TypeFor[sim.Window]().NumField()

// windowField is field i of w (a Window, or a SeriesPoint), addressable,
// checked to be an int or a float64.
func windowField(w reflect.Value, i int) reflect.Value {
	f := w.Field(i)
	if k := f.Kind(); k != reflect.Int && k != reflect.Float64 {
		panic("windowsBytes: " + w.Type().Name() + "'s " + w.Type().Field(i).Name + " is a " + k.String() + ", not an int or a float64")
	}
	return f
}

// windowsBytes writes ws as little-endian float64s (as a Float64Array
// holds them on every platform the page runs on), windowNumbers a window:
// how a worker hands the chosen policy's windows to the page, which reads
// them back with readWindows at a fraction of what decoding them as JSON
// costs. Every count is a whole number far below 2^53, so a float64 holds
// it exactly.
func windowsBytes(ws []sim.Window) []byte { return numbersBytes(ws) }

// numbersBytes writes vs, a slice of structs of ints and float64s (or of
// float64s), as windowsBytes writes windows: a field a float64.
func numbersBytes(vs any) []byte {
	var b []byte
	s := reflect.ValueOf(vs)
	for i := range s.Len() {
		v := s.Index(i)
		n := 1
		if v.Kind() == reflect.Struct {
			n = v.NumField()
		}
		for j := range n {
			f := v
			if v.Kind() == reflect.Struct {
				f = windowField(v, j)
			}
			var x float64
			if f.Kind() == reflect.Float64 {
				x = f.Float()
			} else {
				x = float64(f.Int())
			}
			u := math.Float64bits(x)
			b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24), byte(u>>32), byte(u>>40), byte(u>>48), byte(u>>56))
		}
	}
	return b
}

// readWindows reads what windowsBytes wrote.
func readWindows(b []byte) (ws []sim.Window, err error) {
	err = readNumbers(b, &ws)
	return ws, err
}

// readNumbers reads what numbersBytes wrote into *dst, a slice.
func readNumbers(b []byte, dst any) error {
	s := reflect.ValueOf(dst).Elem()
	t := s.Type().Elem()
	n := 1
	if t.Kind() == reflect.Struct {
		n = t.NumField()
	}
	if len(b)%(n*8) != 0 {
		return errors.New("a worker's numbers are " + strconv.Itoa(len(b)) + " bytes, not a whole number of " + t.Name() + "s")
	}
	s.Set(reflect.MakeSlice(s.Type(), len(b)/(n*8), len(b)/(n*8)))
	for i := range s.Len() {
		v := s.Index(i)
		for j := range n {
			p := b[(i*n+j)*8:]
			x := math.Float64frombits(uint64(p[0]) | uint64(p[1])<<8 | uint64(p[2])<<16 | uint64(p[3])<<24 |
				uint64(p[4])<<32 | uint64(p[5])<<40 | uint64(p[6])<<48 | uint64(p[7])<<56)
			f := v
			if v.Kind() == reflect.Struct {
				f = windowField(v, j)
			}
			if f.Kind() == reflect.Float64 {
				f.SetFloat(x)
			} else {
				f.SetInt(int64(x))
			}
		}
	}
	return nil
}
