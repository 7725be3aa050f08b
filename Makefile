# shedsim: build the page and run every test.
#
#   make            build the page: site/sim.wasm, site/wasm_exec.js,
#                   site/sim.wasm.js, site/wasm_exec.text.js and
#                   site/precache.js (the same as make site)
#   make test       every check, in order, stopping at the first failure;
#                   what CI runs (.ci/run)
#   make serve      build the page, print the tables and serve the page on
#                   http://127.0.0.1:8080/
#   make npm        the widget's npm package in build/npm (tools/npmpkg),
#                   and npm pack's tarball of it in build/
#   make release    shedsim for linux, darwin and windows on amd64 and
#                   arm64 in build/release, with SHA256SUMS
#   make bench      the benchmarks
#   make clean      remove what make built
#
# make test's steps can run one by one: make test-fmt, test-vet, test-vet-wasm,
# test-staticcheck, site, test-native, test-node, test-parity, test-arm64,
# test-release, test-browser. A step that needs a program that is missing
# fails and names the command that installs it; no step is skipped.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := site

GO ?= go
GO_ROOT := $(shell $(GO) env GOROOT 2>/dev/null)
WASM_EXEC_DIR := $(GO_ROOT)/lib/wasm

# staticcheck 2026.2.2, the newest release on the module proxy; it supports
# Go 1.26. Pinned so that a new release cannot fail an unchanged tree.
# It is installed into bin/ rather than run with go run, which would build
# it for GOOS=js when checking js/wasm.
STATICCHECK_VERSION := v0.8.2
STATICCHECK_BIN := bin/staticcheck-$(STATICCHECK_VERSION)
STATICCHECK := $(STATICCHECK_BIN)/staticcheck

# No inlining in the packages the page uses only to format and draw: each
# small function inlined at dozens of call sites is code the reader
# downloads (about 27 KB gzipped). The engine (sim) and the
# runtime keep theirs, so the simulation runs as fast as before.
# encoding/json, which reads the input and writes the answers, and the
# fmt it brings for its errors are the same (40 KB raw). strings,
# which the engine uses only to read its settings' names: 10.6 KB raw,
# 4.7 KB gzipped. sim/sweep, which checks and words the page's sweeps
# and maps (in the workers, a few additions a run): 7 KB raw. (Without
# inlining, most other packages grow: a call in WebAssembly costs more
# than the small body it replaces.)
WASM_GCFLAGS := $(foreach p,github.com/shedsim/shedsim/wasm github.com/shedsim/shedsim/wasm/adapter github.com/shedsim/shedsim/wasm/markup github.com/shedsim/shedsim/sim/report github.com/shedsim/shedsim/sim/sweep strconv reflect encoding/json fmt strings,-gcflags=$(p)=-l)

# The tests the arm64 step runs under qemu: the golden tests, whose pinned
# bits a fused multiply-add would change, and every test of the portable
# math (TestExp..., TestLog...).
ARM64_RUN := Golden|^Test(Exp|Log)

# need,COMMAND,INSTALL fails the recipe unless COMMAND is on PATH.
need = command -v $(1) >/dev/null || { echo "$(1) not found: $(2)" >&2; exit 1; }
NEED_GO = $(call need,$(GO),install Go 1.26 (see README.md) and put its bin directory on PATH)
NEED_NODE = $(call need,node,apt-get install -y nodejs)
NEED_QEMU = $(call need,qemu-aarch64,apt-get install -y qemu-user)
NEED_CHROMIUM = $(call need,chromium,apt-get install -y chromium)
NEED_NPM = $(call need,npm,apt-get install -y npm)

# The version every build of this tree carries (sim/version), as the -X
# flags that stamp it: the commit as Go writes a pseudo-version, or its
# tag (tools/buildversion). Worked out once per make, when a recipe first
# needs it. The page's module and the release binaries are built with
# -buildvcs=false, so both read the stamp and carry the same string.
VERSION_LDFLAGS = $(eval VERSION_LDFLAGS := $$(shell $(GO) run ./tools/buildversion -ldflags))$(VERSION_LDFLAGS)
VERSION = $(patsubst $(VERSION_PKG).Stamp=%,%,$(filter $(VERSION_PKG).Stamp=%,$(VERSION_LDFLAGS)))
VERSION_PKG := github.com/shedsim/shedsim/sim/version

