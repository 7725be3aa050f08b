package sim

import (
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Setting describes one field of Config once: its key, where the form
// shows it and how it labels it, its unit, its range, who reads it, and
// the command line's help. The command line's flags, the page's form,
// the widget's attribute list, the sweep's knobs, Validate's range checks
// and Unused derive from these; TestSettings holds each one to the
// Config field it describes.
type Setting struct {
	// Key is the field's JSON key, as the URL, the form, the widget's
	// attributes and, with dashes, the command line spell it.
	Key string
	// Group is the form's fieldset that holds it; Advanced ones sit
	// inside the form's "Advanced" details.
	Group Group
	// Label and Unit are the form's words: "Service time" and "ms, mean".
	Label, Unit string
	// Help is the command line's one line about it.
	Help string
	// Min and Max bound a numeric field; MinOpen refuses Min itself (a
	// timeout of 0), MaxOpen Max (a backoff ratio of 1). Zero, when not "", says 0 is accepted too, below
	// Min, and what it means: "none" (no slowdown, no series), or the
	// default it stands for ("20").
	Min, Max         float64
	MinOpen, MaxOpen bool
	Zero             string
	Kind             Kind
	Owner            Owner
	field            []int // index in Config, for reflect.Value.FieldByIndex
	validatedHere    bool
	choices          *keys // a Choice's values
}

// Choices returns a Choice setting's values, each its key and its title
// ({"skip", "Skip the abandoned"}), in order; nil for another kind.
func (s Setting) Choices() [][2]string {
	if s.choices == nil {
		return nil
	}
	out := make([][2]string, len(s.choices.names))
	for i, n := range s.choices.names {
		out[i] = [2]string{n, s.choices.titles[i]}
	}
	return out
}

// Kind is what a setting's field holds.
type Kind uint8

const (
	Choice Kind = iota // one of a closed set of words (policy, client, service, patience)
	Whole              // a whole number
	Real               // a number
	Seed               // a whole number up to MaxSeed
	Table              // a table as text (ParseRates, ParseBuckets): a file's CSV, or its compact form
)

// Group is a fieldset of the page's form.
type Group string

// The form's groups, in the order the form shows them.
const (
	GroupService   Group = "Service"
	GroupTraffic   Group = "Traffic"
	GroupClients   Group = "Clients"
	GroupShape     Group = "Your service"
	GroupQueue     Group = "Queue and refusals"
	GroupIncidents Group = "Incidents"
	GroupRun       Group = "Run"
	GroupAdvanced  Group = "Advanced"
)

// Groups lists the form's groups, in order.
var Groups = []Group{GroupService, GroupTraffic, GroupClients, GroupShape, GroupQueue, GroupIncidents, GroupRun, GroupAdvanced}

// Owner is who reads a setting, for Unused: the model (every run), a
// policy (policySpec.settings names which), a client strategy (Clients
// names which), the retries, a trigger that another setting turns on, a
// run's series, or the orders.
type Owner struct {
	Kind    OwnerKind
	Clients []Client // for ByClient: the clients that read it
	// Switch is, for ByTrigger, the setting that turns the trigger on
	// (slow_factor for slow_start_s), or for ByShape the choice that
	// reads it (service for service_p99_ms), or for ByPolicy the
	// policy's own choice that reads it (bbr_rule for bbr_flying_beta).
	Switch string
}

// OwnerKind is the kind of an Owner.
type OwnerKind uint8

const (
	ByModel   OwnerKind = iota // every run reads it
	ByPolicy                   // the policies whose specs name it
	ByClient                   // the client strategies in Owner.Clients, with retries
	ByRetries                  // every client that retries, with retries
	ByShape                    // a shape chosen by Owner.Switch
	ByTrigger                  // a trigger that Owner.Switch turns on
	BySeries                   // what shows a run's time series (Scope.Series): it changes what is recorded, not what happens
	ByOrders                   // the policies that put orders first (rule 11), and what shows how orders fared (Scope.Orders)
)

// policy is the Owner of a policy's own settings (policySpec.declares).
var policy = Owner{Kind: ByPolicy}

// settings are Config's fields, in its order. Validate checks the ranges
// of those with validatedHere; the others' ranges are the same, checked
// with the rules that tie them to other fields (shape.go, incident.go,
// Validate's own).
var settings = []Setting{
	{Key: "policy", Group: GroupService, Label: "Policy", Kind: Choice, Owner: Owner{Kind: ByModel}, choices: &policyKeys,
		Help: "what the service does with a request that does not fit"},
	{Key: "workers", Group: GroupService, Label: "Workers", Kind: Whole, Min: 1, Max: maxWorkers, Owner: Owner{Kind: ByModel}, validatedHere: true,
		Help: "identical workers"},
	{Key: "service_ms", Group: GroupService, Label: "Service time", Unit: "ms, mean", Kind: Real, Min: minService, Max: maxMS, Owner: Owner{Kind: ByModel}, validatedHere: true,
		Help: "mean service time, ms; it alone fixes capacity"},
	{Key: "service", Group: GroupShape, Label: "Service times", Kind: Choice, Owner: Owner{Kind: ByModel}, choices: &serviceKeys,
		Help: "shape of the service times: exponential (the post's), lognormal (with --service-p99-ms), constant, or histogram (with --service-histogram)"},
	{Key: "service_p99_ms", Group: GroupShape, Label: "Service p99", Unit: "ms, log-normal only; 0 for the others", Kind: Real, Min: 0, Max: maxMS, MinOpen: true, Zero: "none", Owner: Owner{Kind: ByShape, Switch: "service"},
		Help: "lognormal service: the 99th percentile, ms, above the mean and at most 14.97 times it"},
	{Key: "service_histogram", Group: GroupShape, Label: "Latency histogram", Unit: "le,count rows (Prometheus buckets)", Kind: Table, Owner: Owner{Kind: ByShape, Switch: "service"},
		Help: "a FILE of Prometheus buckets to draw service times from, le (s, or le_ms) and cumulative count a row, with a header; its mean sets capacity (sets --service histogram)"},
	{Key: "normal_rps", Group: GroupTraffic, Label: "Normal traffic", Unit: "people per s", Kind: Real, Min: 0, Max: maxRPS, Owner: Owner{Kind: ByModel}, validatedHere: true,
		Help: "arrivals outside the sale, per second"},
	{Key: "sale_rps", Group: GroupTraffic, Label: "Sale traffic", Unit: "people per s", Kind: Real, Min: 0, Max: maxRPS, Owner: Owner{Kind: ByModel}, validatedHere: true,
		Help: "arrivals during the sale, per second"},
	{Key: "sale_start_s", Group: GroupTraffic, Label: "Sale starts at", Unit: "s", Kind: Real, Min: 0, Max: maxDuration, Owner: Owner{Kind: ByModel},
		Help: "when the sale starts, s"},
	{Key: "sale_s", Group: GroupTraffic, Label: "Sale lasts", Unit: "s", Kind: Real, Min: 0, Max: maxDuration, Owner: Owner{Kind: ByModel},
		Help: "how long the sale lasts, s (each wave, with --sale-waves)"},
	{Key: "sale_ramp_s", Group: GroupTraffic, Label: "Ramps up and down over", Unit: "s, 0 = none", Kind: Real, Min: 0, Max: maxDuration, Owner: Owner{Kind: ByModel},
		Help: "the sale ramps up over its first this many s and down over its last (0: a rectangle)"},
	{Key: "sale_waves", Group: GroupTraffic, Label: "Waves", Unit: "0 = one", Kind: Whole, Min: 0, Max: maxWaves, Owner: Owner{Kind: ByModel},
		Help: "the sale comes this many times (0 or 1: once)"},
	{Key: "sale_every_s", Group: GroupTraffic, Label: "Waves every", Unit: "s", Kind: Real, Min: 0, Max: maxDuration, Owner: Owner{Kind: ByTrigger, Switch: "sale_waves"},
		Help: "from one wave's start to the next, s"},
	{Key: "arrivals", Group: GroupTraffic, Label: "Your traffic", Unit: "time_s,rps rows", Kind: Table, Owner: Owner{Kind: ByModel},
		Help: "a FILE of a rate over time, time and rate a row with a header (a dashboard's CSV export), replayed in place of the normal and sale rates"},
	{Key: "arrivals_scale", Group: GroupTraffic, Label: "Traffic times", Unit: "0 = 1", Kind: Real, Min: 0.01, Max: 100, Zero: "1", Owner: Owner{Kind: ByTrigger, Switch: "arrivals"},
		Help: "multiply every rate of --arrivals by this (1.5: half again as big)"},
	{Key: "arrivals_shift_s", Group: GroupTraffic, Label: "Traffic starts at", Unit: "s", Kind: Real, Min: -maxDuration, Max: maxDuration, Owner: Owner{Kind: ByTrigger, Switch: "arrivals"},
		Help: "play --arrivals' first row at this time of the run, s (negative: start this far into it)"},
	{Key: "sale_threshold_rps", Group: GroupTraffic, Label: "Sale: rate above", Unit: "per s, 0 = start and length", Kind: Real, Min: 0, Max: maxRPS, Zero: "none", Owner: Owner{Kind: ByTrigger, Switch: "arrivals"},
		Help: "with --arrivals, the sale is the first span where the table's rate, before --arrivals-scale, is above this, in place of --sale-start-s and --sale-s (0: they set it)"},
	{Key: "duration_s", Group: GroupTraffic, Label: "Run length", Unit: "s", Kind: Real, Min: 10, Max: maxDuration, Owner: Owner{Kind: ByModel},
		Help: "length of the run, s"},
	{Key: "timeout_ms", Group: GroupClients, Label: "Client timeout", Unit: "ms", Kind: Real, Min: 0, Max: maxMS, MinOpen: true, Owner: Owner{Kind: ByModel}, validatedHere: true,
		Help: "each attempt's client gives up after this, ms"},
	{Key: "patience", Group: GroupShape, Label: "People give up", Kind: Choice, Owner: Owner{Kind: ByModel}, choices: &patienceKeys,
		Help: "how people give up before the timeout: none (the post's) or exponential (with --patience-ms)"},
	{Key: "patience_ms", Group: GroupShape, Label: "Mean patience", Unit: "ms, 0 with none", Kind: Real, Min: 0, Max: maxMS, MinOpen: true, Zero: "none", Owner: Owner{Kind: ByShape, Switch: "patience"},
		Help: "exponential patience: the mean time a person waits before giving up, ms"},
	{Key: "retries", Group: GroupClients, Label: "Retries", Unit: "per person", Kind: Whole, Min: 0, Max: maxRetries, Owner: Owner{Kind: ByModel}, validatedHere: true,
		Help: "retries after a timeout or a refusal"},
	{Key: "retry_delay_ms", Group: GroupClients, Label: "Retry delay", Unit: "ms", Kind: Real, Min: 0, Max: maxMS, Owner: Owner{Kind: ByRetries}, validatedHere: true,
		Help: "delay before each retry, ms"},
	{Key: "retry_jitter_ms", Group: GroupAdvanced, Label: "Retry jitter", Unit: "ms", Kind: Real, Min: 0, Max: maxMS, Owner: Owner{Kind: ByRetries}, validatedHere: true,
		Help: "uniform random extra delay per retry, up to this, ms"},
	{Key: "queue", Group: GroupQueue, Label: "Queue size", Unit: "0 = automatic", Kind: Whole, Min: 0, Max: maxQueue, Owner: Owner{Kind: ByPolicy}, validatedHere: true,
		Help: "queue bound (0: a quarter of the timeout's worth of work)"},
	{Key: "refusal_cost_ms", Group: GroupQueue, Label: "Refusal cost", Unit: "ms", Kind: Real, Min: 0, Max: maxMS, Owner: Owner{Kind: ByPolicy}, validatedHere: true,
		Help: "worker time a refusal takes, ms"},
	{Key: "order_share", Group: GroupQueue, Label: "Order share", Unit: "0 to 1", Kind: Real, Min: 0, Max: 1, Owner: Owner{Kind: ByOrders}, validatedHere: true,
		Help: "share of people placing an order"},
	{Key: "codel_target_ms", Group: GroupAdvanced, Label: "Queue timeout target (M)", Unit: "ms", Kind: Real, Min: 0, Max: maxMS, Owner: Owner{Kind: ByPolicy}, validatedHere: true,
		Help: "queue timeout's M, ms"},
	{Key: "codel_interval_ms", Group: GroupAdvanced, Label: "Queue timeout interval (N)", Unit: "ms", Kind: Real, Min: 0, Max: maxMS, MinOpen: true, Owner: Owner{Kind: ByPolicy}, validatedHere: true,
		Help: "queue timeout's N, ms"},
	{Key: "client", Group: GroupClients, Label: "Retry strategy", Kind: Choice, Owner: Owner{Kind: ByModel}, choices: &clientKeys,
		Help: "how clients retry"},
	{Key: "backoff_base_ms", Group: GroupAdvanced, Label: "Backoff base", Unit: "ms", Kind: Real, Min: 0, Max: maxMS, Owner: Owner{Kind: ByClient, Clients: []Client{Backoff}}, validatedHere: true,
		Help: "backoff client: base, ms"},
	{Key: "backoff_cap_ms", Group: GroupAdvanced, Label: "Backoff cap", Unit: "ms", Kind: Real, Min: 0, Max: maxMS, Owner: Owner{Kind: ByClient, Clients: []Client{Backoff}}, validatedHere: true,
		Help: "backoff client: cap, ms"},
	{Key: "budget_tokens", Group: GroupAdvanced, Label: "Budget tokens", Kind: Whole, Min: 0, Max: maxTokens, Owner: Owner{Kind: ByClient, Clients: []Client{Budget}}, validatedHere: true,
		Help: "budget client: token quota"},
	{Key: "budget_refusal_cost", Group: GroupAdvanced, Label: "Budget refusal cost", Kind: Whole, Min: 1, Max: maxTokens, Owner: Owner{Kind: ByClient, Clients: []Client{Budget}}, validatedHere: true,
		Help: "budget client: tokens a retry after a refusal costs"},
	{Key: "budget_timeout_cost", Group: GroupAdvanced, Label: "Budget timeout cost", Kind: Whole, Min: 1, Max: maxTokens, Owner: Owner{Kind: ByClient, Clients: []Client{Budget}}, validatedHere: true,
		Help: "budget client: tokens a retry after a timeout costs"},
	{Key: "budget_refill", Group: GroupAdvanced, Label: "Budget refill", Kind: Whole, Min: 0, Max: maxTokens, Owner: Owner{Kind: ByClient, Clients: []Client{Budget}}, validatedHere: true,
		Help: "budget client: tokens an answer puts back"},
	{Key: "ratio_max", Group: GroupAdvanced, Label: "Ratio max", Kind: Real, Min: 0, Max: 0.9, Owner: Owner{Kind: ByClient, Clients: []Client{Ratio}}, validatedHere: true,
		Help: "ratio client: largest share of retries among requests"},
	{Key: "throttle_k", Group: GroupAdvanced, Label: "Throttle k", Kind: Real, Min: 1, Max: 100, Owner: Owner{Kind: ByClient, Clients: []Client{Throttle}}, validatedHere: true,
		Help: "throttle client: K"},
	{Key: "client_window_s", Group: GroupAdvanced, Label: "Client window", Unit: "s", Kind: Real, Min: 1, Max: 3600, Owner: Owner{Kind: ByClient, Clients: []Client{Ratio, Throttle}}, validatedHere: true,
		Help: "ratio and throttle clients: history kept, s"},
	{Key: "loss_workers", Group: GroupIncidents, Label: "Workers lost", Unit: "0 = none", Kind: Whole, Min: 0, Max: maxWorkers, Owner: Owner{Kind: ByModel},
		Help: "incident: workers lost (0: none), the idle first, then those serving, whose requests are lost"},
	{Key: "loss_start_s", Group: GroupIncidents, Label: "Lost from", Unit: "s", Kind: Real, Min: 0, Max: maxDuration, Owner: Owner{Kind: ByTrigger, Switch: "loss_workers"},
		Help: "incident: when the workers go, s"},
	{Key: "loss_s", Group: GroupIncidents, Label: "Lost for", Unit: "s, 0 = to the end", Kind: Real, Min: 0, Max: maxDuration, Owner: Owner{Kind: ByTrigger, Switch: "loss_workers"},
		Help: "incident: how long they stay gone, s (0: the rest of the run)"},
	{Key: "slow_factor", Group: GroupIncidents, Label: "Service slower by", Unit: "times, 0 = none", Kind: Real, Min: 1, Max: maxSlowFactor, Zero: "none", Owner: Owner{Kind: ByModel},
		Help: "incident: service times multiplied by this, 1 to 100 (0: no slowdown)"},
	{Key: "slow_start_s", Group: GroupIncidents, Label: "Slower from", Unit: "s", Kind: Real, Min: 0, Max: maxDuration, Owner: Owner{Kind: ByTrigger, Switch: "slow_factor"},
		Help: "incident: when the slowdown starts, s"},
	{Key: "slow_s", Group: GroupIncidents, Label: "Slower for", Unit: "s, 0 = to the end", Kind: Real, Min: 0, Max: maxDuration, Owner: Owner{Kind: ByTrigger, Switch: "slow_factor"},
		Help: "incident: how long it lasts, s (0: the rest of the run)"},
	{Key: "heap_requests", Group: GroupIncidents, Label: "Memory holds", Unit: "waiting requests, 0 = latency does not grow", Kind: Whole, Min: 1, Max: maxQueue, Zero: "none", Owner: Owner{Kind: ByModel},
		Help: "latency that grows with load: memory holds this many waiting requests, and with q waiting a service takes H/(H-q) times as long (0: none)"},
	{Key: "seed", Group: GroupRun, Label: "Seed", Kind: Seed, Min: 0, Max: MaxSeed, Owner: Owner{Kind: ByModel},
		Help: "random seed; the same seed gives the same run everywhere"},
	{Key: "limit_queue", Group: GroupAdvanced, Label: "Queue behind the limit", Kind: Choice, Owner: policy, validatedHere: true, choices: &limitQueueKeys,
		Help: "adaptive limits: the service's queue behind the limit, fifo (the post's, which serves the abandoned) or skip (skip the abandoned)"},
	{Key: "bbr_rule", Group: GroupAdvanced, Label: "BBR rule", Kind: Choice, Owner: policy, validatedHere: true, choices: &bbrRuleKeys,
		Help: "BBR limit: whose rule, kratos (go-kratos/aegis's ratelimit/bbr, the default) or gozero (go-zero's adaptive shedder)"},
	{Key: "series_step_s", Group: GroupAdvanced, Label: "Series step", Unit: "s", Kind: Real, Min: 0.001, Max: maxDuration, Zero: "none", Owner: Owner{Kind: BySeries},
		Help: "record the run's time series at this step, s (0: none)"},
	{Key: "hops", Group: GroupService, Label: "Services it calls", Unit: "a hop a line: name: workers= service_ms= timeout_ms= proxy=", Kind: Table, Owner: Owner{Kind: ByModel},
		Help: "the services behind this one, each called by the one before through a proxy that retries (rule 40): a hop a line, \"payments: workers=4 service_ms=50 timeout_ms=1000 proxy=envoy\", or ; between hops"},
}

// Settings returns every setting, in the order of Config's fields: the
// table above, and the settings each policy declares of its own
// (policySpec.declares).
func Settings() []Setting {
	settingsOnce.Do(indexSettings)
	return append([]Setting(nil), settings...)
}

// SettingByKey returns the setting whose JSON key is key.
func SettingByKey(key string) (Setting, bool) {
	settingsOnce.Do(indexSettings)
	for _, s := range settings {
		if s.Key == key {
			return s, true
		}
	}
	return Setting{}, false
}

var settingsOnce sync.Once

// indexSettings adds the policies' own settings to the table, finds each
// setting's field in Config (a policy's settings are the fields of a
// struct Config embeds), and puts the table in the Config's order.
// TestSettings holds the table to Config: a field with no setting, or a
// setting with no field, fails it.
func indexSettings() {
	all := settings
	for _, p := range Policies {
		all = append(all, p.spec().declares...)
	}
	for _, f := range configFields() {
		k, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		for i := range all {
			if all[i].Key == k {
				all[i].field = f.Index
			}
		}
	}
	// In the Config's order; a setting with no field (TestSettings names
	// it) last.
	settings = make([]Setting, 0, len(all))
	for _, f := range configFields() {
		for _, s := range all {
			if slices.Equal(s.field, f.Index) {
				settings = append(settings, s)
			}
		}
	}
	for _, s := range all {
		if s.field == nil {
			settings = append(settings, s)
		}
	}
}

// configFields are Config's fields with a JSON key, in order, the fields
// of the structs it embeds in their place.
func configFields() []reflect.StructField {
	var out []reflect.StructField
	t := reflect.TypeFor[Config]()
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous { // a policy's settings (policySpec.declares)
			for j := range f.Type.NumField() {
				g := f.Type.Field(j)
				g.Index = []int{i, j}
				out = append(out, g)
			}
			continue
		}
		if k, _, _ := strings.Cut(f.Tag.Get("json"), ","); k != "" && k != "-" {
			out = append(out, f)
		}
	}
	return out
}

