package main

import (
	"errors"
	"io"
	"os"
	"strconv"

	"github.com/shedsim/shedsim/sim"
)

// tableValue is a table-valued setting's flag (sim.Table: --arrivals,
// --service-histogram): its value is a file's name, whose text the flag
// reads into the Config's field, refusing a file over sim.MaxTableBytes
// before reading it and a table that does not read with the file's name,
// line and column.
type tableValue struct {
	p    *string
	key  string
	path string
}

func (v *tableValue) Set(path string) error {
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return errors.New("cannot read " + strconv.Quote(path) + ": " + err.Error() + ": give the name of a CSV file")
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
		return errors.New(path + " is " + strconv.FormatInt(size, 10) + " bytes, over the " + strconv.Itoa(sim.MaxTableBytes) +
			" a table may have: export fewer rows (a coarser step)")
	}
	text := string(b)
	read := func(s string) error { _, err := sim.ParseRates(s); return err }
	if v.key == "service_histogram" {
		read = func(s string) error { _, err := sim.ParseBuckets(s); return err }
	}
	if err := read(text); err != nil {
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
