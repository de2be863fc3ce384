# leadchat: `make run` starts everything on this machine, `make test` proves it.
SHELL := /bin/bash
GO    ?= go
SPEC  := api/openapi.yaml
# The webhooks as OpenAPI 3.1 `webhooks:`, generated from the contract's x-webhooks (api/genwebhooks).
WEBHOOKS := api/webhooks.yaml
DOCS := api/docs.gen.html

# Spec tools. The linter comes from npm into the git-ignored .tools/ (one folder per version, so a
# bump reinstalls); 1.34.x is the newest line that still runs on Debian 12's Node 18. oasdiff is
# pinned in internal/tools/go.mod, a module of its own so its dependencies stay out of ours.
REDOCLY_VERSION := 1.34.20
REDOCLY_DIR     := .tools/redocly-$(REDOCLY_VERSION)
REDOCLY         := $(REDOCLY_DIR)/node_modules/.bin/redocly
BASELINE        := api/baseline/openapi.v1.yaml
# axe-core, the accessibility rules that the widget's and the dashboard's browser tests run in
# Chromium, comes from npm into .tools/ the same way; internal/testenv reads AXE_VERSION here to
# find it.
AXE_VERSION := 4.14.1
AXE_DIR     := .tools/axe-core-$(AXE_VERSION)
AXE         := $(AXE_DIR)/node_modules/axe-core/axe.min.js
ACCEPTED_BREAKS := api/baseline/accepted-breaks.txt
# Portman turns the spec into contract and variation tests and Newman runs them against a live
# service (internal/contracttest/portman, config api/portman.yaml); both come from npm into
# .tools/ the same way, Newman pinned beside Portman, and tslib because Portman 1.33 requires it
# without declaring it. internal/testenv reads PORTMAN_VERSION here to find them.
PORTMAN_VERSION := 1.33.0
NEWMAN_VERSION  := 6.2.2
TSLIB_VERSION   := 2.8.1
PORTMAN_DIR     := .tools/portman-$(PORTMAN_VERSION)
PORTMAN         := $(PORTMAN_DIR)/node_modules/.bin/portman

.PHONY: run reset test test-fast hooks check-test-skip build tools generate check-generated lint-spec check-breaking vet lint-go clean axe portman contract third-party-client

# LEADCHAT_TEST_SKIP is the one way to leave tests out, for a machine that lacks what they need:
# a comma-separated list of chromium (the widget's and the dashboard's browser tests), node (embed.js's syntax
# check, the spec lint and the Portman contract run in `make test`), libreoffice (the CSV export
# opened by LibreOffice: apt-get install libreoffice-calc-nogui) and scale (make scale-test:
# pg_auto_failover and HAProxy). Without it a missing program fails its test, naming the package
# to install; PostgreSQL cannot be left out. The end of `make test` lists every skip.
comma     := ,
TEST_SKIP := $(strip $(subst $(comma), ,$(LEADCHAT_TEST_SKIP)))

## run: a local PostgreSQL, migrations, a demo company with keys, the demo page, the service.
## The binary is built first and run by make itself: `go run` would end with status 1 on Ctrl-C,
## which make reports as an error although everything stopped cleanly.
run: build
	bin/leadchat dev

## reset: the same, after deleting the local database and the demo keys in ./.leadchat
reset: build
	bin/leadchat dev --reset