// Of returns the setting's field in *c, to read or to set; the zero Value
// for a setting Config does not have.
func (s Setting) Of(c *Config) reflect.Value {
	settingsOnce.Do(indexSettings)
	if s.field == nil {
		return reflect.Value{}
	}
	return reflect.ValueOf(c).Elem().FieldByIndex(s.field)
}

// Type returns the Go type of the setting's field.
func (s Setting) Type() reflect.Type {
	var c Config
	if v := s.Of(&c); v.IsValid() {
		return v.Type()
	}
	return nil
}

// rangeUnit is the unit Validate's messages give after a range: " ms",
// " s", " per second", or the queue's note on 0.
func (s Setting) rangeUnit() string {
	switch {
	case s.Key == "queue":
		return " (0 sets it for you)"
	case strings.HasSuffix(s.Key, "_rps"):
		return " per second"
	case strings.HasSuffix(s.Key, "_ms"):
		return " ms"
	case strings.HasSuffix(s.Key, "_s"):
		return " s"
	}
	return ""
}

// nsPer is the nanoseconds in one of field's unit: 1e6 for a key in _ms,
// 1e9 for one in _s, and 0 for a field that is not a time the engine
// rounds to whole nanoseconds (rule 1). Patience is the mean of a
// distribution, whose draws are rounded, not the mean.
func nsPer(field string) float64 {
	switch {
	case field == "patience_ms":
		return 0
	case strings.HasSuffix(field, "_ms"):
		return 1e6
	case strings.HasSuffix(field, "_s"):
		return 1e9
	}
	return 0
}

// Time reports whether the setting is a time (its key ends in _ms or _s).
func (s Setting) Time() bool {
	return strings.HasSuffix(s.Key, "_ms") || strings.HasSuffix(s.Key, "_s")
}
