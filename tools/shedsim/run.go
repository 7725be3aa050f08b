package main

import (
	"encoding"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shedsim/shedsim/sim"
	"github.com/shedsim/shedsim/sim/plan"
	"github.com/shedsim/shedsim/sim/report"
	"github.com/shedsim/shedsim/sim/sweep"
)

// options are the command's own flags: what to print, and the policy,
// client and sample, which it reads as words. configFlags defines the rest,
// one per Config field; commandFlags and configFlags are the one place that
// lists the flags.
type options struct {
	policy, client, sample       string
	timeline, clients, json, lab bool
	series, csv                  bool
	seeds                        int
}

// commandFlags defines the command's own flags on fs.
func commandFlags(fs *flag.FlagSet, o *options) {
	fs.StringVar(&o.policy, "policy", "", "one run of this policy: "+orList(sim.PolicyKeys()))
	fs.StringVar(&o.client, "client", "", "how clients retry: fixed (the post's), backoff, budget, ratio, retry-after or throttle")
	fs.BoolVar(&o.timeline, "timeline", false, "answered per 10 s, every policy")
	fs.BoolVar(&o.clients, "clients", false, "every client strategy side by side, for --policy (default fifo)")
	fs.BoolVar(&o.json, "json", false, "print the Result (or every policy's Results) as JSON")
	fs.BoolVar(&o.lab, "lab", false, "print the lab's "+strconv.Itoa(len(sim.Lab()))+" runs as JSON")
	wholeVar(fs, &o.seeds, "seeds", 0, "run this many seeds from --seed and summarise mean and spread")
	fs.StringVar(&o.sample, "sample", "", "start from one of the post's situations (--sample list)")
	fs.BoolVar(&o.series, "series", false, "one run over time, a row a step: the queue, the workers, attempts, throughput and goodput (with --json, the Result carrying them)")
	fs.BoolVar(&o.csv, "csv", false, "with --series, print the series as CSV, a row a step")
}