## test: vet, generated-code drift, spec lint and breaking changes, and every test against a real
## PostgreSQL and Chromium (gotestsum runs go test and lists the skipped tests at the end)
test: check-test-skip tools test-dist vet check-generated third-party-client $(if $(filter node,$(TEST_SKIP)),,lint-spec portman) $(if $(filter chromium,$(TEST_SKIP)),,axe) check-breaking fuzz-short soak-short hostile-short $(if $(filter scale,$(TEST_SKIP)),,scale-test) bench-smoke
	@gts=$$(cd internal/tools && $(GO) tool -n gotestsum) && \
		$$gts --format pkgname --format-hide-empty-pkg -- -count=1 -timeout 20m ./...
	cd clients/go && $(GO) vet ./... && $(GO) test -count=1 ./...
	@if [ -n "$(TEST_SKIP)" ]; then echo "make test: SKIPPED (LEADCHAT_TEST_SKIP=$(LEADCHAT_TEST_SKIP)):$(if \
		$(filter chromium,$(TEST_SKIP)), the widget's browser tests;)$(if \
		$(filter node,$(TEST_SKIP)), embed.js's syntax check, the spec lint and the Portman contract run;)$(if \
		$(filter libreoffice,$(TEST_SKIP)), the CSV export in LibreOffice;)$(if \
		$(filter scale,$(TEST_SKIP)), make scale-test;) the skipped tests are listed above"; \
	else echo "make test: LEADCHAT_TEST_SKIP unset, nothing left out"; fi

## test-fast: the inner loop: every test of ./... in -short mode, without the browser, node and
## LibreOffice (LEADCHAT_TEST_SKIP=chromium,node,libreoffice), load runs and long waits; prints its time. `make test`
## stays the whole proof. The test binaries are built by one `go test -c` into TEST_FAST_BIN and
## kept there: go relinks only those whose code changed (go test itself links every binary
## again at every run, some 25 s of CPU), vetting the packages as go test does. They are linked
## without DWARF (-ldflags=-w): a failing test's stack trace keeps its file names and lines.
## Then four binaries run at a time (by default go test runs one per core; four keep the cores
## busy while a package waits for its PostgreSQL or its test server), each in its package's
## folder, the longest (TEST_FAST_FIRST) first, so that none of them runs alone at the end; a
## failing package's output is printed whole. They share one throwaway PostgreSQL
## (internal/postgres/pgtest/pgshared) instead of starting one each.
TEST_FAST_FIRST := ./internal/web ./internal/httpapi ./internal/delivery ./internal/postgres ./cmd/leadchat ./internal/service \
	./internal/assistant ./internal/user ./internal/pgembed ./internal/postgres/pgtest
TEST_FAST_BIN := .leadchat/test-fast
test-fast:
	@start=$$(date +%s); \
	pkgs=$$($(GO) list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}} {{.Dir}}{{end}}' $(TEST_FAST_FIRST) ./... | awk '!seen[$$1]++') && \
	mkdir -p $(TEST_FAST_BIN) && $(GO) test -c -ldflags=-w -o $(TEST_FAST_BIN)/ $$(echo "$$pkgs" | cut -d' ' -f1) && \
	echo "$$pkgs" | LEADCHAT_TEST_SKIP=chromium,node,libreoffice $(GO) run ./internal/postgres/pgtest/pgshared \
		xargs -P 4 -L 1 sh -c 'began=$$(date +%s%N); out=$$(cd "$$2" && "$$0/$${1##*/}.test" -test.short -test.parallel 4 2>&1); \
			if [ $$? = 0 ]; then echo "ok  	$$1	$$((($$(date +%s%N) - began) / 1000000)) ms"; \
			else printf "%s\nFAIL\t%s\n" "$$out" "$$1"; exit 1; fi' "$(CURDIR)/$(TEST_FAST_BIN)" && \
		echo "make test-fast: passed in $$(( $$(date +%s) - start )) s"

## hooks: warn at each commit when its subject runs past 72 characters (.ci/hooks/commit-msg)
hooks:
	git config core.hooksPath .ci/hooks

check-test-skip:
	@for n in $(TEST_SKIP); do case $$n in chromium|node|libreoffice|scale) ;; \
		*) echo "LEADCHAT_TEST_SKIP: unknown '$$n' (chromium, node, libreoffice, scale)" >&2; exit 1 ;; esac; done

build:
	$(GO) build -o bin/leadchat ./cmd/leadchat

## tools: builds every tool pinned in internal/tools/go.mod first, so that a go.sum that lacks a
## tool's dependency fails in seconds instead of after the long stages of make test
tools:
	@cd internal/tools && for t in $$(sed -n '/^tool (/,/^)/p' go.mod | grep -v '[()]'); do \
		$(GO) tool -n $$t >/dev/null || { echo "internal/tools: $$t does not build (go mod tidy in internal/tools?)" >&2; exit 1; }; done; \
		echo "tools build: $$(sed -n '/^tool (/,/^)/p' go.mod | grep -vc '[()]') pinned tools"

