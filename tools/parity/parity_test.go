package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestParity builds this program natively, for js/wasm and for linux/arm64,
// runs the js/wasm build under Node and the arm64 build under qemu-aarch64
// (or natively on an arm64 machine), and requires every output to equal the
// native one byte for byte (DESIGN.md, "Determinism"). Node covers the
// page's platform without a browser: the browsers run the same wasm. arm64
// covers fused multiply-adds, which the compiler emits there for a*b + c and
// nowhere else we build for.
//
// A missing node or qemu-aarch64 fails the test with the command that
// installs it; it never skips.
func TestParity(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("the parity test builds and runs programs: run it natively")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	goTool := lookTool(t, "go", "install Go from https://go.dev/dl/ and put its bin directory on PATH")
	dir := t.TempDir()

	native := filepath.Join(dir, "parity-native")
	build(ctx, t, goTool, native)
	want := runLeg(ctx, t, "native", exec.CommandContext(ctx, native))
	if n := bytes.Count(want, []byte("\n")); n < len(cases()) {
		t.Fatalf("native: printed %d lines, want %d", n, len(cases()))
	}

	t.Run("js-wasm-node", func(t *testing.T) {
		node := lookTool(t, "node", "apt-get install -y nodejs")
		goroot := goEnv(ctx, t, goTool, "GOROOT")
		wasm := filepath.Join(dir, "parity.wasm")
		build(ctx, t, goTool, wasm, "GOOS=js", "GOARCH=wasm")
		// What $GOROOT/lib/wasm/go_js_wasm_exec runs, without needing bash.
		cmd := exec.CommandContext(ctx, node, "--stack-size=8192",
			filepath.Join(goroot, "lib", "wasm", "wasm_exec_node.js"), wasm)
		// wasm_exec.js copies the environment into 8 KB of the module's
		// memory and fails when it does not fit; the program needs none.
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		compare(t, "js/wasm under Node", want, runLeg(ctx, t, "js/wasm", cmd))
	})

	t.Run("linux-arm64", func(t *testing.T) {
		arm64 := filepath.Join(dir, "parity-arm64")
		var cmd *exec.Cmd
		switch {
		case runtime.GOARCH == "arm64":
			// The native leg already is arm64; run it again for the record.
			build(ctx, t, goTool, arm64)
			cmd = exec.CommandContext(ctx, arm64)
		case runtime.GOOS == "linux":
			qemu := lookTool(t, "qemu-aarch64", "apt-get install -y qemu-user")
			build(ctx, t, goTool, arm64, "GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0")
			cmd = exec.CommandContext(ctx, qemu, arm64)
		default:
			t.Skipf("qemu-user runs linux/arm64 programs on Linux only; this is %s/%s", runtime.GOOS, runtime.GOARCH)
		}
		compare(t, "linux/arm64", want, runLeg(ctx, t, "linux/arm64", cmd))
	})
}

// lookTool returns the path of the named command or fails the test with how
// to install it.
func lookTool(t *testing.T, name, install string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s not found on PATH: %s", name, install)
	}
	return p
}

func goEnv(ctx context.Context, t *testing.T, goTool, key string) string {
	t.Helper()
	out, err := exec.CommandContext(ctx, goTool, "env", key).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", key, err)
	}
	return strings.TrimSpace(string(out))
}

// build builds this package into out, with env added to the test's own.
func build(ctx context.Context, t *testing.T, goTool, out string, env ...string) {
	t.Helper()
	start := time.Now()
	// No VCS stamp: it would change nothing here, and git refuses to
	// answer in a clone owned by another user, as CI's can be.
	cmd := exec.CommandContext(ctx, goTool, "build", "-buildvcs=false", "-o", out, ".")
	cmd.Env = append(os.Environ(), env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s go build: %v\n%s", strings.Join(env, " "), err, b)
	}
	t.Logf("built %s %s in %v", filepath.Base(out), strings.Join(env, " "), time.Since(start).Round(time.Millisecond))
}

