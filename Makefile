# kgc — see README.md. `make help` lists the targets.
GO ?= go

.PHONY: help all build test vet fmt-check run validate generate-packages bench fuzz
help:
	@echo "make run        the main job on the shipped data (today: validate packages/)"
	@echo "make test       run every check CI runs (format, vet, tests)"
	@echo "make build      build bin/kgc"
	@echo "make bench      run the benchmarks"
	@echo "make fuzz       fuzz each decoder for a short while"
	@echo "make generate-packages   regenerate packages/ and profiles/"

all: build

build:
	$(GO) build -o bin/kgc ./cmd/kgc

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

test: fmt-check vet
	$(GO) test -race -count=1 ./...

run: validate

validate: build
	./bin/kgc validate --profiles profiles packages/*/*

generate-packages:
	$(GO) run ./bench/genpkg -shipped

bench:
	$(GO) test ./... -run '^$$' -bench . -benchtime 20x

FUZZTIME ?= 30s
fuzz:
	$(GO) test ./internal/jsonv -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME)
	$(GO) test ./schema/manifest -run '^$$' -fuzz FuzzDecode -fuzztime $(FUZZTIME)
	$(GO) test ./compiler/delivery -run '^$$' -fuzz FuzzDecodeNodes -fuzztime $(FUZZTIME)
	$(GO) test ./compiler/delivery -run '^$$' -fuzz FuzzDecodeRelationships -fuzztime $(FUZZTIME)
