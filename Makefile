# plog's build. `make serve` to try it, `make test` before you push.

GO      ?= go
ADDR    ?= 127.0.0.1:8080
PREFIX  ?= /
# Public URL of the hosted site, for link previews (og:url); empty: none.
URL     ?=

WASM    := bin/app.wasm
# Packages tested natively: everything but the browser tests and the
# conformance suite and its broker, which need a JDK: their own targets.
NATIVE   = $(shell $(GO) list ./... | grep -v -e '/e2e$$' -e '/conformance$$' -e '/internal/kafkabroker$$')

.PHONY: serve dist test check bench clean wasm vet test-engine test-native test-wasm test-browser chromium kafka jdk test-conformance conformance

## serve: build the site into dist/ and serve it on http://$(ADDR)$(PREFIX)
serve: wasm
	$(GO) run . -wasm $(WASM) -out dist -prefix $(PREFIX) -addr $(ADDR) $(if $(URL),-url $(URL))

## dist: build the static site into dist/, the wasm at brotli's smallest (level 11: about 40 s more); PREFIX=/plog/ for a host under a sub-path
dist: wasm
	$(GO) run . -build-only -brotli 11 -wasm $(WASM) -out dist -prefix $(PREFIX) $(if $(URL),-url $(URL))

# The Go build cache makes this quick when nothing changed.
wasm:
	@mkdir -p bin
	GOOS=js GOARCH=wasm $(GO) build -ldflags "-s -w" -o $(WASM) ./wasm

## test: vet (gofmt, tidy, staticcheck), native tests, core tests under wasm (Node), browser tests (Chromium), conformance with Kafka (Java)
test: vet
	$(MAKE) --no-print-directory -j2 --output-sync=target test-engine test-conformance
	$(MAKE) --no-print-directory test-browser

# The engine's tests, natively then under wasm, run beside the conformance
# suite: its broker mostly waits (2.5 minutes of CPU in 5), and its tests
# wait for what the broker shows, never a fixed time, so a busy machine
# makes them slower, not wrong. Side by side on 2 cores: 5.8 minutes for
# both, against 8.5 one after the other. The browser tests run alone.
test-engine:
	$(MAKE) --no-print-directory test-native
	$(MAKE) --no-print-directory test-wasm

## check: the quick loop while you change things: vet, then the native tests of core/... and app/ in short mode (about a minute on 2 cores)
check: vet
	$(GO) test -short ./core/... ./app/

# vet also keeps the tree formatted, go.mod tidy and staticcheck clean.
STATICCHECK = bin/staticcheck
vet: $(STATICCHECK)
	@test -z "$$(gofmt -l .)" || { echo "gofmt would change:"; gofmt -l .; exit 1; }
	$(GO) mod tidy -diff
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./app/... ./wasm/...
	$(STATICCHECK) ./...
	GOOS=js GOARCH=wasm $(STATICCHECK) ./app/... ./wasm/...

# Built for this machine, whatever GOOS the check then looks at.
$(STATICCHECK):
	GOBIN=$(CURDIR)/bin GOOS= GOARCH= $(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2

# PLOG_TEST_INSTALL runs ci_test.go, which installs a Go toolchain from
# Debian's packages as .ci/install-go does on a fresh machine: network and
# minutes, so a plain go test leaves it out.
test-native:
	PLOG_TEST_INSTALL=1 $(GO) test $(NATIVE)
	# Each benchmark once, so that none rots unseen: the figures come
	# from make bench.
	$(GO) test -run '^$$' -bench . -benchtime 1x ./core/... ./app/

# The engine must behave the same in the browser as natively. Its tests run
# slimmed as the site serves the page's wasm (internal/gowasm, cmd/slimexec).
test-wasm:
	$(GO) build -o bin/slimexec ./cmd/slimexec
	GOOS=js GOARCH=wasm $(GO) test -exec="$(CURDIR)/bin/slimexec" ./core/...

# npm ci installs axe-core, which the accessibility test injects into the page.
# The browser tests run side by side, each in a browser context of its own
# in one shared Chromium (e2e/main_test.go). Three at a time on CI's two
# cores: a browser test spends much of its time waiting on the page (its
# timers, the round trips of the DevTools protocol, polls every 100 ms), so
# a third fills the gaps; more would only stretch each test's own waits
# (readyTimeout) on a busy machine. Budget: under 10 minutes on two
# quiet cores (one at a time they took 13).
test-browser: chromium
	cd e2e && npm ci --no-audit --no-fund
	$(GO) test -count=1 -timeout 25m -parallel 3 ./e2e/

# The browser tests need Chromium. Install it where we can (Debian, as root);
# elsewhere stop and say how: the browser tests are never skipped.
chromium:
	@if [ -n "$$PLOG_CHROMIUM" ] || command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then \
		exit 0; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing chromium for the browser tests"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	else \
		echo "The browser tests need Chromium, which is not installed." >&2; \
		echo "  Debian/Ubuntu: sudo apt-get install -y chromium" >&2; \
		echo "  Elsewhere: install Chromium or Chrome and set PLOG_CHROMIUM=/path/to/it" >&2; \
		exit 1; \
	fi

## kafka: start Apache Kafka on a free loopback port for plogsim kafka; Ctrl-C stops it, and it exits with a message if the broker dies
kafka: jdk
	$(GO) run ./cmd/kafkabroker

# The conformance suite runs every lesson, the golden scenarios and a fixed
# sample of random scenarios through plogsim kafka against Apache Kafka's
# own broker, and the targeted cases (retention, replication).
test-conformance: jdk
	$(GO) test -count=1 -timeout 15m -parallel 4 ./conformance/ ./internal/kafkabroker/

## conformance: the suite with 300 random scenarios and 5000 assignor cases; writes FIDELITY.md
conformance: jdk
	PLOG_CONFORMANCE_RANDOM=300 PLOG_ORACLE_CASES=5000 PLOG_FIDELITY=$(CURDIR)/FIDELITY.md \
		$(GO) test -count=1 -timeout 90m -parallel 4 ./conformance/

# The broker needs a JDK and Maven (its jars come from Maven Central).
# Install them where we can (Debian, as root); elsewhere stop and say how:
# the conformance suite is never skipped.
jdk:
	@if command -v java >/dev/null 2>&1 && command -v mvn >/dev/null 2>&1; then \
		exit 0; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing a JDK and Maven for the Kafka broker"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends default-jdk-headless maven; \
	else \
		echo "The Kafka broker of the conformance suite needs Java 17+ and Maven, which are not both installed." >&2; \
		echo "  Debian/Ubuntu: sudo apt-get install -y default-jdk-headless maven" >&2; \
		echo "  Elsewhere: install a JDK 17 or later and Apache Maven, with java and mvn on PATH" >&2; \
		exit 1; \
	fi

## bench: run the benchmarks natively, in wasm (Node) and in Chromium; write BENCHMARKS.md
bench: chromium
	$(GO) run ./cmd/benchreport -out BENCHMARKS.md

## clean: remove what the build made
clean:
	rm -rf bin dist