// runLeg runs cmd and returns its standard output.
func runLeg(ctx context.Context, t *testing.T, leg string, cmd *exec.Cmd) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		t.Fatalf("%s: %s: %v\n%s", leg, strings.Join(cmd.Args, " "), err, stderr.Bytes())
	}
	t.Logf("%s: %d bytes in %v", leg, stdout.Len(), time.Since(start).Round(time.Millisecond))
	return stdout.Bytes()
}

// compare fails the test unless got equals want.
func compare(t *testing.T, leg string, want, got []byte) {
	t.Helper()
	if d := difference(leg, want, got); d != "" {
		t.Error(d)
	}
}

// difference describes how got differs from want, "" if it does not: how
// many lines differ, and the first by its label and the bytes around its
// first difference.
func difference(leg string, want, got []byte) string {
	if bytes.Equal(want, got) {
		return ""
	}
	wantLines, gotLines := lines(want), lines(got)
	differing := 0
	first := -1
	for i := range max(len(wantLines), len(gotLines)) {
		if i >= len(wantLines) || i >= len(gotLines) || !bytes.Equal(wantLines[i], gotLines[i]) {
			differing++
			if first < 0 {
				first = i
			}
		}
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "%s differs from native on %d of %d lines (native printed %d bytes, %s %d)\n",
		leg, differing, len(wantLines), len(want), leg, len(got))
	switch {
	case first >= len(gotLines):
		fmt.Fprintf(&msg, "%s stopped before line %d, %s", leg, first+1, label(wantLines[first]))
	case first >= len(wantLines):
		fmt.Fprintf(&msg, "%s printed an extra line %d, %s", leg, first+1, label(gotLines[first]))
	default:
		w, g := wantLines[first], gotLines[first]
		at := 0
		for at < len(w) && at < len(g) && w[at] == g[at] {
			at++
		}
		fmt.Fprintf(&msg, "first difference: line %d, %s, at byte %d:\n  native: %s\n  %s: %s",
			first+1, label(w), at, excerpt(w, at), leg, excerpt(g, at))
	}
	return msg.String()
}

// lines splits b after each newline; a last line without one counts.
func lines(b []byte) [][]byte {
	l := bytes.SplitAfter(b, []byte("\n"))
	if len(l[len(l)-1]) == 0 {
		l = l[:len(l)-1]
	}
	return l
}

// label returns the label a line starts with.
func label(line []byte) string {
	l, _, _ := bytes.Cut(bytes.TrimSuffix(line, []byte("\n")), []byte(" "))
	return string(l)
}

// excerpt returns the bytes of line around offset at.
func excerpt(line []byte, at int) string {
	const span = 100
	lo, hi := max(0, at-span), min(len(line), at+span)
	s := strings.TrimSuffix(string(line[lo:hi]), "\n")
	if lo > 0 {
		s = "..." + s
	}
	if hi < len(line) {
		s += "..."
	}
	return s
}

// TestDifference pins how a parity failure reads.
func TestDifference(t *testing.T) {
	native := []byte("a/1 {\"x\":1}\nb/2 {\"x\":2.5,\"y\":3}\nc/3 {}\n")
	tests := []struct {
		reason string
		got    string
		want   string // "" for no difference
	}{
		{"equal output is no difference", string(native), ""},
		{
			"a changed last bit is reported by label, line and byte",
			"a/1 {\"x\":1}\nb/2 {\"x\":2.4999999999999996,\"y\":3}\nc/3 {}\n",
			"wasm differs from native on 1 of 3 lines (native printed 39 bytes, wasm 54)\n" +
				"first difference: line 2, b/2, at byte 11:\n" +
				"  native: b/2 {\"x\":2.5,\"y\":3}\n" +
				"  wasm: b/2 {\"x\":2.4999999999999996,\"y\":3}",
		},
		{
			"a short output names the first missing line",
			"a/1 {\"x\":1}\n",
			"wasm differs from native on 2 of 3 lines (native printed 39 bytes, wasm 12)\n" +
				"wasm stopped before line 2, b/2",
		},
	}
	for _, tt := range tests {
		if got := difference("wasm", native, []byte(tt.got)); got != tt.want {
			t.Errorf("%s:\n got: %q\nwant: %q", tt.reason, got, tt.want)
		}
	}
}