## generate: rebuild gen/, clients/go/, the error codes of internal/errs, api/webhooks.yaml and
## api/docs.gen.html (the /docs page) from the spec
ERRCODES := internal/errs/codes.gen.go
generate:
	$(GO) tool oapi-codegen -config gen/api/server.cfg.yaml $(SPEC)
	$(GO) tool oapi-codegen -config gen/api/client.cfg.yaml $(SPEC)
	$(GO) run ./internal/errs/gencodes -spec $(SPEC) -out $(ERRCODES)
	$(GO) run ./api/genwebhooks -spec $(SPEC) -out $(WEBHOOKS)
	$(GO) run ./api/gendocs -spec $(SPEC) -out $(DOCS)

## check-generated: fail when anything `make generate` writes differs from what the spec generates
check-generated:
	@tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	sed "s#^output: .*#output: $$tmp/api.gen.go#" gen/api/server.cfg.yaml > $$tmp/server.cfg.yaml && \
	sed "s#^output: .*#output: $$tmp/client.gen.go#" gen/api/client.cfg.yaml > $$tmp/client.cfg.yaml && \
	$(GO) tool oapi-codegen -config $$tmp/server.cfg.yaml $(SPEC) && \
	$(GO) tool oapi-codegen -config $$tmp/client.cfg.yaml $(SPEC) && \
	$(GO) run ./internal/errs/gencodes -spec $(SPEC) -out $$tmp/codes.gen.go && \
	$(GO) run ./api/genwebhooks -spec $(SPEC) -out $$tmp/webhooks.yaml && \
	$(GO) run ./api/gendocs -spec $(SPEC) -out $$tmp/docs.gen.html && \
	if ! diff -u gen/api/api.gen.go $$tmp/api.gen.go || ! diff -u clients/go/client.gen.go $$tmp/client.gen.go || \
		! diff -u $(ERRCODES) $$tmp/codes.gen.go || ! diff -u $(WEBHOOKS) $$tmp/webhooks.yaml || \
		! cmp -s $(DOCS) $$tmp/docs.gen.html; then \
		echo "generated code is out of date with $(SPEC): run 'make generate' and commit" >&2; exit 1; \
	fi; echo "generated code matches $(SPEC)"

## third-party-client: ogen, a Go generator this project did not write (pinned in
## internal/tools/go.mod), generates a client from the contract and the webhook types from
## $(WEBHOOKS) into a throwaway module; the code must compile and the tests of
## internal/tools/thirdparty pass against it (an error code newer than the contract decodes, a
## webhook body decodes into the event types). The first run downloads ogen's runtime modules.
third-party-client:
	@tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	ogen=$$(cd internal/tools && $(GO) tool -n ogen) && \
	version=$$(cd internal/tools && $(GO) list -m -f '{{.Version}}' github.com/ogen-go/ogen) && \
	{ $$ogen -clean -package leadapi -target $$tmp/leadapi $(SPEC) && \
		$$ogen -clean -package leadhooks -target $$tmp/leadhooks $(WEBHOOKS); } >$$tmp/ogen.log 2>&1 || \
		{ cat $$tmp/ogen.log >&2; echo "ogen $$version could not generate from $(SPEC) and $(WEBHOOKS)" >&2; exit 1; }; \
	cp internal/tools/thirdparty/ogen_test.go internal/tools/go.sum $$tmp/ && \
	printf 'module thirdparty\n\ngo 1.26.8\n\nrequire github.com/ogen-go/ogen %s\n' "$$version" > $$tmp/go.mod && \
	cd $$tmp && GOFLAGS=-mod=mod $(GO) build ./... && GOFLAGS=-mod=mod $(GO) test -tags thirdparty -count=1 . && \
	echo "ogen $$version: the client and the webhook types generated from the contract compile and pass"