// run is the whole command: it parses args, runs, and writes to stdout
// (and, for a long command, its progress to stderr). Errors a user can
// cause are usageErrors.
func run(args []string, stdout, stderr io.Writer) error {
	if asked, err := runVersion(args, stdout); asked {
		return err
	}
	if len(args) > 0 && args[0] == "plan" {
		return runPlan(args[1:], stdout, stderr)
	}
	if len(args) > 0 && sweeps[args[0]] != nil {
		return sweeps[args[0]](args[1:], stdout, stderr)
	}
	c := sim.DefaultConfig()
	var o options
	fs := flag.NewFlagSet("shedsim", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are one line, from run; usage only for --help
	fs.Usage = func() {}
	commandFlags(fs, &o)
	configFlags(fs, &c)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return usage(fs, stdout)
		}
		return parseError(err, fs, func() error { return validateWith(c, o.seeds) })
	}
	if fs.NArg() > 0 {
		return strayArgument("", args, fs.Args())
	}
	set := givenFlags(fs)
	if set["spike"] && set["sale-rps"] {
		return usageError{"--spike and --sale-rps are the same setting: give one"}
	}
	for _, name := range []string{"policy", "client", "sample"} {
		if set[name] && strings.TrimSpace(fs.Lookup(name).Value.String()) == "" {
			return usageError{"--" + name + ": the value is empty: " + emptyHelp[name]}
		}
	}
	// "list" is read as a sample's key is (sim.SampleByKey).
	listing := strings.ToLower(strings.TrimSpace(o.sample)) == "list"
	if err := checkOutputs(set, listing); err != nil {
		return err
	}
	spell := flagSpelling(set)

	oneRun := set["policy"] || set["sample"] || o.series
	if set["sample"] {
		s, ok := sim.SampleByKey(o.sample)
		if !ok {
			if listing {
				return listSamples(stdout)
			}
			return usageError{fmt.Sprintf("--sample: no sample %s: use one of %s", quoteArg(o.sample), strings.Join(sim.SampleKeys(), ", "))}
		}
		// The sample is the base; flags given explicitly override it: they
		// are read again onto the sample's Config (their values first, as
		// the flags write into c).
		given := map[string]string{}
		fs.Visit(func(f *flag.Flag) { given[f.Name] = f.Value.String() })
		c = s.Config
		over := flag.NewFlagSet("sample", flag.ContinueOnError)
		configFlags(over, &c)
		for name, v := range given {
			if over.Lookup(name) != nil {
				if err := over.Set(name, v); err != nil {
					panic("shedsim: --" + name + " parsed once but not twice: " + err.Error())
				}
			}
		}
	}
	if set["policy"] {
		p, err := sim.ParsePolicy(o.policy)
		if err != nil {
			return usageError{"--policy: " + err.Error()}
		}
		c.Policy = p
	}
	if set["client"] {
		cl, err := sim.ParseClient(o.client)
		if err != nil {
			return usageError{"--client: " + err.Error()}
		}
		c.Client = cl
	}
	if set["service-histogram"] && !set["service"] { // the histogram is the shape (rule 3b)
		c.Service = sim.HistogramService
	}
	if err := c.Validate(); err != nil {
		return usageError{flagErrors(err, spell)}
	}
	if w := c.HistogramWarning(); w != "" {
		fmt.Fprintln(stderr, "shedsim: warning: "+spell("service_histogram", "")+": "+sim.NewFieldError("service_histogram", w).Say(spell))
	}
	c = c.Resolved() // what the tables set (rules 2b, 3b), for what the reports say
	c, err := seriesConfig(c, set, o)
	if err != nil {
		return err
	}
	// What each output runs: a setting given for a run it does not make
	// is refused, naming the setting that would make it count.
	var scope sim.Scope
	switch {
	case o.clients:
		scope = sim.Scope{EveryClient: true}
	case o.json && oneRun:
		scope = sim.Scope{Series: true, Orders: true} // sim.Run's Result: the one run, its series and its orders
	case o.series:
		scope = sim.Scope{Series: true} // the one run's series alone
	case set["seeds"]:
		scope = sim.Scope{EveryPolicy: !oneRun}
	default: // the tables, the timeline and a run's view show every policy
		scope = sim.Scope{EveryPolicy: true}
	}
	if err := c.Unused(configKeysGiven(set), scope); err != nil {
		return usageError{flagErrors(err, spell)}
	}

	switch {
	case o.lab:
		return writeLab(stdout)
	case set["seeds"]:
		if err := validateWith(c, o.seeds); err != nil {
			return usageError{flagErrors(err, spell)}
		}
		return writeSeeds(stdout, stderr, c, o.seeds, oneRun)
	case o.timeline:
		return report.WriteTimelines(stdout, c)
	case o.clients:
		v, err := report.BuildClients(c)
		switch {
		case err != nil:
			return err
		case o.json:
			return writeJSON(stdout, v)
		}
		return report.WriteClients(stdout, v)
	case o.series && o.csv:
		return writeSeriesCSV(stdout, c)
	case o.series && !o.json:
		return writeSeries(stdout, c)
	case oneRun && o.json:
		r, err := sim.Run(c)
		if err != nil {
			return err
		}
		return writeJSON(stdout, r)
	case oneRun:
		v, err := report.Build(c)
		if err != nil {
			return err
		}
		return report.WriteView(stdout, v)
	case o.json:
		rs, err := report.Compare(c)
		if err != nil {
			return err
		}
		return writeJSON(stdout, rs)
	default:
		return report.WritePostTables(stdout, c)
	}
}

// emptyHelp is what to give instead of an empty --policy, --client or
// --sample, which would otherwise read as not given.
var emptyHelp = map[string]string{
	"policy": "give one of " + strings.Join(sim.PolicyKeys(), ", ") + ", or leave out --policy for every policy",
	"client": "give one of " + strings.Join(clientKeys(), ", ") + ", or leave out --client for the post's fixed delay",
	"sample": "give one of " + strings.Join(sim.SampleKeys(), ", ") + ", or list",
}

// orList writes keys as a sentence lists them: "a, b or c".
func orList(keys []string) string {
	if len(keys) < 2 {
		return strings.Join(keys, "")
	}
	return strings.Join(keys[:len(keys)-1], ", ") + " or " + keys[len(keys)-1]
}

func clientKeys() []string {
	var out []string
	for _, c := range sim.Clients {
		out = append(out, c.String())
	}
	return out
}

// givenFlags are the names of the flags given, but a switch given as false
// (--timeline=false), which is the same as not given.
func givenFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		if g, ok := f.Value.(flag.Getter); ok {
			if on, isSwitch := g.Get().(bool); isSwitch && !on {
				return
			}
		}
		set[f.Name] = true
	})
	return set
}

