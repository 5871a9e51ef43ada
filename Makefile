# Airlock. `make help` lists the targets.
GO      ?= go
BIN     := bin/airlock
PKGS    := ./...
FUZZTIME ?= 30s

.PHONY: help build run test check-darwin bench fuzz fmt vet corpus

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-14s %s\n", $$1, $$2}'

build: ## build bin/airlock
	$(GO) build -o $(BIN) ./app

ARGS ?= serve --prompter=terminal

run: build ## build and start airlock (today: the gate, asking on this terminal; ARGS= to change)
	./$(BIN) $(ARGS)

test: ## gofmt check, go vet, go test -race, and the darwin type-check
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt: these files need formatting:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) test -race $(PKGS)
	$(MAKE) --no-print-directory check-darwin

check-darwin: ## type-check the darwin build (arm64 and amd64) on any OS
	$(GO) run ./bridge/darwincheck

bench: ## run the benchmarks (analyzers, parser, gate, history, executor, socket, model client)
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./app/internal/risk ./app/internal/action \
	  ./app/internal/gate ./app/internal/history ./app/internal/execute ./app/internal/ipc \
	  ./app/internal/llm

fuzz: ## run every fuzz target for FUZZTIME each (default 30s)
	@for spec in \
	  ./app/internal/action:FuzzParse \
	  ./app/internal/sanitize:FuzzPath \
	  ./app/internal/sanitize:FuzzText \
	  ./app/internal/risk:FuzzAppleScriptLexer \
	  ./app/internal/risk:FuzzAppleScript \
	  ./app/internal/risk:FuzzShell \
	  ./app/internal/risk:FuzzJXA \
	  ./app/internal/risk:FuzzDSL \
	  ./app/internal/ipc:FuzzDecode \
	  ./app/internal/approval:FuzzVisible \
	  ./app/internal/policy:FuzzParseSettings \
	  ./app/internal/execute:FuzzTrashPath \
	  ./app/internal/llm:FuzzExtract \
	  ./app/internal/llm:FuzzDecodeStreams ; do \
	  pkg=$${spec%%:*}; fn=$${spec##*:}; \
	  echo "== $$fn ($$pkg)"; \
	  $(GO) test -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	done

corpus: build ## score the analyzers on ../shared/corpus (needs python3)
	./$(BIN) assess --jsonl < ../shared/corpus/public-scripts.jsonl > /tmp/airlock-verdicts.jsonl
	python3 ../shared/tools/score.py ../shared/corpus/public-scripts.jsonl /tmp/airlock-verdicts.jsonl
