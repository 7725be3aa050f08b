package sweep

import (
	"errors"
	"strconv"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/internal/limits"
)

// MaxCells is the most cells a map may have (100 x 100, say), checked
// before anything is built for them.
const MaxCells = 10_000

// Axis is one knob of a map over a range: Steps values from From to To,
// both included, as a sweep's.
type Axis struct {
	Knob  string  `json:"knob"`
	From  float64 `json:"from"`
	To    float64 `json:"to"`
	Steps int     `json:"steps"`
}

// MapSpec is a map of two knobs for one policy (Base.Policy): every pair
// of values, at Seeds seeds. The picture of the collapse region: sale rate
// against retries, say, each cell the share of seeds back to normal.
type MapSpec struct {
	// Base is the Config every cell starts from; its Seed is the first of
	// the seeds and its Policy the map's.
	Base sim.Config `json:"base"`
	// X and Y are the two knobs: X across, Y down. They must differ.
	X Axis `json:"x"`
	Y Axis `json:"y"`
	// Seeds is how many seeds each cell runs, from Base.Seed.
	Seeds int `json:"seeds"`
	// Progress, if set, hears as the runs finish.
	Progress Progress `json:"-"`
}

// Map is what a MapSpec measured: Cells[j][i] is X's value Xs[i] with Y's
// value Ys[j].
type Map struct {
	Spec  MapSpec     `json:"spec"`
	Xs    []float64   `json:"xs"`
	Ys    []float64   `json:"ys"`
	Cells [][]Outcome `json:"cells"`
}

// check validates m and returns its axes' values and the settings, Y-major.
func (m MapSpec) check() ([]float64, []float64, []sim.Config, error) {
	kx, xs, ex := rangeErrors("x_", m.X.Knob, m.Base, m.X.From, m.X.To, m.X.Steps)
	ky, ys, ey := rangeErrors("y_", m.Y.Knob, m.Base, m.Y.From, m.Y.To, m.Y.Steps)
	err := errors.Join(ex, ey, seedsFrom(m.Base, m.Seeds))
	if ex == nil && ey == nil && kx.Name() == ky.Name() {
		err = errors.Join(err, sim.NewFieldError("y_knob", "is {"+kx.Name()+"}, the same knob as the other axis: a map needs two different knobs"))
	}
	if err == nil && len(xs)*len(ys) > MaxCells {
		err = &sim.FieldError{Field: "y_steps", Msg: limits.Count(int64(len(xs))) + " x " + limits.Count(int64(len(ys))) + " steps make " +
			limits.Count(int64(len(xs)*len(ys))) + " cells, over the most a map holds, " + limits.Count(MaxCells) + ": use fewer steps"}
	}
	if err != nil {
		return nil, nil, nil, err
	}
	settings := make([]sim.Config, 0, len(xs)*len(ys))
	for _, y := range ys {
		for _, x := range xs {
			settings = append(settings, kx.With(ky.With(m.Base, y), x))
		}
	}
	label := func(c sim.Config) string { return kx.Label(c) + ", " + ky.Label(c) }
	if err := settingsErrors(settings, label); err != nil {
		return nil, nil, nil, err
	}
	if err := errors.Join(knobCounts("x_knob", kx, settings), knobCounts("y_knob", ky, settings)); err != nil {
		return nil, nil, nil, err
	}
	made := strconv.Itoa(len(xs)) + " x " + strconv.Itoa(len(ys)) + " cells"
	if err := budget(settings, m.Seeds, made); err != nil {
		return nil, nil, nil, err
	}
	return xs, ys, settings, nil
}

// Validate checks the MapSpec without running it, as Spec.Validate does;
// the axes' fields are named "x_knob", "x_from", ..., "y_steps".
func (m MapSpec) Validate() error {
	_, _, _, err := m.check()
	return err
}

// RunMap measures the MapSpec: every cell at every seed.
func RunMap(m MapSpec) (Map, error) { return runMap(m, nil) }

func runMap(m MapSpec, keep func(int, sim.Result)) (Map, error) {
	p, err := m.Plan()
	if err != nil {
		return Map{}, err
	}
	outs, err := measure(p.Settings, m.Base.Seed, m.Seeds, m.Progress, keep)
	if err != nil {
		return Map{}, err
	}
	return m.Assemble(outs), nil
}
