# leadchat: `make run` starts everything on this machine, `make test` proves it.
SHELL := /bin/bash
GO    ?= go
SPEC  := api/openapi.yaml

.PHONY: run test build generate check-generated vet lint-go clean

## run: a local PostgreSQL, migrations, a demo company with keys, the demo page, the service
run:
	$(GO) run ./cmd/leadchat dev

## test: vet, generated-code drift, and every test against a real PostgreSQL and Chromium
test: vet check-generated
	$(GO) test -count=1 -timeout 20m ./...
	cd clients/go && $(GO) vet ./... && $(GO) test -count=1 ./...

build:
	$(GO) build -o bin/leadchat ./cmd/leadchat

## generate: rebuild gen/ and clients/go/ from the spec
generate:
	$(GO) tool oapi-codegen -config gen/api/server.cfg.yaml $(SPEC)
	$(GO) tool oapi-codegen -config gen/api/client.cfg.yaml $(SPEC)

## check-generated: fail when gen/ or clients/go/ differ from what the spec generates
check-generated:
	@tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	sed "s#^output: .*#output: $$tmp/api.gen.go#" gen/api/server.cfg.yaml > $$tmp/server.cfg.yaml && \
	sed "s#^output: .*#output: $$tmp/client.gen.go#" gen/api/client.cfg.yaml > $$tmp/client.cfg.yaml && \
	$(GO) tool oapi-codegen -config $$tmp/server.cfg.yaml $(SPEC) && \
	$(GO) tool oapi-codegen -config $$tmp/client.cfg.yaml $(SPEC) && \
	if ! diff -u gen/api/api.gen.go $$tmp/api.gen.go || ! diff -u clients/go/client.gen.go $$tmp/client.gen.go; then \
		echo "generated code is out of date with $(SPEC): run 'make generate' and commit" >&2; exit 1; \
	fi; echo "generated code matches $(SPEC)"

vet:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go') | grep -v '^gen/\|\.gen\.go$$'); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

clean:
	rm -rf bin