## lint-spec: lint the spec with the committed ruleset api/redocly.yaml (every finding is an error)
lint-spec: $(REDOCLY)
	@command -v node >/dev/null || { echo "lint-spec needs node: apt-get install nodejs npm (or LEADCHAT_TEST_SKIP=node)" >&2; exit 1; }
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true $(REDOCLY) lint --config api/redocly.yaml $(SPEC)

$(REDOCLY):
	@command -v npm >/dev/null || { echo "lint-spec needs npm: apt-get install nodejs npm (or LEADCHAT_TEST_SKIP=node)" >&2; exit 1; }
	npm install --prefix $(REDOCLY_DIR) --no-audit --no-fund --ignore-scripts --loglevel=error @redocly/cli@$(REDOCLY_VERSION)

## portman: install Portman and Newman for the contract run (go test needs them too)
portman: $(PORTMAN)

$(PORTMAN):
	@command -v npm >/dev/null || { echo "the contract run needs npm: apt-get install nodejs npm (or LEADCHAT_TEST_SKIP=node)" >&2; exit 1; }
	npm install --prefix $(PORTMAN_DIR) --no-audit --no-fund --ignore-scripts --loglevel=error \
		@apideck/portman@$(PORTMAN_VERSION) newman@$(NEWMAN_VERSION) tslib@$(TSLIB_VERSION)

## contract: the third-party contract run alone: Portman generates contract and variation tests
## from the spec, Newman runs them against the service on a fresh database; any failed
## assertion, and any answer that breaks the spec or its operation's error list, fails it.
## `go test ./...` (and so `make test`) runs it too.
contract: portman
	$(GO) test -count=1 -run '^TestPortman$$' -v ./internal/contracttest/portman/

## axe: install axe-core for the widget's and the dashboard's browser tests (go test needs it too)
axe: $(AXE)

$(AXE):
	@command -v npm >/dev/null || { echo "the widget's browser tests need axe-core from npm: apt-get install nodejs npm (or LEADCHAT_TEST_SKIP=chromium)" >&2; exit 1; }
	npm install --prefix $(AXE_DIR) --no-audit --no-fund --ignore-scripts --loglevel=error axe-core@$(AXE_VERSION)

## check-breaking: fail when the spec breaks a client of the published v1 baseline; a deliberate
## break means publishing a new baseline, not editing this one, or, for a rule the contract
## already promised or a security fix within v1, a line with its reason in $(ACCEPTED_BREAKS).
## A value added to a response enum is not a break here: the growing one is ErrorCode, and the
## contract tells clients to act on the HTTP status of a code they do not know (the Go SDK's
## ErrorCode is an open string type). oasdiff would also count the move of `code` from a free
## string to that enum as 31 added values on every error response.
BREAKING_LEVELS := response-property-enum-value-added INFO
check-breaking:
	cd internal/tools && $(GO) tool oasdiff breaking --fail-on ERR --err-ignore $(abspath $(ACCEPTED_BREAKS)) \
		--severity-levels <(echo '$(BREAKING_LEVELS)') $(abspath $(BASELINE)) $(abspath $(SPEC))
	@echo "no breaking change against $(BASELINE)"

vet:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go') | grep -v '^gen/\|\.gen\.go$$'); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet -tags soak,dist ./...
	@sc=$$(cd internal/tools && $(GO) tool -n staticcheck) && $$sc -tags soak,dist ./... && (cd clients/go && $$sc ./...) && echo "staticcheck clean"

clean:
	rm -rf bin $(DIST_DIR)