// configKeysGiven are the Config keys of the flags given, sorted: a field's
// flag is its key with dashes, --spike is sale_rps, and --policy and
// --client are the policy and the client.
func configKeysGiven(set map[string]bool) []string {
	fields := flag.NewFlagSet("fields", flag.ContinueOnError)
	var c sim.Config
	configFlags(fields, &c)
	var keys []string
	for name := range set {
		if fields.Lookup(name) == nil && name != "policy" && name != "client" {
			continue
		}
		key := strings.ReplaceAll(name, "-", "_")
		if name == "spike" {
			key = "sale_rps"
		}
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}

// flagSpelling writes a Config key as the command line spells it: its
// flag, --spike for sale_rps if that is how it was given, and with a
// value, "--client budget".
func flagSpelling(set map[string]bool) sim.Spelling {
	return func(key, value string) string {
		name := "--" + strings.ReplaceAll(key, "_", "-")
		if key == "sale_rps" && set["spike"] {
			name = "--spike"
		}
		if value != "" {
			name += " " + value
		}
		return name
	}
}

// maxSeeds is the most seeds --seeds runs.
const maxSeeds = 1000

// validateWith is c.Validate, and the number of seeds --seeds asks for, as
// a field "seeds" of its own.
func validateWith(c sim.Config, seeds int) error {
	err := c.Validate()
	if seeds < 1 || seeds > maxSeeds {
		err = errors.Join(err, &sim.FieldError{Field: "seeds",
			Msg: report.Count(seeds) + " is out of range: use a whole number from 1 to " + report.Count(maxSeeds)})
	}
	return err
}

// outputs are the flags that choose what shedsim prints, apart from --json
// and one run's --policy or --sample.
var outputs = []string{"lab", "seeds", "timeline", "clients", "series"}

// checkOutputs refuses flags that ask for two outputs, or for something an
// output would ignore: each prints one thing, and a flag it would ignore
// is a mistake worth saying so.
func checkOutputs(set map[string]bool, listSamples bool) error {
	var chosen []string
	for _, o := range outputs {
		if set[o] {
			chosen = append(chosen, "--"+o)
		}
	}
	switch {
	case len(chosen) > 1:
		return usageError{chosen[0] + " and " + chosen[1] + " print different things: give one"}
	case set["json"] && (set["seeds"] || set["timeline"]):
		return usageError{"--json: " + chosen[0] + " prints a table; drop --json, or use --policy NAME --json for one run's Result"}
	case set["json"] && listSamples:
		return usageError{"--json: --sample list prints a table of the samples; drop --json"}
	}
	names := make([]string, 0, len(set))
	for name := range set {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		switch {
		case set["lab"] && name != "lab" && name != "json":
			return usageError{"--" + name + ": --lab prints the lab's own " + strconv.Itoa(len(sim.Lab())) + " runs, which no flag changes; drop --" + name}
		case listSamples && name != "sample":
			return usageError{"--" + name + ": --sample list only lists the samples; drop --" + name}
		case set["timeline"] && name == "policy":
			return usageError{"--policy: --timeline shows every policy; drop --policy"}
		case set["clients"] && name == "client":
			return usageError{"--client: --clients compares every client strategy; drop --client"}
		}
	}
	return nil
}

// parseError is the flag package's error as one line that spells flags the
// way --help does ("--sale-rps", not "-sale-rps"). A value that is not a
// number, or not one the flag can hold, is explained as validate explains a
// value out of range, so that the line says what to use instead:
//
//	--workers: "eight" is not a whole number: use a whole number from 1 to 100000
func parseError(err error, fs *flag.FlagSet, validate func() error) usageError {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
		if value, rest, ok := cutQuoted(rest); ok {
			if name, reason, ok := strings.Cut(strings.TrimPrefix(rest, " for flag -"), ": "); ok {
				if f := fs.Lookup(name); f != nil {
					use := allowed(f, validate)
					if use == "" {
						use = ownRanges[name]
					}
					if use != "" {
						what := "is not a number"
						if g, ok := f.Value.(flag.Getter); ok {
							switch g.Get().(type) {
							case int, uint64:
								what = "is not a whole number"
							}
						}
						switch {
						case strings.HasSuffix(msg, "value out of range"):
							what = "is out of range"
						case strings.HasPrefix(strings.TrimSpace(value), "-") && what == "is not a whole number":
							what = "is too small" // a negative seed
						}
						return usageError{"--" + name + ": " + quoteArg(value) + " " + what + ": " + use}
					}
					// A value the flag itself refuses in words (--service
					// nope): its own words, which quote the value once.
					if !strings.Contains(reason, "parse error") {
						return usageError{"--" + name + ": " + cutQuotes(reason)}
					}
					return usageError{"--" + name + ": " + quoteArg(value) + " cannot be read (see --help)"}
				}
			}
		}
	}
	if arg, ok := strings.CutPrefix(msg, "bad flag syntax: "); ok {
		if utf8.RuneCountInString(arg) > quoteChars {
			arg = quoteArg(arg)
		}
		return usageError{"bad flag syntax: " + arg + ": a flag is --name or --name=value (see --help)"}
	}
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		flagName := "--" + name
		if utf8.RuneCountInString(name) > quoteChars {
			flagName = quoteArg(flagName)
		}
		return usageError{"flag provided but not defined: " + flagName + didYouMean(name, fs) + " (see --help)"}
	}
	// The flag package names a flag with one dash; --help and the README
	// write two.
	return usageError{oneDash.ReplaceAllString(msg, "$1--$2") + " (see --help)"}
}

