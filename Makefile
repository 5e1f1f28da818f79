# sovviz — see README.md. Every target installs missing Debian packages first.
GO      ?= go
BIN     := bin/sovviz
GOFLAGS_TEST ?= -count=1

.PHONY: all deps build run test vet bench clean

all: build

deps:
	@scripts/deps.sh

build: deps
	$(GO) build -o $(BIN) ./cmd/sovviz

# Opens the visualizer on the built-in default scene.
run: build
	scripts/xvfb-if-needed.sh $(BIN)

vet: deps
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }

# Every test, the GUI tests under Xvfb included.
test: vet
	CGO_ENABLED=0 $(GO) vet ./geom/... ./contact/... ./tessellate/... ./scene/...
	scripts/xvfb.sh $(GO) test $(GOFLAGS_TEST) ./...

bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	$(BIN) bench

clean:
	rm -rf bin