## dist: the release into the git-ignored $(DIST_DIR)/: static binaries for linux/amd64 and
## linux/arm64, a Debian package, an OCI image archive and a CycloneDX SBOM of its modules for
## each, and SHA256SUMS of them all. Everything is made from the commit, not the
## clock: the build time written into the binary, the package's file times and the image's
## creation time are the commit's (SOURCE_DATE_EPOCH), so two builds of one commit give the same
## bytes. The tools are pinned in internal/tools/go.mod; podman builds the image from scratch with
## --network=none. VERSION: the tag v<VERSION> on HEAD, else 0.0.0~git<commit date>.<short
## commit> (sorted by dpkg below any release); a tree with uncommitted changes marks its commit
## "-dirty".
DIST_DIR          ?= dist
DIST_ARCHES       := amd64 arm64
SOURCE_URL        := https://github.com/leadchat/leadchat
MAINTAINER        ?= leadchat maintainers <leadchat@example.com>
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct)
DIST_COMMIT       := $(shell git rev-parse HEAD)$(if $(shell git status --porcelain --untracked-files=no),-dirty)
DIST_TIME         := $(shell date -u -d @$(SOURCE_DATE_EPOCH) +%Y-%m-%dT%H:%M:%SZ)
VERSION           ?= $(or $(patsubst v%,%,$(shell git describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null)),0.0.0~git$(shell date -u -d @$(SOURCE_DATE_EPOCH) +%Y%m%d%H%M%S).$(shell git rev-parse --short=12 HEAD))
# An image tag cannot hold "~".
IMAGE             := localhost/leadchat:$(subst ~,-,$(VERSION))
BUILDINFO         := github.com/leadchat/leadchat/internal/buildinfo
DIST_LDFLAGS      := -s -w -X $(BUILDINFO).version=$(VERSION) -X $(BUILDINFO).commit=$(DIST_COMMIT) -X $(BUILDINFO).date=$(DIST_TIME)
CA_CERTS          ?= /etc/ssl/certs/ca-certificates.crt
export SOURCE_DATE_EPOCH

.PHONY: dist dist-bin dist-sbom dist-deb dist-image test-dist
dist: dist-bin dist-sbom dist-deb dist-image
	cd $(DIST_DIR) && sha256sum leadchat-linux-* leadchat_*.deb leadchat-image-* > SHA256SUMS
	@echo "make dist: $(VERSION) ($(DIST_COMMIT), $(DIST_TIME)) in $(DIST_DIR)/"

## test-dist: make dist, then its tests (internal/dist, files with the tag dist, which `go test
## ./...` leaves to this target): SHA256SUMS, static binaries that say their version, a second
## build that gives the same bytes, the SBOM against the binary's modules, the packages read by
## dpkg-deb, the unit by systemd-analyze verify, the images by podman (configuration, files), and
## the packaged and the image's binary serving a test PostgreSQL. Needs dpkg-deb, systemd-analyze
## and podman; a missing one fails its test, naming the package to install.
test-dist: dist
	@start=$$(date +%s); LEADCHAT_DIST_DIR=$(abspath $(DIST_DIR)) $(GO) test -tags dist -count=1 -timeout 10m ./internal/dist/ && \
		echo "make test-dist: the tests passed in $$(( $$(date +%s) - start )) s"

## dist-bin: the static binaries alone
dist-bin:
	@mkdir -p $(DIST_DIR)
	for arch in $(DIST_ARCHES); do \
		CGO_ENABLED=0 GOOS=linux GOARCH=$$arch $(GO) build -trimpath -buildvcs=false -ldflags '$(DIST_LDFLAGS)' \
			-o $(DIST_DIR)/leadchat-linux-$$arch ./cmd/leadchat || exit 1; \
	done

## dist-sbom: the modules linked into each binary, read from the binary (cyclonedx-gomod bin: the
## app mode's git library cannot read a linked work tree), as CycloneDX JSON without serial number
## or timestamp, which would differ between builds
dist-sbom: dist-bin
	@cdx=$$(cd internal/tools && $(GO) tool -n cyclonedx-gomod) && for arch in $(DIST_ARCHES); do \
		$$cdx bin -json -noserial -notimestamp -version '$(VERSION)' -output $(DIST_DIR)/leadchat-linux-$$arch.cdx.json \
			$(DIST_DIR)/leadchat-linux-$$arch || exit 1; \
	done; echo "SBOMs: $(foreach a,$(DIST_ARCHES),$(DIST_DIR)/leadchat-linux-$(a).cdx.json)"