// ownRanges are what to use instead for the subcommands' own whole-number
// flags, which no Config field's validation describes (allowed finds
// those): a value that is not a whole number gets the range, as one out of
// it does.
var ownRanges = map[string]string{
	"seeds":   "use a whole number from 1 to " + report.Count(sweep.MaxSeeds),
	"steps":   "use a whole number from 1 to " + report.Count(sweep.MaxSteps),
	"x-steps": "use a whole number from 1 to " + report.Count(sweep.MaxSteps),
	"y-steps": "use a whole number from 1 to " + report.Count(sweep.MaxSteps),
}

// cutQuoted reads a Go-quoted string at the start of s, as the flag
// package writes a value (%q): the value and what follows it.
func cutQuoted(s string) (value, rest string, ok bool) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", s, false
	}
	value, err = strconv.Unquote(q)
	return value, s[len(q):], err == nil
}

// cutQuotes is msg with each quoted value in it cut as quoteArg cuts one.
func cutQuotes(msg string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(msg, '"')
		if i < 0 {
			return b.String() + msg
		}
		value, rest, ok := cutQuoted(msg[i:])
		if !ok {
			return b.String() + msg
		}
		b.WriteString(msg[:i] + quoteArg(value))
		msg = rest
	}
}

// quoteChars is how much of a value a message quotes.
const quoteChars = 40

// quoteArg quotes a value for a message: whole if short, else its first
// quoteChars characters and its length, as the JS API quotes one, so that
// a 100 KB value gets a one-line answer.
func quoteArg(s string) string {
	n := utf8.RuneCountInString(s)
	if n <= quoteChars {
		return strconv.Quote(s)
	}
	r := []rune(s)
	return strconv.Quote(string(r[:quoteChars])) + "… (" + report.Count(n) + " characters)"
}

// didYouMean is ", did you mean --sale-rps?" for a flag not defined whose
// spelling with dashes for underscores, or in lower case, is one; else "".
func didYouMean(name string, fs *flag.FlagSet) string {
	if len(name) > 100 {
		return ""
	}
	try := strings.ToLower(strings.ReplaceAll(strings.TrimLeft(name, "-"), "_", "-"))
	if eq := strings.IndexByte(try, '='); eq >= 0 {
		try = try[:eq]
	}
	if try != name && fs.Lookup(try) != nil {
		return ": did you mean --" + try + "?"
	}
	return ""
}

// strayArgument is the error for arguments left after the flags: args is
// what was given, rest what the flag package did not read. A word is a
// flag's value given without its flag; a flag after "--", which ends the
// flags, is one the flag package never read.
func strayArgument(cmd string, args, rest []string) usageError {
	prefix := ""
	if cmd != "" {
		prefix = cmd + ": "
	}
	first := rest[0]
	if i := len(args) - len(rest) - 1; i >= 0 && args[i] == "--" {
		return usageError{prefix + "unexpected argument " + quoteArg(first) + " after --, which ends the flags: drop the --"}
	}
	example := "--policy fifo"
	if cmd == "plan" {
		example = "--rate-rps 150"
	}
	return usageError{prefix + "unexpected argument " + quoteArg(first) + ": flags start with --, such as " + example + " (see --help)"}
}

// oneDash is a flag as the flag package's messages write it: " -name".
var oneDash = regexp.MustCompile(`(^|\s)-([A-Za-z])`)

