package sim

import (
	"errors"
	"strconv"
	"strings"
)

// keys is a closed set of values numbered 0, 1, 2, ... (the Policy and the
// Client types): each value's key, used in JSON, URLs and flags, its title
// for people, and, for some, a word or two for a chart's direct labels.
type keys struct {
	typ    string   // the Go type, for an invalid value: "Policy(42)"
	noun   string   // for messages: "unknown policy"
	names  []string // the keys, by value
	titles []string // the titles, by value
	shorts []string // the short labels, by value; nil where a type has none
}

func (k keys) valid(i int) bool { return i >= 0 && i < len(k.names) }

// name returns value i's key, or "Type(i)" for a value outside the set.
func (k keys) name(i int) string {
	if !k.valid(i) {
		return k.typ + "(" + strconv.Itoa(i) + ")"
	}
	return k.names[i]
}

// title returns value i's title, or its name outside the set.
func (k keys) title(i int) string {
	if !k.valid(i) {
		return k.name(i)
	}
	return k.titles[i]
}

// short returns value i's short label, or its name outside the set or
// where the type has none.
func (k keys) short(i int) string {
	if !k.valid(i) || k.shorts == nil {
		return k.name(i)
	}
	return k.shorts[i]
}

// list is the keys for a message: "fifo, skip, bounded, ...".
func (k keys) list() string { return strings.Join(k.names, ", ") }

// unknown is Validate's message for a value i outside the set, "" for one
// in it: "7 is not a policy: use one of fifo, skip, ...".
func (k keys) unknown(i int) string {
	if k.valid(i) {
		return ""
	}
	return strconv.Itoa(i) + " is not a " + k.noun + ": use one of " + k.list()
}

// parse returns the value whose key is s, ignoring case and spaces.
func (k keys) parse(s string) (int, error) {
	want := strings.ToLower(strings.TrimSpace(s))
	for i, n := range k.names {
		if want == n {
			return i, nil
		}
	}
	return 0, errors.New("unknown " + k.noun + " " + strconv.Quote(s) + ": use one of " + k.list())
}

// marshal encodes value i as its key; a value outside the set is an error.
func (k keys) marshal(i int) ([]byte, error) {
	if !k.valid(i) {
		return nil, errors.New("unknown " + k.noun + " " + strconv.Itoa(i))
	}
	return []byte(k.names[i]), nil
}