dist-deb: dist-bin
	@command -v dpkg-deb >/dev/null || { echo "make dist-deb checks the package with dpkg-deb: apt-get install dpkg" >&2; exit 1; }
	@rm -f $(DIST_DIR)/leadchat_*.deb; nfpm=$$(cd internal/tools && $(GO) tool -n nfpm) && for arch in $(DIST_ARCHES); do \
		GOARCH=$$arch VERSION='$(VERSION)' DIST_DIR='$(DIST_DIR)' MAINTAINER='$(MAINTAINER)' SOURCE_URL='$(SOURCE_URL)' \
			$$nfpm package --config internal/dist/nfpm.yaml --packager deb \
			--target $(DIST_DIR)/leadchat_$(VERSION)_$$arch.deb >/dev/null && test -s $(DIST_DIR)/leadchat_$(VERSION)_$$arch.deb || exit 1; \
	done; echo "packages: $(foreach a,$(DIST_ARCHES),$(DIST_DIR)/leadchat_$(VERSION)_$(a).deb)"

## dist-image: the OCI image of each architecture, built by podman from scratch without network,
## tagged $(IMAGE)-<arch> in podman's storage and saved as an OCI archive (podman save dates the
## archive's entries now, so tar packs its OCI layout again, dated as the commit)
dist-image: dist-bin
	@command -v podman >/dev/null || { echo "make dist-image builds the image with podman: apt-get install podman" >&2; exit 1; }
	@ctx=$$(mktemp -d); trap 'rm -rf $$ctx' EXIT; \
	cp $(DIST_DIR)/leadchat-linux-* internal/dist/copyright internal/dist/licenses/* $$ctx/ && cp $(CA_CERTS) $$ctx/ca-certificates.crt && \
	for arch in $(DIST_ARCHES); do \
		podman build -q --network=none --pull=never --identity-label=false --platform linux/$$arch \
			--timestamp $(SOURCE_DATE_EPOCH) --build-arg TARGETARCH=$$arch --build-arg VERSION='$(VERSION)' \
			--build-arg REVISION=$(DIST_COMMIT) --build-arg CREATED=$(DIST_TIME) --build-arg SOURCE=$(SOURCE_URL) \
			-f internal/dist/Containerfile -t $(IMAGE)-$$arch $$ctx >/dev/null && \
		podman save -q --format oci-dir -o $$ctx/oci-$$arch $(IMAGE)-$$arch && \
		tar -C $$ctx/oci-$$arch --sort=name --mtime=@$(SOURCE_DATE_EPOCH) --owner=0 --group=0 --numeric-owner --format=gnu \
			-cf $(DIST_DIR)/leadchat-image-linux-$$arch.oci.tar oci-layout index.json blobs || exit 1; \
	done; echo "images: $(foreach a,$(DIST_ARCHES),$(IMAGE)-$(a))"

## fuzz-short: every fuzz target for FUZZTIME each (CI runs this as part of `make test`)
FUZZTIME ?= 5s
FUZZ_TARGETS := internal/auth:FuzzParse internal/auth:FuzzHostAllowed internal/auth:FuzzRequestHost \
	internal/contact:FuzzExtract internal/httpapi:FuzzLeadRequest internal/httpapi:FuzzChatRequest \
	internal/lead:FuzzCheckText internal/httpapi:FuzzIdempotencyKey internal/httpapi:FuzzLeadJSON \
	internal/lead:FuzzParseCursor internal/lead:FuzzCursorRoundTrip internal/web:FuzzDashboardForms
.PHONY: fuzz-short
## On a loaded machine Go 1.26's fuzz coordinator may end a run that found nothing with "context
## deadline exceeded": its time budget races a worker still in a call, a bug of Go's own, fixed
## in Go 1.27. Such a run, with no failing input written, runs once more on a count budget
## (FUZZ_RETRY_EXECS executions), which has no deadline to race; a hanging input then meets -timeout.
FUZZ_RETRY_EXECS ?= 200x
fuzz-short:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t##*:}; echo "fuzz $$pkg $$fn ($(FUZZTIME))"; budget=$(FUZZTIME); \
		for try in 1 2; do \
			if $(GO) test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $$budget -timeout 5m ./$$pkg/ >/tmp/leadchat-fuzz.log 2>&1; then break; fi; \
			if [ $$try = 1 ] && grep -q 'context deadline exceeded' /tmp/leadchat-fuzz.log && ! grep -q 'Failing input' /tmp/leadchat-fuzz.log; then \
				budget=$(FUZZ_RETRY_EXECS); echo "fuzz $$pkg $$fn: the fuzzer missed its deadline without a finding; once more for $$budget executions"; continue; fi; \
			tail -30 /tmp/leadchat-fuzz.log; exit 1; \
		done; \
	done

## soak-short: the fault test (internal/soak) for 15 s: clients create leads while the server is
## killed with SIGKILL, the database restarted and webhook receivers fail at random, then every 201
## is checked against the database and every stored lead must reach each receiver as lead.created.
## Its files build only with the tag soak: it is these targets' test, not one that `go test ./...`
## skips. soak: the same for SOAK_DURATION (60 s).
SOAK_DURATION ?= 60s
.PHONY: soak soak-short
soak-short:
	$(GO) test -tags soak -count=1 -timeout 5m -run '^TestSoak$$' ./internal/soak/ -v

soak:
	$(GO) test -tags soak -count=1 -timeout 15m -run '^TestSoak$$' ./internal/soak/ -v -soak.duration=$(SOAK_DURATION)

## hostile-short: the hostile run (internal/soak, TestHostile) for 10 s: made-up methods of up to
## 30 KiB, fake keys, IPv6 addresses rotating behind the trusted proxy, slow headers and idle
## connections, made-up one-time links while the owner logs in, webhook receivers answering
## 1 MiB of headers or never answering, a list of 1,000 new-lead addresses, crafted list cursors
## and 4 parallel CSV exports of one company, while real leads flow; fails unless the server's
## RSS stays under 64 MiB, every acknowledged lead is stored, refused keys cost at most one
## database lookup each, every owner's login is answered within 2 s, a healthy company's
## webhooks and e-mails arrive with p99 under 2 s beside the attackers, every crafted cursor is
## a 400 and every export a whole file or a 429.
## hostile: the same for HOSTILE_DURATION (60 s).
HOSTILE_DURATION ?= 60s
.PHONY: hostile hostile-short
hostile-short:
	$(GO) test -tags soak -count=1 -timeout 5m -run '^TestHostile$$' ./internal/soak/ -v

hostile:
	$(GO) test -tags soak -count=1 -timeout 15m -run '^TestHostile$$' ./internal/soak/ -v -hostile.duration=$(HOSTILE_DURATION)

## scale-test: two instances behind HAProxy on a PostgreSQL primary and standby under
## pg_auto_failover (internal/soak, TestScale): leads and chat messages through the balancer while
## the primary is killed and the standby promoted; fails on a lost or doubled lead or message, a
## live message the visitor's stream on the other instance misses or repeats, a change one
## instance makes that the other misses for a second (live messages both ways: p99 printed), or
## a shared rate limit off by more than 10%. Needs apt-get install postgresql-15-auto-failover pg-auto-failover-cli haproxy.
## SCALE_PHASE: the load before the kill and after the recovery (8s each).
SCALE_PHASE ?= 8s
.PHONY: scale-test
scale-test:
	$(GO) test -tags soak -count=1 -timeout 10m -run '^TestScale$$' ./internal/soak/ -v -scale.phase=$(SCALE_PHASE)

## bench: leadchat against the machine's own ceilings (pgbench, a minimal net/http server) at 1,
## 16 and 64 connections, on a durable PostgreSQL of its own, and 5,000 open chat streams with a
## person's messages to them through one and two instances; writes internal/bench/results/.
## BENCHFLAGS: -duration 10s, -conns 1,16,64, -cpuprofile DIR, -pgbench-mode prepared, -only streams
.PHONY: bench bench-smoke
bench:
	$(GO) run ./internal/bench/run $(BENCHFLAGS)

## bench-smoke: every bench step for a second, to keep the bench working (CI); asserts no figure
bench-smoke:
	$(GO) run ./internal/bench/run -smoke