// allowed is what validate says to use for flag f's field ("use a whole
// number from 1 to 100000"), found by setting the flag to a value no field
// allows and putting it back; "" if validate says nothing of it.
func allowed(f *flag.Flag, validate func() error) string {
	p, ok := f.Value.(interface{ probe() func() })
	if !ok {
		return ""
	}
	undo := p.probe()
	err := validate()
	undo()
	key := strings.ReplaceAll(f.Name, "-", "_")
	if f.Name == "spike" {
		key = "sale_rps"
	}
	for _, fe := range sim.FieldErrors(err) {
		if fe.Field == key {
			if _, use, ok := strings.Cut(fe.Msg, ": "); ok {
				return use
			}
		}
	}
	return ""
}

// usage is --help: the command's forms, then every flag with two dashes,
// as the README and the error messages write them.
func usage(fs *flag.FlagSet, w io.Writer) error {
	in := plan.DefaultInput()
	var b strings.Builder
	b.WriteString(`Usage:
  shedsim                                        the post's tables
  shedsim --timeline                             answered per 10 s, every policy
  shedsim --policy fifo --retries 1 --spike 150  one run, your numbers
  shedsim --sample NAME                          one of the post's situations (--sample list)
  shedsim --seeds 20                             every policy over 20 seeds, mean and spread
  shedsim --clients --retries 3                  every client strategy side by side
  shedsim --lab                                  the lab's 162 runs as JSON
  shedsim plan ` + planForm(in) + `
  shedsim sweep --knob sale-rps --from 100 --to 250   a knob over a range, every policy, at common seeds
  shedsim map --x sale-rps ... --y retries ...       two knobs for one policy: seeds back, answered
  shedsim seek --smallest workers --from 1 --to 40 --answered 0.9   the setting that meets a goal
  (shedsim sweep --help, map --help and seek --help list their flags)
  shedsim --version                              this build's version, commit and Go; the model's version

Flags (a flag given twice takes its last value):
`)
	writeFlags(&b, fs)
	_, err := io.WriteString(w, b.String())
	return err
}

// planForm is the planner's flags with their defaults, for a usage line.
func planForm(in plan.Input) string {
	g := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	return "[--rate-rps " + g(in.RateRPS) + " --service-ms " + g(in.ServiceMS) + " --target " + g(in.Target) + " --limit-ms " + g(in.LimitMS) + "] [--json]"
}

// writeFlags lists fs's flags as flag.PrintDefaults does, but with two
// dashes: "  --workers int" and, indented below, the usage and the default.
func writeFlags(b *strings.Builder, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		typ, text := flag.UnquoteUsage(f)
		if name := typeName(f.Value); name != "" {
			typ = name
		}
		b.WriteString("  --" + f.Name)
		if typ != "" {
			b.WriteString(" " + typ)
		}
		b.WriteString("\n    \t" + strings.ReplaceAll(text, "\n", "\n    \t"))
		if d := f.DefValue; d != "" && d != "false" && d != "0" { // as PrintDefaults, no zero defaults

			b.WriteString(" (default " + d + ")")
		}
		b.WriteString("\n")
	})
}

// configFlags defines a flag for each setting of c (sim.Settings) but the
// policy and the client (which run reads as words): its JSON key with
// dashes, its help, and for a setting only some policies read, which;
// and --spike for --sale-rps, as the post spells it.
func configFlags(fs *flag.FlagSet, c *sim.Config) {
	for _, s := range sim.Settings() {
		if s.Key == "policy" || s.Key == "client" {
			continue
		}
		name, help := flagName(s.Key), s.Help
		if owners := policiesReading(s.Key); owners != nil {
			help += "; read by " + orList(owners) + " alone"
		}
		if s.Key == "hops" { // tableValue reads either
			help += "; HOPS is the hops themselves, or the name of a FILE that holds them"
		}
		f := s.Of(c).Addr().Interface()
		switch p := f.(type) {
		case *int:
			fs.Var(&wholeValue{p}, name, help)
		case *float64:
			fs.Var(&numberValue{p, s.Share()}, name, help)
		case *uint64:
			fs.Var(&seedValue{p}, name, help)
		case *string:
			fs.Var(&tableValue{p: p, key: s.Key}, name, help)
		case encoding.TextUnmarshaler:
			fs.TextVar(p, name, f.(encoding.TextMarshaler), help)
		default:
			panic("shedsim: sim.Config's " + s.Key + " has a type no flag reads")
		}
		if s.Key == "sale_rps" {
			fs.Var(&numberValue{p: &c.SaleRPS}, "spike", "the same as --sale-rps, as the post spells it")
		}
	}
}

// policiesReading lists the keys of the policies that read key's setting
// of their own, in the order of sim.Policies; nil when every policy does.
func policiesReading(key string) []string {
	var out []string
	for _, p := range sim.Policies {
		if slices.Contains(p.Settings(), key) {
			out = append(out, p.String())
		}
	}
	return out
}

