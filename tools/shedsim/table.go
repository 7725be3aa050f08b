package main

import (
	"errors"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/shedsim/shedsim/sim"
)

// tableValue is a table-valued setting's flag (sim.Table: --arrivals,
// --service-histogram, --hops): its value is a file's name, whose text
// the flag reads into the Config's field, refusing a file over
// sim.MaxTableBytes before reading it and a table that does not read with
// the file's name, line and column. --hops also takes its text itself,
// told from a file's name by its "=" (every hop gives workers=): a chain
// of one or two hops fits on the command line.
type tableValue struct {
	p    *string
	key  string
	path string
}

// read checks text as v's table.
func (v *tableValue) read(text string) error {
	var err error
	switch v.key {
	case "service_histogram":
		_, err = sim.ParseBuckets(text)
	case "hops":
		_, err = sim.ParseHops(text)
	default:
		_, err = sim.ParseRates(text)
	}
	return err
}

func (v *tableValue) Set(path string) error {
	if v.key == "hops" && strings.Contains(path, "=") {
		if err := v.read(path); err != nil {
			return err
		}
		*v.p, v.path = path, path
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		give := "give the name of a CSV file"
		if v.key == "hops" {
			give = "give the hops themselves (payments: workers=4 service_ms=50 timeout_ms=1000) or the name of a file that holds them"
		}
		return errors.New("cannot read " + strconv.Quote(path) + ": " + err.Error() + ": " + give)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, sim.MaxTableBytes+1))
	if err != nil {
		return errors.New("cannot read " + strconv.Quote(path) + ": " + err.Error())
	}
	if len(b) > sim.MaxTableBytes {
		size := int64(len(b))
		if st, err := f.Stat(); err == nil {
			size = st.Size()
		}
		fix := "export fewer rows (a coarser step)"
		if v.key == "hops" {
			fix = "a chain holds at most " + strconv.Itoa(sim.MaxHops) + " services"
		}
		return errors.New(path + " is " + strconv.FormatInt(size, 10) + " bytes, over the " + strconv.Itoa(sim.MaxTableBytes) +
			" a table may have: " + fix)
	}
	text := string(b)
	if err := v.read(text); err != nil {
		return errors.New(path + ": " + err.Error())
	}
	*v.p, v.path = text, path
	return nil
}

func (v *tableValue) String() string {
	if v == nil {
		return ""
	}
	return v.path
}
