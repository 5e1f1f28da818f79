# sovviz — see README.md. Every target installs missing Debian packages first.
GO      ?= go
BIN     := bin/sovviz
# (The contact package's tests take 5–10 minutes on a 2-core machine: 339 s
# and 354 s on clean clones, 504 s once under load, 560 s on 2026-12-07 with
# other tests running beside them; go test's default limit per package is
# 10 minutes.)
GOFLAGS_TEST ?= -count=1 -timeout=30m

.PHONY: all deps deps-fcl build run test vet bench bench-fcl clean

all: build

deps:
	@scripts/deps.sh

# Adds FCL 0.7, for the FCL comparison (scripts/fclbench), whose harness the
# tests build too.
deps-fcl: deps
	@scripts/deps.sh fcl

build: deps
	$(GO) build -o $(BIN) ./cmd/sovviz

# Opens the visualizer on the built-in default scene.
run: build
	scripts/xvfb-if-needed.sh $(BIN)

vet: deps
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }

# Every test, the GUI tests under Xvfb and the FCL harness's included.
test: vet deps-fcl
	CGO_ENABLED=0 $(GO) vet ./geom/... ./contact/... ./tessellate/... ./scene/...
	scripts/xvfb.sh $(GO) test $(GOFLAGS_TEST) ./...

bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	$(BIN) bench

# sovviz and FCL 0.7 timed on the same pairs: paper 000's battery, then the
# hand scene's broad-phase pairs (README, "Against meshes").
bench-fcl:
	scripts/fclbench/run.sh
	scripts/fclbench/run.sh -scene scenes/icub-hand.json

clean:
	rm -rf bin
