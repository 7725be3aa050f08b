package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRunNeedsBuiltSite(t *testing.T) {
	var stdout, stderr bytes.Buffer
	err := run([]string{"-dir", t.TempDir()}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "make site") {
		t.Errorf("run on a directory without sim.wasm = %v, want an error that says to run make site", err)
	}
}
