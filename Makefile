# kgc — see README.md. `make help` lists the targets.
GO ?= go
FLATC ?= flatc

# The default target builds the shipped packages into build/.
all: images

.PHONY: help all build dist dist-check oci mcpb mcpclients renderers checks analysis test announce skipped staticcheck vet fmt-check check-generated generate run validate images generate-packages bench bench-figures fuzz clean
help:
	@echo "make            build the shipped packages into build/*.kgimg"
	@echo "make run        the main job: build packages/ into build/*.kgimg and serve them on http://127.0.0.1:8000/mcp"
	@echo "make test       every check CI runs (format, vet, staticcheck, generated code, npm MCP clients, go test -race and a race-free pass)"
	@echo "make build      build bin/kgc and bin/kgmcp"
	@echo "make dist       static release binaries for 5 platforms with SHA256SUMS into dist/ (VERSION=...)"
	@echo "make dist-check build the release twice and require identical bytes"
	@echo "make mcpb       the MCPB bundle for desktop hosts: dist/kgmcp.mcpb (IMAGES=DIR for your own images; needs node and npm)"
	@echo "make oci        the container image (no Docker needed): dist/oci and dist/kgmcp-image.tar (IMAGES=DIR for your own images)"
	@echo "make validate   validate the shipped packages"
	@echo "make images     build the shipped packages into build/"
	@echo "make generate   regenerate kgimg/kgfb from kgimg/kgimg.fbs (flatc 2.0.8)"
	@echo "make bench      run the benchmarks"
	@echo "make bench-figures   regenerate every figure of bench/README.md (go run ./bench/all; BENCH_FLAGS=-large for the GB-sized ones)"
	@echo "make fuzz       fuzz each decoder for a short while (FUZZTIME=30s)"
	@echo "make generate-packages   regenerate packages/ and profiles/"

build:
	$(GO) build -o bin/kgc ./cmd/kgc
	$(GO) build -o bin/kgmcp ./cmd/kgmcp

dist:
	./tools/dist.sh

dist-check:
	./tools/dist.sh --check

# One version for every artifact (binaries, MCPB bundle, OCI image): the git
# description of the checkout unless VERSION=... is given.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
export VERSION
# The images make mcpb and make oci bundle: IMAGES=DIR to ship your own
# (default: the shipped samples, built into build/).
IMAGES ?= build
mcpb: $(if $(filter build,$(IMAGES)),images)
	@test -d dist/linux-amd64 || ./tools/dist.sh
	IMAGES=$(IMAGES) ./tools/mcpb.sh