# What make builds besides the page: the npm package and the release.
BUILD := build
RELEASE_PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64

TEST_STEPS := test-fmt test-vet test-vet-wasm test-staticcheck site \
	test-native test-node test-parity test-arm64 test-release test-browser

.PHONY: all site npm release test $(TEST_STEPS) serve bench clean

all: site

# The page. go build's cache makes rebuilding cheap, so the page is always
# rebuilt from the current sources and toolchain: sim.wasm and
# wasm_exec.js must come from the same Go.
site:
	@$(NEED_GO)
	@test -d wasm || { echo "make: ./wasm does not exist: nothing to build site/sim.wasm from" >&2; exit 1; }
	@mkdir -p site
	GOOS=js GOARCH=wasm $(GO) build -trimpath -buildvcs=false $(WASM_GCFLAGS) -ldflags='-s -w $(VERSION_LDFLAGS)' -o site/sim.wasm ./wasm
	cp "$(WASM_EXEC_DIR)/wasm_exec.js" site/wasm_exec.js
	$(GO) run ./tools/wasmjs -o site/sim.wasm.js site/sim.wasm
	$(GO) run ./tools/wasmjs -text -global SHEDSIM_WASM_EXEC -o site/wasm_exec.text.js site/wasm_exec.js
	$(GO) run ./tools/precache -o site/precache.js site

# The widget's npm package, @shedsim/widget, from the page just built:
# build/npm, and npm pack's tarball of it in build/.
npm: site
	@$(NEED_NPM)
	$(GO) run ./tools/npmpkg -version '$(VERSION)' -site site -o $(BUILD)/npm
	rm -f $(BUILD)/shedsim-widget-*.tgz
	cd $(BUILD) && npm pack --silent ./npm

