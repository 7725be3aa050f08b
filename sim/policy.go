package sim

import (
	"slices"
	"strconv"
)

// Policy is what the service does with a request that does not fit. Each
// policy is described once, in a file of its own (policy_fifo.go,
// policy_skip.go, ...), by a policySpec it registers with definePolicy:
// its key and names, its colours, its own settings, what it sheds and
// when, and its behaviour as the engine's mechanisms spell it. Every list
// of policies (Policies, the command line's help, the page's form and
// styles, the advice's groups, Unused, the arrival-order path's coverage
// and the tests' lists) derives from those descriptors. The zero value is
// FIFO.
type Policy int

// policySpec describes one policy, once.
type policySpec struct {
	key   string // in JSON, URLs and flags: "bounded"
	title string // as the post writes it: "Bounded queue"
	short string // a word or two, for a chart's direct labels: "bounded"
	// noun is the policy as a sentence names it: "the bounded queue",
	// "skipping the abandoned".
	noun string
	// light and dark are the policy's colour (CSS) on a light and a dark
	// page, and dash its curve's stroke-dasharray ("" for a solid line),
	// so that curves of near-equal shares stay apart for a reader who
	// cannot tell the hues apart.
	light, dark, dash string
	rule              int  // its rule in sim/MODEL.md
	post              bool // one of the post's six (PostPolicies)
	// settings are the JSON keys of the Config fields only this policy
	// (and any other that lists them) reads: Unused refuses them under
	// another policy.
	settings []string
	// refusesEarly says the policy can say no before a client's timeout
	// does: the advice compares these among themselves.
	refusesEarly bool
	// admit is what the policy does with an arrival, take how a worker
	// picks from the queue, and shed what it drops or refuses as a worker
	// picks a request up.
	admit admission
	take  taking
	shed  shedding
	// arrivalOrder says the arrival-order path (arrivalorder.go) computes
	// the policy's runs; the event loop computes every policy's.
	arrivalOrder bool
	// declares are the settings the policy brings: fields of a struct
	// of its own that Config embeds, each 0 standing for its library's
	// default, and their descriptions (Settings).
	// Shared settings (the queue bound) are declared once and named in
	// settings by each policy that reads them.
	declares []Setting
	// limiter starts the policy's adaptive limit for a run of c, for a
	// policy whose admission is admitLimit.
	limiter func(c Config) limiter
	// validate refuses what its own settings' ranges cannot say (a
	// least limit above the most), with bad as Validate's; nil for none.
	validate func(c Config, bad func(field, says string))
	// samples are the policy's own samples, which Samples lists after the
	// post's; a policy that is not the post's brings at least one.
	samples []Sample
}

// admission is what a policy does with a request as it arrives.
type admission uint8

const (
	admitAll      admission = iota // every request joins the queue (fifo, skip)
	admitBound                     // refused when the bound is full (rule 8)
	admitPriority                  // the bound, with room made for orders (rule 11)
	admitCoDel                     // the queue timeout's limit, set on arrival (rule 9)
	admitLimit                     // an adaptive concurrency limit (limiter.go)
)

// taking is how a worker picks the next request from the queue.
type taking uint8

const (
	takeOldest        taking = iota // first in, first out
	takeNewestCrowded               // newest first while the queue has not been empty for N (rule 10)
	takeOldestOfTwo                 // orders and previews in two lines, so that a preview can make room; the older front first (rule 11)
)

// shedding is what a policy drops or refuses as a worker picks a request up.
type shedding uint8

const (
	shedNothing   shedding = iota
	shedAbandoned          // a request whose client has gone is dropped, silently (rule 7)
	shedOverLimit          // a request over its wait limit is refused, or dropped if its client has gone (rule 9)
)

// policySpecs are the registered policies, by value.
var policySpecs []*policySpec

// Policies lists every policy, in the order of their values: the post's
// six first, in the order the post introduces them.
var Policies []Policy

// PostPolicies lists the post's six policies, in the post's order: its
// tables, the lab and the samples that reproduce the post run these, so a
// new policy never rewrites them.
var PostPolicies []Policy

// Group is the family p belongs to, as the every-policy views title it so
// that the post's six read as the post's: "The post's policies", the
// "Adaptive concurrency limits" (a policy with a limiter), or "Other
// policies".
func (p Policy) Group() string {
	switch sp := p.spec(); {
	case sp.post:
		return "The post's policies"
	case sp.limiter != nil:
		return "Adaptive concurrency limits"
	}
	return "Other policies"
}

