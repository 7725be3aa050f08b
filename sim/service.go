package sim

import (
	"math"

	"github.com/shedsim/shedsim/sim/internal/portable"
)

// ServiceShape is the distribution of service times (rule 3, and rule 3a
// for the shapes other than the post's). Every shape has the mean
// Config.ServiceMS, so every shape gives the same capacity, Workers /
// ServiceMS: what changes is how the times spread about it. The zero value
// is ExponentialService.
type ServiceShape int

const (
	// ExponentialService is the post's: exponential with mean ServiceMS, so
	// the median is ln 2 (0.69) times the mean and the p99 ln 100 (4.6)
	// times.
	ExponentialService ServiceShape = iota
	// LognormalService is log-normal with mean ServiceMS and 99th
	// percentile ServiceP99MS: the heavy right tail of a real handler's
	// latency (a slow query, a GC pause, a cache miss).
	//
	// Why the mean and the p99, rather than the median and the p99: the
	// mean is what fixes capacity (Workers / mean, rule 21; Erlang C's
	// offered load, rule 20), and ServiceMS is the mean everywhere else in
	// the model (the automatic bound, the fluid view, the planner), so
	// giving a tail never moves the capacity the rest of the page shows.
	// The median follows and is shown beside them: a dashboard's p50 of
	// 40 ms and p99 of 600 ms is a mean of 78.8 ms.
	//
	// With z = 2.3263 the normal's 99th percentile, a mean m and a p99 q
	// fix the log-normal's sigma by ln(q/m) = z sigma - sigma^2/2; of its
	// two roots the engine takes the smaller, sigma = z - sqrt(z^2 -
	// 2 ln(q/m)) (the other puts the median below a thousandth of the
	// mean). A root exists only for m < q <= e^(z^2/2) m, about 14.97 m:
	// no log-normal has a p99 at or below its mean, or a tail heavier than
	// that for its mean (Validate says so, with the numbers to use).
	LognormalService
	// ConstantService is every service taking exactly ServiceMS: the
	// M/D/c queue, the least a tail can be.
	ConstantService
	// HistogramService draws service times from a latency histogram,
	// Config.ServiceHistogram (rule 3b), whose mean is then ServiceMS.
	HistogramService
)

// ServiceShapes lists every service shape, the post's first.
var ServiceShapes = []ServiceShape{ExponentialService, LognormalService, ConstantService, HistogramService}

var serviceKeys = keys{
	typ:    "ServiceShape",
	noun:   "service shape",
	names:  []string{"exponential", "lognormal", "constant", "histogram"},
	titles: []string{"Exponential (the post's)", "Log-normal (mean and p99)", "Constant", "From a histogram"},
}

// String returns the shape's key, as used in JSON, URLs and flags.
func (s ServiceShape) String() string { return serviceKeys.name(int(s)) }

// Title returns the shape's name for people.
func (s ServiceShape) Title() string { return serviceKeys.title(int(s)) }

// ParseServiceShape returns the shape whose key is s, ignoring case and spaces.
func ParseServiceShape(s string) (ServiceShape, error) {
	i, err := serviceKeys.parse(s)
	return ServiceShape(i), err
}

// MarshalText encodes the shape as its key.
func (s ServiceShape) MarshalText() ([]byte, error) { return serviceKeys.marshal(int(s)) }