# The command line for every platform in RELEASE_PLATFORMS, static
# (CGO_ENABLED=0), with -trimpath and the version stamped, and the
# binaries' SHA-256 sums in the format sha256sum -c reads.
release:
	@$(NEED_GO)
	rm -rf $(BUILD)/release
	mkdir -p $(BUILD)/release
	for p in $(RELEASE_PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; ext=; \
		if [ "$$os" = windows ]; then ext=.exe; fi; \
		GOOS=$$os GOARCH=$$arch CGO_ENABLED=0 $(GO) build -trimpath -buildvcs=false -ldflags='-s -w $(VERSION_LDFLAGS)' \
			-o "$(BUILD)/release/shedsim-$(VERSION)-$$os-$$arch$$ext" ./tools/shedsim; \
	done
	cd $(BUILD)/release && sha256sum shedsim-* > SHA256SUMS

# Every step in order, with its time; the first failure stops the rest.
test:
	@for step in $(TEST_STEPS); do \
		start=$$(date +%s); \
		echo "==> make $$step"; \
		if ! $(MAKE) --no-print-directory $$step; then \
			echo "==> make $$step FAILED after $$(( $$(date +%s) - start )) s" >&2; \
			exit 1; \
		fi; \
		echo "==> make $$step: ok in $$(( $$(date +%s) - start )) s"; \
	done

test-fmt:
	@$(NEED_GO)
	@unformatted=$$("$(GO_ROOT)/bin/gofmt" -l .); \
	if [ -n "$$unformatted" ]; then \
		echo "gofmt: these files need gofmt -w:" >&2; \
		echo "$$unformatted" >&2; \
		exit 1; \
	fi

test-vet:
	@$(NEED_GO)
	$(GO) vet ./...

test-vet-wasm:
	@$(NEED_GO)
	GOOS=js GOARCH=wasm $(GO) vet ./...

# Both platforms at once (-matrix): wasm/main_js.go builds only for
# js/wasm, and what only it uses is unused natively; the matrix reports a
# finding like that only if it holds on both.
test-staticcheck:
	@$(NEED_GO)
	GOBIN="$(CURDIR)/$(STATICCHECK_BIN)" $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	printf 'host:\njs: GOOS=js GOARCH=wasm\n' | $(STATICCHECK) -matrix ./...

# Everything natively but the parity and browser tests, which have steps
# of their own.
test-native:
	@$(NEED_GO)
	$(GO) test $$($(GO) list ./... | grep -v -e '/tools/browser$$' -e '/tools/parity$$' -e '/tools/release$$')

# The engine's tests compiled to js/wasm and run under Node. -timeout 30m:
# the sim package's tests (theory over long runs, the differential test of
# the two paths) took 333 s under Node on a loaded machine, over half of go
# test's default 10 minutes. env -i keeps
# the environment small: wasm_exec.js copies it, with the arguments, into
# 8 KB of the module's memory, and a CI machine's can be larger.
test-node:
	@$(NEED_GO)
	@$(NEED_NODE)
	GOOS=js GOARCH=wasm $(GO) test -timeout 30m -exec='env -i PATH=$(PATH) $(WASM_EXEC_DIR)/go_js_wasm_exec' ./sim/...

# The same program natively, under Node and on arm64 must print the same
# bytes, and the engine must use only portable math (tools/parity).
test-parity:
	@$(NEED_GO)
	@$(NEED_NODE)
	@$(NEED_QEMU)
	$(GO) test ./tools/parity

# The golden tests on arm64, where the compiler fuses a*b + c into one
# multiply-add unless the code forbids it. qemu-user runs the static test
# binaries without a sysroot.
test-arm64:
	@$(NEED_GO)
	@$(NEED_QEMU)
	GOOS=linux GOARCH=arm64 CGO_ENABLED=0 $(GO) test -timeout 30m -exec=qemu-aarch64 -run '$(ARM64_RUN)' ./sim/...

# The release binaries: six of them and SHA256SUMS; linux/amd64 natively
# and linux/arm64 under qemu print the page's version and run the sale.
test-release: release npm
	@$(NEED_QEMU)
	$(GO) test -count=1 ./tools/release

# The page in a real browser, against the freshly built site: -count=1,
# because the browser reads files the test cache cannot see.
# -artifacts keeps the embedding tests' screenshots of each test blog
# under tools/browser/out/_artifacts (the log names each file).
# -timeout 30m: the suite takes about 4 minutes on an idle 2-core machine,
# and ran past go test's default 10 minutes at a load average of 20.
test-browser: site npm
	@$(NEED_CHROMIUM)
	@$(NEED_NPM)
	mkdir -p tools/browser/out
	$(GO) test -count=1 -timeout 30m -artifacts -outputdir "$(CURDIR)/tools/browser/out" ./tools/browser

# make serve SERVE_ADDR=127.0.0.1:9000 to use another port.
SERVE_ADDR ?= 127.0.0.1:8080

serve: site
	$(GO) run ./tools/shedsim
	$(GO) run ./tools/serve -addr $(SERVE_ADDR) -dir site

# The engine's benchmarks, and the sweep's, on one core (the lab's target
# is for one) and on two (sim.Runs uses every core); the rest as they come. Two commands, not
# -cpu 1,2: with b.Loop, go test measures a list's first entry at the
# default GOMAXPROCS.
bench: site
	@$(NEED_GO)
	$(GO) test -run '^$$' -bench . -benchmem -cpu 1 ./sim
	$(GO) test -run '^$$' -bench . -benchmem -cpu 2 ./sim
	$(GO) test -run '^$$' -bench . -benchmem -cpu 1 ./sim/sweep
	$(GO) test -run '^$$' -bench . -benchmem -cpu 2 ./sim/sweep
	$(GO) test -run '^$$' -bench . -benchmem $$($(GO) list ./... | grep -v -e '/sim$$' -e '/sim/sweep$$')

clean:
	rm -f site/sim.wasm site/sim.wasm.js site/wasm_exec.js site/wasm_exec.text.js site/precache.js
	rm -rf bin $(BUILD)