// flagErrors turns a Config's field errors into one line that names each
// flag, and the settings its messages name, as spell writes them.
func flagErrors(err error, spell sim.Spelling) string {
	var parts []string
	for _, fe := range sim.FieldErrors(err) {
		parts = append(parts, spell(fe.Field, "")+": "+fe.Say(spell))
	}
	if len(parts) == 0 {
		return err.Error()
	}
	return strings.Join(parts, "; ")
}

func listSamples(w io.Writer) error {
	t := report.Table{Header: []string{"Sample", "Name", "What it shows"}, TextColumns: 3}
	for _, s := range sim.Samples() {
		t.Rows = append(t.Rows, []string{s.Key, s.Name, s.About})
	}
	_, err := t.WriteTo(w)
	return err
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeLab prints the lab's runs as one JSON array, a Result a line.
func writeLab(w io.Writer) error {
	rs, err := sim.Runs(sim.Lab())
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("[\n")
	for i, r := range rs {
		line, err := json.Marshal(r)
		if err != nil {
			return err
		}
		b.Write(line)
		if i < len(rs)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	_, err = io.WriteString(w, b.String())
	return err
}

// seedBatch is how many seeds seedRuns hands sim.Runs at once: enough to
// keep every core busy, few enough that the Results held at once (each with
// its windows) stay small whatever the run's length.
const seedBatch = 64

// seedRuns yields the Results of c under policy p for n seeds from c.Seed,
// in order, running them in batches of seedBatch on every core.
func seedRuns(c sim.Config, p sim.Policy, n int) iter.Seq2[sim.Result, error] {
	return func(yield func(sim.Result, error) bool) {
		for from := 0; from < n; from += seedBatch {
			cs := make([]sim.Config, min(seedBatch, n-from))
			for i := range cs {
				cs[i] = c
				cs[i].Policy, cs[i].Seed = p, c.Seed+uint64(from+i)
			}
			rs, err := sim.Runs(cs)
			if be := (*sim.BatchError)(nil); errors.As(err, &be) {
				err = be.Err // its index is in the batch, not a seed
			}
			if err != nil {
				yield(sim.Result{}, err)
				return
			}
			for _, r := range rs {
				if !yield(r, nil) {
					return
				}
			}
		}
	}
}

// writeSeeds runs n seeds from c.Seed for every policy (or c's alone) and
// prints each measure's mean and standard deviation between seeds, with
// its progress on stderr if it is long (see commandBudget).
func writeSeeds(w, stderr io.Writer, c sim.Config, n int, onePolicy bool) error {
	if c.Seed+uint64(n)-1 > sim.MaxSeed {
		return usageError{fmt.Sprintf("--seed: %s seeds from %s pass the largest seed, %s: start from seed %s or below, or run fewer seeds",
			report.Count(n), report.Count(int(c.Seed)), report.Count(sim.MaxSeed), report.Count(int(sim.MaxSeed-uint64(n)+1)))}
	}
	policies := sim.Policies
	if onePolicy {
		policies = []sim.Policy{c.Policy}
	}
	what := report.Count(n) + " seeds of every policy"
	if onePolicy {
		what = report.Count(n) + " seeds"
	}
	runs := n * len(policies)
	if err := commandBudget(c, runs, what, "--seeds", "fewer seeds, --policy NAME for one policy,"); err != nil {
		return err
	}
	progress := newProgress(stderr, c, runs)
	fmt.Fprintf(w, "%s\n\n", report.SeedsTitle(c, n))
	summaries := make([]report.SeedSummary, len(policies))
	for i, p := range policies {
		for r, err := range seedRuns(c, p, n) {
			if err != nil {
				return err
			}
			progress.done(1)
			summaries[i].Add(r)
		}
	}
	t := report.SeedsTable(policies, summaries)
	if _, err := t.WriteTo(w); err != nil {
		return err
	}
	if note := report.SeedsNote(c, summaries[0]); note != "" { // who arrived is the same under every policy
		_, err := fmt.Fprintf(w, "\n%s\n", note)
		return err
	}
	return nil
}

// MaxCommandAttempts is the budget of one command, over all its runs, as
// sim.MaxAttempts is the budget of one run: the most attempts it may be
// expected to send (sim.Config.ExpectedAttempts summed over its runs). At
// the engine's 14 million attempts a second on one core (README, "Speed
// and size") it is about 20 s of work, 10 s on two cores. --seeds holds
// to it, and so must any command that makes many runs (a sweep): call
// commandBudget before running anything.
const MaxCommandAttempts = 300_000_000

// progressAttempts is the work above which a command shows its progress
// on stderr: about a second on one core. A variable, so that a test can
// see the progress of a short command.
var progressAttempts = 15_000_000.0

// commandBudget refuses runs runs of c (what, in words, "1,000 seeds of
// every policy") if they would send more than MaxCommandAttempts, naming
// flag and what to lower ("fewer seeds,"): a usageError, so exit status 2.
func commandBudget(c sim.Config, runs int, what, flag, lower string) error {
	total := c.ExpectedAttempts() * float64(runs)
	if total <= MaxCommandAttempts {
		return nil
	}
	return usageError{flag + ": " + what + " would simulate about " + report.Count(int(min(total, 1e18))) +
		" attempts, over the budget of " + report.Count(MaxCommandAttempts) + " a command (about 20 s of work): ask for " +
		lower + " or lower the traffic, --duration-s or --retries"}
}

// progress writes how far a long command has got to stderr, a line at most
// every second: "shedsim: 1,200 of 6,000 runs (20%), 4 s so far".
type progress struct {
	w           io.Writer
	runs, count int
	start, last time.Time
	on          bool
}

// newProgress is the progress of runs runs of c, shown only if they are
// expected to send more than progressAttempts.
func newProgress(w io.Writer, c sim.Config, runs int) *progress {
	now := time.Now()
	return &progress{w: w, runs: runs, start: now, last: now,
		on: c.ExpectedAttempts()*float64(runs) > progressAttempts}
}

// done counts n more runs done, and writes a line if a second has passed
// since the last (or this is the first and last run).
func (p *progress) done(n int) {
	p.count += n
	if !p.on {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < time.Second && p.count < p.runs && p.count > n {
		return
	}
	p.last = now
	fmt.Fprintf(p.w, "shedsim: %s of %s runs (%d%%), %s so far\n", report.Count(p.count), report.Count(p.runs),
		p.count*100/p.runs, report.Seconds(now.Sub(p.start).Seconds()))
}

// runPlan is "shedsim plan": Erlang C's fewest workers for a target.
func runPlan(args []string, stdout, stderr io.Writer) error {
	in := plan.DefaultInput()
	fs := flag.NewFlagSet("shedsim plan", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	numberVar(fs, &in.RateRPS, "rate-rps", in.RateRPS, "arrival rate, per second")
	numberVar(fs, &in.ServiceMS, "service-ms", in.ServiceMS, "mean service time, ms")
	shareVar(fs, &in.Target, "target", in.Target, "largest acceptable share of requests that wait (0.05 = 5%)")
	numberVar(fs, &in.LimitMS, "limit-ms", in.LimitMS, "0: share that wait at all; above 0: share that wait longer than this, ms")
	numberVar(fs, &in.PatienceMS, "patience-ms", in.PatienceMS, "mean time people wait before giving up, ms: Erlang A (M/M/c+M) beside Erlang C (0: nobody gives up)")
	shareVar(fs, &in.AbandonTarget, "abandon-target", in.AbandonTarget, "with --patience-ms: size Erlang A for at most this share giving up (0.02 = 2%) instead of --target")
	asJSON := fs.Bool("json", false, "print the plan as JSON")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			var b strings.Builder
			b.WriteString("Usage: shedsim plan " + planForm(plan.DefaultInput()) + "\n\nFlags (a flag given twice takes its last value):\n")
			writeFlags(&b, fs)
			_, err := io.WriteString(stdout, b.String())
			return err
		}
		ue := parseError(err, fs, func() error { _, err := plan.Compute(in); return err })
		return usageError{"plan: " + ue.msg}
	}
	if fs.NArg() > 0 {
		return strayArgument("plan", args, fs.Args())
	}
	p, err := plan.Compute(in)
	if err != nil {
		return usageError{"plan: " + flagErrors(err, flagSpelling(nil))}
	}
	if *asJSON {
		return writeJSON(stdout, p)
	}
	return writePlan(stdout, p)
}

func writePlan(w io.Writer, p plan.Plan) error {
	in := p.Input
	what := "wait at all"
	if in.LimitMS > 0 {
		what = "wait longer than " + report.Duration(in.LimitMS)
	}
	// Shares with fixed decimals, so that a column reads down: 42.80% over
	// 23.27%, not 42.8%; a wait too short to round to 0.1 ms says so.
	share := func(r plan.Row) string { return strconv.FormatFloat(r.Wait*100, 'f', 2, 64) + "%" }
	util := func(r plan.Row) string { return strconv.FormatFloat(r.Utilisation*100, 'f', 1, 64) + "%" }
	wait := func(ms float64) string {
		if ms > 0 && ms < 0.05 {
			return "under 0.1 ms"
		}
		return report.Duration(ms)
	}
	fmt.Fprintf(w, "Erlang C (M/M/c): %s/s at %s is %s Erlangs of work.\n", report.Number(in.RateRPS, 2), report.Duration(in.ServiceMS), report.Number(p.OfferedLoad, 2))
	fmt.Fprintf(w, "The fewest servers for at most %s of requests to %s: %s.\n", report.Number(in.Target*100, 2)+"%", what, report.Count(p.Servers))
	if p.OneFewer != nil {
		fmt.Fprintf(w, "With %s, %s %s; with %s, %s.\n\n", report.Count(p.OneFewer.Servers), share(*p.OneFewer), what, report.Count(p.Servers), share(p.Answer))
	}
	t := report.Table{Header: []string{"Servers", "Utilisation", "Share that " + what, "Mean queue wait", "p99 queue wait", ""}}
	for _, r := range p.Nearby {
		mark := ""
		if r.Servers == p.Servers {
			mark = "<- the answer"
		}
		if !r.Stable {
			t.Rows = append(t.Rows, []string{report.Count(r.Servers), util(r), "100%", "grows without bound", "-", mark})
			continue
		}
		t.Rows = append(t.Rows, []string{report.Count(r.Servers), util(r), share(r), wait(r.MeanWaitMS), wait(r.P99QueueWaitMS), mark})
	}
	if _, err := t.WriteTo(w); err != nil {
		return err
	}
	if p.ErlangA != nil {
		return writePlanA(w, p)
	}
	_, err := fmt.Fprintln(w, "\nIt assumes Poisson arrivals, exponential service, sustained traffic and nobody giving up.")
	return err
}

// writePlanA writes Erlang A's answer under Erlang C's: the fewest servers
// when people give up, and its nearby counts, over capacity too.
func writePlanA(w io.Writer, p plan.Plan) error {
	in, pa := p.Input, p.ErlangA
	pct := func(x float64) string { return strconv.FormatFloat(x*100, 'f', 2, 64) + "%" }
	what, target := "wait at all", in.Target
	if in.LimitMS > 0 {
		what = "still wait after " + report.Duration(in.LimitMS)
	}
	sized := func(r plan.RowA) float64 { return r.WaitOver }
	if in.AbandonTarget > 0 {
		what, target = "give up", in.AbandonTarget
		sized = func(r plan.RowA) float64 { return r.Abandon }
	}
	fmt.Fprintf(w, "\nErlang A (M/M/c+M): people give up after a mean of %s in the queue.\n", report.Duration(in.PatienceMS))
	fmt.Fprintf(w, "The fewest servers for at most %s to %s: %s (Erlang C, where nobody gives up: %s).\n",
		report.Number(target*100, 2)+"%", what, report.Count(pa.Servers), report.Count(p.Servers))
	if pa.OneFewer != nil {
		fmt.Fprintf(w, "With %s, %s %s; with %s, %s.\n", report.Count(pa.OneFewer.Servers), pct(sized(*pa.OneFewer)), what, report.Count(pa.Servers), pct(sized(pa.Answer)))
	}
	fmt.Fprintln(w)
	header := []string{"Servers", "Utilisation", "Wait at all", "Give up", ""}
	if in.LimitMS > 0 {
		header = []string{"Servers", "Utilisation", "Wait at all", "Still waiting after " + report.Duration(in.LimitMS), "Give up", ""}
	}
	t := report.Table{Header: header}
	for _, r := range pa.Nearby {
		mark := ""
		if r.Servers == pa.Servers {
			mark = "<- the answer"
		}
		util := strconv.FormatFloat(r.Utilisation*100, 'f', 1, 64) + "%"
		row := []string{report.Count(r.Servers), util, pct(r.Wait)}
		if in.LimitMS > 0 {
			row = append(row, pct(r.WaitOver))
		}
		t.Rows = append(t.Rows, append(row, pct(r.Abandon), mark))
	}
	if _, err := t.WriteTo(w); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\nIt assumes Poisson arrivals, exponential service and patience, and sustained traffic. Over capacity (utilisation above 100%),\nthose who give up keep the queue finite; Erlang C has no answer there.")
	return err
}