// UnmarshalText decodes a shape from its key.
func (s *ServiceShape) UnmarshalText(b []byte) error {
	v, err := ParseServiceShape(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// PatienceShape is how long a person waits for an answer before giving
// up (rule 4a). The zero value is NoPatience, the post's: everyone waits
// the client's timeout.
type PatienceShape int

const (
	// NoPatience: each attempt's client waits exactly TimeoutMS (rule 4).
	NoPatience PatienceShape = iota
	// ExponentialPatience: each attempt's person gives up after an
	// exponential time with mean PatienceMS, if that is shorter than the
	// timeout. Exponential patience is what Erlang A (M/M/c+M) assumes
	// (Garnett, Mandelbaum and Reiman 2002), and it is memoryless: a
	// person who has waited through one attempt is as patient at the next
	// as at the first, so a fresh draw for each attempt is the same person.
	ExponentialPatience
)

// PatienceShapes lists every patience shape, the post's first.
var PatienceShapes = []PatienceShape{NoPatience, ExponentialPatience}

var patienceKeys = keys{
	typ:    "PatienceShape",
	noun:   "patience",
	names:  []string{"none", "exponential"},
	titles: []string{"None: people wait the timeout", "Exponential, with a mean"},
}

// String returns the shape's key, as used in JSON, URLs and flags.
func (p PatienceShape) String() string { return patienceKeys.name(int(p)) }

// Title returns the shape's name for people.
func (p PatienceShape) Title() string { return patienceKeys.title(int(p)) }

// ParsePatienceShape returns the shape whose key is s, ignoring case and spaces.
func ParsePatienceShape(s string) (PatienceShape, error) {
	i, err := patienceKeys.parse(s)
	return PatienceShape(i), err
}

// MarshalText encodes the shape as its key.
func (p PatienceShape) MarshalText() ([]byte, error) { return patienceKeys.marshal(int(p)) }

// UnmarshalText decodes a shape from its key.
func (p *PatienceShape) UnmarshalText(b []byte) error {
	v, err := ParsePatienceShape(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// normalP99 is z, the standard normal's 99th percentile, Phi^-1(0.99).
const normalP99 = 2.3263478740408408

// MaxLognormalTail is the largest p99 a log-normal can have for its mean,
// as a multiple of it: e^(z^2/2), about 14.97 (see LognormalService).
var MaxLognormalTail = portable.Exp(normalP99 * normalP99 / 2)

// lognormalSigma is the sigma of the log-normal with mean m and p99 q (see
// LognormalService), and false when none exists. The logarithm is the
// portable one and IEEE 754 rounds the square root exactly, so every
// platform draws from the same sigma.
func lognormalSigma(m, q float64) (float64, bool) {
	if !(m > 0 && q > m) {
		return 0, false
	}
	l := portable.Log(q / m)
	d := float64(normalP99*normalP99) - float64(2*l)
	if d < 0 {
		return 0, false
	}
	return normalP99 - math.Sqrt(d), true
}

// ServiceStats is a service shape's three numbers and the capacity they
// give, in milliseconds and requests a second.
type ServiceStats struct {
	MedianMS float64 `json:"median_ms"`
	MeanMS   float64 `json:"mean_ms"`
	P99MS    float64 `json:"p99_ms"`
	// CapacityRPS is Workers / MeanMS: the mean alone fixes it.
	CapacityRPS float64 `json:"capacity_rps"`
	// Warning, for a histogram (rule 3b), says when it was likely measured
	// under enough load to hold queueing (Config.HistogramWarning).
	Warning string `json:"warning,omitempty"`
}

// ServiceStats returns the median, mean and p99 of c's service times and
// the capacity they give (the median and p99 0 for a lognormal shape with
// no valid p99). The functions are the portable ones, so that every
// platform prints the same digits.
func (c Config) ServiceStats() ServiceStats {
	m := c.ServiceMS
	s := ServiceStats{MeanMS: m, CapacityRPS: c.CapacityRPS()}
	switch c.Service {
	case ExponentialService:
		s.MedianMS, s.P99MS = m*math.Ln2, m*portable.Log(100)
	case LognormalService:
		sigma, ok := lognormalSigma(m, c.ServiceP99MS)
		if !ok {
			return ServiceStats{MeanMS: m, CapacityRPS: s.CapacityRPS}
		}
		s.MedianMS, s.P99MS = m*portable.Exp(-float64(sigma*sigma)/2), c.ServiceP99MS
	case HistogramService:
		h, ok := c.histogram()
		if !ok {
			return ServiceStats{MeanMS: m, CapacityRPS: s.CapacityRPS}
		}
		s.MeanMS = h.mean()
		s.CapacityRPS = float64(c.Workers) * 1000 / s.MeanMS
		s.MedianMS, s.P99MS = h.quantile(0.5), h.quantile(0.99)
		s.Warning = c.HistogramWarning()
	default:
		s.MedianMS, s.P99MS = m, m
	}
	return s
}

// NormFloat64 returns a standard normal draw by Marsaglia's polar method
// (G. Marsaglia and T. A. Bray, "A convenient method for generating normal
// variables", SIAM Review 6(3), 1964): two uniforms in the square, kept
// when they fall in the unit disc (pi/4 of the time), then one portable
// logarithm and one square root, which IEEE 754 rounds exactly everywhere.
// Unlike Box-Muller it needs no sine or cosine, which package portable does
// not have. It uses one of the pair's two normals, so a draw is a fixed
// function of the stream's next uniforms.
func (s *stream) NormFloat64() float64 {
	for {
		u := float64(2*s.Float64()) - 1
		v := float64(2*s.Float64()) - 1
		q := float64(u*u) + float64(v*v)
		if q > 0 && q < 1 {
			return u * math.Sqrt(float64(-2*portable.Log(q))/q)
		}
	}
}

// serviceDraw is what the engine needs to draw service times (rule 3a):
// the mean, and unit, which draws a time of mean 1 from the shape. unit is
// chosen once a run, so that drawing costs the post's exponential one
// indirect call instead of a test of the shape as well.
type serviceDraw struct {
	mean        float64 // ns
	unit        func(*stream) float64
	exponential bool // unit is (*stream).ExpFloat64, which serviceNS calls itself
}

func newServiceDraw(c Config) serviceDraw {
	d := serviceDraw{mean: c.ServiceMS * 1e6, unit: (*stream).ExpFloat64, exponential: c.Service == ExponentialService}
	switch c.Service {
	case LognormalService:
		// exp(sigma Z - sigma^2/2) has mean 1.
		sigma, _ := lognormalSigma(c.ServiceMS, c.ServiceP99MS)
		shift := -float64(sigma*sigma) / 2
		d.unit = func(s *stream) float64 { return portable.Exp(float64(sigma*s.NormFloat64()) + shift) }
	case ConstantService:
		d.unit = func(*stream) float64 { return 1 }
	case HistogramService:
		if h, ok := c.histogram(); ok {
			d.unit = histogramUnit(h)
		}
	}
	return d
}

// serviceNS draws one service time in ns, unrounded, from the service
// stream (rule 3): the mean times a draw of mean 1 from the shape. It is
// the one place a service time is drawn; anything that stretches service
// (a slowdown, a load factor) multiplies what it returns. For the post's
// exponential it is the post's draw, bit for bit, made here with the
// ziggurat's first try inlined rather than through unit's call.
func (e *engine) serviceNS() float64 {
	if e.draw.exponential {
		x, j, ok := e.service.expLayer()
		if !ok {
			x = e.service.expBeyond(j)
		}
		return float64(e.draw.mean * x)
	}
	return float64(e.draw.mean * e.draw.unit(&e.service))
}

// patienceNS draws how long the person behind an attempt waits before
// giving up, in ns, and reports false when they would outwait the timeout
// (rule 4a): then the timeout decides, as in rule 4.
func (e *engine) patienceNS() (int64, bool) {
	p := float64(e.patienceMean*e.patience.ExpFloat64()) + 0.5
	if p >= float64(e.timeout) {
		return 0, false
	}
	return int64(p), true
}
