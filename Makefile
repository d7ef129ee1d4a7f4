# kgc — see README.md. `make help` lists the targets.
GO ?= go

.PHONY: help all build test vet fmt-check validate
help:
	@echo "make validate   validate the packages that ship with the project"
	@echo "make test       run every check CI runs (format, vet, tests)"
	@echo "make build      build bin/kgc"

all: build

build:
	$(GO) build -o bin/kgc ./cmd/kgc

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

test: fmt-check vet
	$(GO) test -race -count=1 ./...

validate: build
	./bin/kgc validate packages/*/*