// definePolicy registers p's spec. Each policy's file calls it from its
// init; values must be dense from 0, which TestPolicySpecs checks.
func definePolicy(p Policy, s policySpec) {
	if int(p) < 0 || int(p) > 1000 {
		panic("sim: policy value " + strconv.Itoa(int(p)) + " out of range")
	}
	for len(policySpecs) <= int(p) {
		policySpecs = append(policySpecs, nil)
	}
	if policySpecs[p] != nil {
		panic("sim: policy " + strconv.Itoa(int(p)) + " defined twice: " + policySpecs[p].key + " and " + s.key)
	}
	policySpecs[p] = &s
	Policies = Policies[:0]
	PostPolicies = PostPolicies[:0]
	for i, sp := range policySpecs {
		if sp == nil {
			continue
		}
		Policies = append(Policies, Policy(i))
		if sp.post {
			PostPolicies = append(PostPolicies, Policy(i))
		}
	}
	policyKeys.names, policyKeys.titles, policyKeys.shorts = nil, nil, nil
	for _, sp := range policySpecs {
		if sp == nil { // a gap, until its policy registers: TestPolicySpecs fails on one left
			policyKeys.names, policyKeys.titles, policyKeys.shorts = append(policyKeys.names, ""), append(policyKeys.titles, ""), append(policyKeys.shorts, "")
			continue
		}
		policyKeys.names = append(policyKeys.names, sp.key)
		policyKeys.titles = append(policyKeys.titles, sp.title)
		policyKeys.shorts = append(policyKeys.shorts, sp.short)
	}
}

// spec returns p's descriptor; a value no policy registered has an empty
// one, which admits everything and sheds nothing.
func (p Policy) spec() *policySpec {
	if p < 0 || int(p) >= len(policySpecs) || policySpecs[p] == nil {
		return &policySpec{}
	}
	return policySpecs[p]
}

// policyKeys are the policy keys, titles and short labels, by value, as
// definePolicy collects them.
var policyKeys = keys{typ: "Policy", noun: "policy"}

// String returns the policy's key, as used in JSON, URLs and flags ("fifo").
func (p Policy) String() string { return policyKeys.name(int(p)) }

// Title returns the policy's name as the post writes it ("Bounded queue").
func (p Policy) Title() string { return policyKeys.title(int(p)) }

// Short returns the policy's name in a word or two ("bounded"), for a
// chart's direct labels, where the title would not fit.
func (p Policy) Short() string { return policyKeys.short(int(p)) }

// Noun returns the policy as a sentence names it: "the bounded queue",
// "skipping the abandoned".
func (p Policy) Noun() string {
	if s := p.spec(); s.noun != "" {
		return s.noun
	}
	return p.String()
}

// Colours returns the policy's colour on a light and on a dark page (CSS
// colours), and its curve's stroke-dasharray ("" for a solid line).
func (p Policy) Colours() (light, dark, dash string) {
	s := p.spec()
	return s.light, s.dark, s.dash
}

// Rule returns the number of the policy's rule in sim/MODEL.md.
func (p Policy) Rule() int { return p.spec().rule }

// RefusesEarly reports whether the policy can say no before a client's
// timeout does (a bound, a wait limit): the policies the advice compares
// among themselves.
func (p Policy) RefusesEarly() bool { return p.spec().refusesEarly }

// Refuses reports whether the policy ever says no to a request (rather
// than only serve it or drop it when its client has gone): only then can
// a refusal cost worker time (rule 12).
func (p Policy) Refuses() bool { return p.spec().admit != admitAll || p.spec().shed == shedOverLimit }

// PutsOrdersFirst reports whether the policy treats orders apart from
// previews (rule 11): only then does OrderShare change what happens.
func (p Policy) PutsOrdersFirst() bool { return p.spec().admit == admitPriority }

// Bounds reports whether the policy refuses arrivals once QueueBound
// requests wait (the bounded queue, priority for orders).
func (p Policy) Bounds() bool { a := p.spec().admit; return a == admitBound || a == admitPriority }

// Declares returns the settings the policy brings of its own: fields of a
// struct Config embeds, each 0 for its library's default.
func (p Policy) Declares() []Setting {
	settingsOnce.Do(indexSettings)
	var out []Setting
	for _, s := range settings {
		for _, d := range p.spec().declares {
			if s.Key == d.Key {
				out = append(out, s)
			}
		}
	}
	return out
}

// Settings returns the JSON keys of the settings the policy reads of its
// own, such as "queue" for the bounded queue.
func (p Policy) Settings() []string { return slices.Clone(p.spec().settings) }

// PolicyKeys returns every policy's key, in the order of Policies, as the
// command line's help and messages list them.
func PolicyKeys() []string { return slices.Clone(policyKeys.names) }

// ParsePolicy returns the policy whose key is s, ignoring case and spaces.
func ParsePolicy(s string) (Policy, error) {
	i, err := policyKeys.parse(s)
	return Policy(i), err
}

// MarshalText encodes the policy as its key.
func (p Policy) MarshalText() ([]byte, error) { return policyKeys.marshal(int(p)) }

// UnmarshalText decodes a policy from its key.
func (p *Policy) UnmarshalText(b []byte) error {
	v, err := ParsePolicy(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}