oci: $(if $(filter build,$(IMAGES)),images)
	$(GO) run ./tools/ociimage -version $(VERSION) $(IMAGES)/*.kgimg

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

generate:
	rm -rf kgimg/kgfb
	$(FLATC) --go -o kgimg kgimg/kgimg.fbs

# staticcheck (pinned; fetched through the Go module proxy on first use).
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
staticcheck:
	$(STATICCHECK) ./...
	cd deploy/kubernetes && $(STATICCHECK) ./...

# The checked-in generated code must be what flatc produces from the schema.
check-generated:
	@if ./tools/install-flatc.sh; then \
		tmp=$$(mktemp -d) && $(FLATC) --go -o $$tmp kgimg/kgimg.fbs && \
		diff -r $$tmp/kgfb kgimg/kgfb && rm -rf $$tmp && echo "kgimg/kgfb is current"; \
	else echo "check-generated: flatc 2.0.8 is needed to check kgimg/kgfb against kgimg/kgimg.fbs and could not be installed (install Debian's flatbuffers-compiler, or run as root so make test can)" >&2; exit 1; fi

# The pinned npm MCP clients (TypeScript SDK, inspector CLI) the end-to-end tests
# drive kgmcp with, installed once per lock file for every checkout (see the
# script); without node the tests that need them skip visibly.
mcpclients:
	@./tools/install-mcpclients.sh || echo "WARNING: npm MCP clients unavailable: their end-to-end tests will skip"

# The renderers the tests look with: rsvg-convert for kgc render's SVG, dot
# for its DOT form, headless chromium for the browser explorer; without them
# those checks skip visibly.
renderers:
	@./tools/install-renderers.sh || echo "WARNING: rsvg-convert, dot or chromium unavailable: the kgc render tests will skip rendering the pictures, the explorer tests the browser"

# go test runs in two passes. The first, under -race, covers every package
# with tests but RACE_FREE (go vet and staticcheck have compiled the others);
# the second, without the detector, runs RACE_FREE and HEAVY, the longest
# (cmd/kgmcp) first.
# HEAVY packages run twice: under -race their heavy checks (brute force,
# exhaustive mutation, the gate over every mutated package, the real corpus:
# single-threaded computation the detector slows 5-10x and finds nothing in)
# skip, and the second pass runs them (see internal/imgtest.Heavy).
# RACE_FREE packages run only in the second pass, as the detector has nothing
# to find in them:
# - RACE_CHILD: cmd/kgmcp, cmd/kgc, examples and bench/askbench drive kgmcp
#   and kgc binaries built without the detector in child processes, so -race
#   would instrument only the test's client side (68 s of the race pass for
#   nothing in cmd/kgmcp); the servers' and compiler's code is raced in
#   process by runtime/mcpserver, cmd/kgmcp/internal/serve and
#   cmd/kgc/internal/cli;
# - RACE_PURE: packages whose code and tests start no goroutine (internal/lint
#   checks it: TestRaceFreePackagesStartNoGoroutine): queries, packing,
#   parsing, comparison, drawing, generating and archiving, 2-4x slower under
#   -race; what they call that does start goroutines (the gate, the image
#   writer, the catalog's loading) is raced in its own package, and the query
#   layer under concurrent calls by runtime/mcpserver (TestSwapUnderLoad).
HEAVY = runtime/mcpserver cmd/kgc/internal/cli compiler/gate kgimg
MODULE = $(shell $(GO) list -m)
RACE_CHILD = cmd/kgmcp cmd/kgc examples bench/askbench
RACE_PURE = runtime/query compiler/pack runtime/render internal/ociimage compiler/diff tools/refdocs internal/canonjson \
	internal/pkggen compiler/caseimport compiler/childorder compiler/delivery internal/lint \
	runtime/prompt runtime/textview internal/jsonv internal/excerpt internal/safefile internal/termsafe internal/natural internal/digraph internal/transcript schema/manifest schema/profile \
	schema/finding schema/promptcfg schema/lpsummary kgimg/manifestfb kgimg/profilefb kgimg/lpsummaryfb
RACE_FREE = $(RACE_CHILD) $(RACE_PURE)
# Tests that need the optional real corpus (internal/corpus: $$KGC_CORPUS, else
# checked out beside the repository) skip without it, and go test shows a skip
# only under -v: each such test appends a line to $$KGC_SKIP_LOG
# (internal/imgtest.Corpus), printed at the end, pass or fail.
SKIP_LOG = build/skipped-tests.txt
# The checks and installs before the tests run side by side (the npm install
# and apt waits overlap the analysis), each one's output kept together. go vet
# and staticcheck run one after the other: side by side they type-check the
# same packages twice over on two cores (14 s more wall time from a fresh
# clone). go test's own vet pass is off (-vet=off): go vet ./... has run every
# analyzer it would, over the test files too.
checks: announce
	@$(MAKE) -s -j4 --output-sync=target fmt-check analysis check-generated mcpclients renderers

analysis:
	@$(MAKE) -s vet
	@$(MAKE) -s staticcheck

# make test links its test binaries (and the kgmcp and kgc binaries the tests
# build) without DWARF debugging information, which no test reads: linking is
# most of a test binary's build once the packages are compiled (runtime/mcpserver
# under -race: 6 CPU-s with DWARF, 2 without). Stack traces and race reports
# do not use it.
test: export GOFLAGS += -ldflags=-w
test: checks
	@mkdir -p build && rm -f $(SKIP_LOG)
	KGC_SKIP_LOG=$(CURDIR)/$(SKIP_LOG) $(GO) test -race -vet=off -p 4 -count=1 $$($(GO) list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./... | grep -v -x $(foreach p,$(RACE_FREE),-e $(MODULE)/$(p))) || { $(MAKE) -s skipped; exit 1; }
	KGC_SKIP_LOG=$(CURDIR)/$(SKIP_LOG) $(GO) test -vet=off -p 4 -count=1 $(addprefix ./,$(RACE_CHILD) $(HEAVY) $(RACE_PURE)) || { $(MAKE) -s skipped; exit 1; }
	cd deploy/kubernetes && $(GO) vet ./... && $(GO) test -count=1 ./...
	@$(MAKE) -s skipped

# announce says up front what make test may fetch or install.
announce:
	@echo "make test: Go modules are fetched from the module proxy if missing; flatc (Debian's flatbuffers-compiler, via apt-get when run as root), the pinned npm MCP clients (tools/mcpclients) and the renderers rsvg-convert, dot and chromium (Debian's librsvg2-bin, graphviz and chromium, via apt-get when run as root) are installed if missing; each install says so, and without them the tests that need them skip visibly."

# skipped prints what make test skipped for want of the corpus.
skipped:
	@if [ -s $(SKIP_LOG) ]; then sort -u $(SKIP_LOG); echo "WARNING: the real corpus is absent: the tests listed above, which need it, were skipped"; fi

ADDR ?= 127.0.0.1:8000
# The main job: build the shipped images, then serve them over Streamable HTTP
# (http://$(ADDR)/mcp, GET /health) until interrupted.
run: images
	./bin/kgmcp --http $(ADDR) build/

validate: build
	./bin/kgc validate --profiles profiles packages/*/*

images: build
	./bin/kgc build --profiles profiles -o build packages/*/*
	./bin/kgc verify build/*.kgimg

generate-packages:
	$(GO) run ./bench/genpkg -shipped

bench:
	$(GO) test ./... -run '^$$' -bench . -benchtime 20x

# Every figure of bench/README.md, with the settings it states (bench/all).
bench-figures:
	$(GO) run ./bench/all $(BENCH_FLAGS)

FUZZTIME ?= 30s
fuzz:
	$(GO) test ./internal/jsonv -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/jsonv -run '^$$' -fuzz '^FuzzParser$$' -fuzztime $(FUZZTIME)
	$(GO) test ./schema/manifest -run '^$$' -fuzz FuzzDecode -fuzztime $(FUZZTIME)
	$(GO) test ./compiler/delivery -run '^$$' -fuzz FuzzDecodeNodes -fuzztime $(FUZZTIME)
	$(GO) test ./compiler/delivery -run '^$$' -fuzz FuzzDecodeRelationships -fuzztime $(FUZZTIME)
	$(GO) test ./kgimg -run '^$$' -fuzz FuzzOpen -fuzztime $(FUZZTIME) -fuzzminimizetime 1x

clean:
	rm -rf bin build dist
