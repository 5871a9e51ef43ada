# Airlock. `make help` lists the targets.
GO      ?= go
BIN     := bin/airlock
# The sandbox's launcher, beside airlock (the gate runs it to confine each
# action; app/cmd/airlock-launch). On Linux it is built without cgo: a
# static binary starts without the dynamic loader.
LAUNCHER := bin/airlock-launch
LAUNCHER_PKG := ./app/cmd/airlock-launch
PKGS    := ./...
FUZZTIME ?= 30s

.PHONY: help build run test staticcheck check-darwin bench fuzz fmt vet corpus app sign notarize install uninstall autostart autostart-off man

# The bundle (issue 5). VERSION goes into the binary; the plist takes X.Y.Z
# from the newest tag and the commit count as its build number.
VERSION  := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMITS  := $(shell git rev-list --count HEAD 2>/dev/null || echo 0)
LDFLAGS  := -X main.version=$(VERSION)
BUNDLE   := bin/Airlock.app
UNAME    := $(shell uname -s)
IDENTITY ?=
NOTARY_PROFILE ?=

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-14s %s\n", $$1, $$2}'

build: ## build bin/airlock and the sandbox's launcher beside it, bin/airlock-launch
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./app
	$(if $(filter Linux,$(UNAME)),CGO_ENABLED=0 )$(GO) build -o $(LAUNCHER) $(LAUNCHER_PKG)

ARGS ?=

run: $(if $(filter Darwin,$(UNAME)),app,build) ## build and start the menu-bar app (macOS: opens bin/Airlock.app; Linux: bin/airlock [ARGS])
ifeq ($(UNAME),Darwin)
	open $(BUNDLE)
else
	./$(BIN) $(ARGS)
endif

app: ## bin/Airlock.app: Info.plist rendered and validated; on macOS a universal binary (lipo) signed ad hoc
	rm -rf $(BUNDLE)
	mkdir -p $(BUNDLE)/Contents/MacOS $(BUNDLE)/Contents/Resources
	$(GO) run ./app/internal/bundle/render -describe '$(VERSION)' -commits '$(COMMITS)' \
	  -entitlements entitlements.plist -o $(BUNDLE)/Contents/Info.plist Info.plist.tmpl
	cp assets/*.png $(BUNDLE)/Contents/Resources/
ifeq ($(UNAME),Darwin)
	CGO_ENABLED=1 GOOS=darwin GOARCH=arm64 $(GO) build -ldflags '$(LDFLAGS)' -o bin/airlock-darwin-arm64 ./app
	CGO_ENABLED=1 GOOS=darwin GOARCH=amd64 $(GO) build -ldflags '$(LDFLAGS)' -o bin/airlock-darwin-amd64 ./app
	lipo -create -output $(BUNDLE)/Contents/MacOS/airlock bin/airlock-darwin-arm64 bin/airlock-darwin-amd64
	CGO_ENABLED=1 GOOS=darwin GOARCH=arm64 $(GO) build -o bin/airlock-launch-darwin-arm64 $(LAUNCHER_PKG)
	CGO_ENABLED=1 GOOS=darwin GOARCH=amd64 $(GO) build -o bin/airlock-launch-darwin-amd64 $(LAUNCHER_PKG)
	lipo -create -output $(BUNDLE)/Contents/MacOS/airlock-launch bin/airlock-launch-darwin-arm64 bin/airlock-launch-darwin-amd64
	plutil -lint $(BUNDLE)/Contents/Info.plist entitlements.plist
	codesign --force --options runtime --sign - $(BUNDLE)/Contents/MacOS/airlock-launch
	codesign --force --options runtime --entitlements entitlements.plist --sign - $(BUNDLE)
	codesign --verify --strict --verbose=2 $(BUNDLE)
else
	@echo "app: $(BUNDLE) laid out with a valid Info.plist; the binary is built and signed only on macOS"
endif

# Installing (issue 26): the program under PREFIX (the MCP snippets in the
# README name /usr/local/bin/airlock); on macOS the bundle too, in APPDIR,
# with PREFIX/bin/airlock a link to its binary. DESTDIR stages a package.
PREFIX  ?= /usr/local
APPDIR  ?= /Applications
DESTDIR ?=
AUTOSTART_DESKTOP = $${XDG_CONFIG_HOME:-$$HOME/.config}/autostart/airlock.desktop
AUTOSTART_AGENT   = $$HOME/Library/LaunchAgents/dev.airlock.Airlock.plist

# The shell completions and the man pages are made by the program itself
# (cobra's generators, from the table its --help comes from): GEN is the
# program just built for this machine.
GEN        = $(if $(filter Darwin,$(UNAME)),$(BUNDLE)/Contents/MacOS/airlock,$(BIN))
MAN1DIR    = $(DESTDIR)$(PREFIX)/share/man/man1
BASHCOMP   = $(DESTDIR)$(PREFIX)/share/bash-completion/completions/airlock
ZSHCOMP    = $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_airlock
FISHCOMP   = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/airlock.fish

install: $(if $(filter Darwin,$(UNAME)),app,build) ## install airlock and airlock-launch in PREFIX/bin (default /usr/local; macOS: Airlock.app, which holds both, in APPDIR, default /Applications), its man pages and its bash, zsh and fish completions
	install -d "$(DESTDIR)$(PREFIX)/bin"
ifeq ($(UNAME),Darwin)
	install -d "$(DESTDIR)$(APPDIR)"
	rm -rf "$(DESTDIR)$(APPDIR)/Airlock.app"
	ditto $(BUNDLE) "$(DESTDIR)$(APPDIR)/Airlock.app"
	ln -sf "$(APPDIR)/Airlock.app/Contents/MacOS/airlock" "$(DESTDIR)$(PREFIX)/bin/airlock"
else
	install -m 0755 $(LAUNCHER) "$(DESTDIR)$(PREFIX)/bin/airlock-launch"
	install -m 0755 $(BIN) "$(DESTDIR)$(PREFIX)/bin/airlock"
endif
	$(GEN) man "$(MAN1DIR)"
	install -d "$$(dirname "$(BASHCOMP)")" "$$(dirname "$(ZSHCOMP)")" "$$(dirname "$(FISHCOMP)")"
	$(GEN) completion bash > "$(BASHCOMP)"
	$(GEN) completion zsh > "$(ZSHCOMP)"
	$(GEN) completion fish > "$(FISHCOMP)"
	@echo "installed: $(DESTDIR)$(PREFIX)/bin/airlock (and airlock-launch beside it), its man pages and completions (make autostart starts it at login; make uninstall removes it)"

man: build ## write the man pages (airlock.1 and one for each command) into bin/man: man bin/man/airlock.1
	rm -rf bin/man
	$(BIN) man bin/man

uninstall: autostart-off ## remove what make install put in PREFIX (and APPDIR), and the login item
	rm -f "$(DESTDIR)$(PREFIX)/bin/airlock" "$(DESTDIR)$(PREFIX)/bin/airlock-launch" "$(MAN1DIR)/airlock.1" "$(MAN1DIR)"/airlock-*.1
	rm -f "$(BASHCOMP)" "$(ZSHCOMP)" "$(FISHCOMP)"
ifeq ($(UNAME),Darwin)
	rm -rf "$(DESTDIR)$(APPDIR)/Airlock.app"
endif
	@echo "uninstalled; Airlock's data (settings, history) stays where it is: see the README to remove it"

autostart: ## start the installed Airlock at login (macOS: a LaunchAgent; Linux: an XDG autostart entry)
ifeq ($(UNAME),Darwin)
	@test -d "$(APPDIR)/Airlock.app" || { echo "autostart: $(APPDIR)/Airlock.app is not installed: make install first"; exit 1; }
	mkdir -p "$$HOME/Library/LaunchAgents"
	printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' \
	  '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">' \
	  '<plist version="1.0"><dict>' \
	  '<key>Label</key><string>dev.airlock.Airlock</string>' \
	  '<key>ProgramArguments</key><array><string>/usr/bin/open</string><string>-a</string><string>$(APPDIR)/Airlock.app</string></array>' \
	  '<key>RunAtLoad</key><true/>' \
	  '</dict></plist>' > "$(AUTOSTART_AGENT)"
	plutil -lint "$(AUTOSTART_AGENT)"
	@echo "autostart: $(AUTOSTART_AGENT) (launchd loads it at the next login)"
else
	@test -x "$(PREFIX)/bin/airlock" || { echo "autostart: $(PREFIX)/bin/airlock is not installed: make install first"; exit 1; }
	mkdir -p "$$(dirname "$(AUTOSTART_DESKTOP)")"
	printf '%s\n' '[Desktop Entry]' 'Type=Application' 'Name=Airlock' \
	  'Comment=The safety gate between agents and this computer' \
	  'Exec=$(PREFIX)/bin/airlock' 'Terminal=false' 'X-GNOME-Autostart-enabled=true' > "$(AUTOSTART_DESKTOP)"
	@echo "autostart: $(AUTOSTART_DESKTOP)"
endif

autostart-off: ## stop starting Airlock at login
ifeq ($(UNAME),Darwin)
	rm -f "$(AUTOSTART_AGENT)"
else
	rm -f "$(AUTOSTART_DESKTOP)"
endif

sign: app ## sign bin/Airlock.app with a Developer ID: make sign IDENTITY="Developer ID Application: NAME (TEAM)"
	@test "$(UNAME)" = Darwin || { echo "sign: needs macOS (codesign)"; exit 1; }
	@test -n "$(IDENTITY)" || { echo 'sign: set IDENTITY="Developer ID Application: NAME (TEAMID)"'; exit 1; }
	codesign --force --timestamp --options runtime --sign "$(IDENTITY)" $(BUNDLE)/Contents/MacOS/airlock-launch
	codesign --force --timestamp --options runtime --entitlements entitlements.plist --sign "$(IDENTITY)" $(BUNDLE)
	codesign --verify --strict --verbose=2 $(BUNDLE)

notarize: ## notarise and staple a signed bundle: make notarize NOTARY_PROFILE=NAME (xcrun notarytool store-credentials)
	@test "$(UNAME)" = Darwin || { echo "notarize: needs macOS (xcrun notarytool)"; exit 1; }
	@test -n "$(NOTARY_PROFILE)" || { echo "notarize: set NOTARY_PROFILE (see README: Signing and notarising)"; exit 1; }
	ditto -c -k --keepParent $(BUNDLE) bin/Airlock.zip
	xcrun notarytool submit bin/Airlock.zip --keychain-profile "$(NOTARY_PROFILE)" --wait
	xcrun stapler staple $(BUNDLE)
	spctl --assess --type exec --verbose $(BUNDLE)

test: ## gofmt check, go mod tidy check, go vet, staticcheck, go test -race, and the darwin type-check
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt: these files need formatting:"; echo "$$out"; exit 1; fi
	@$(GO) mod tidy -diff || { echo "go mod tidy would change go.mod or go.sum (above): run go mod tidy and commit the result"; exit 1; }
	$(GO) vet $(PKGS)
	$(MAKE) --no-print-directory staticcheck
	$(GO) test -race -timeout 30m $(PKGS)
	$(MAKE) --no-print-directory check-darwin

# staticcheck, pinned: the module proxy refuses @latest for some modules, and
# a new release may bring new checks. (govulncheck is left out: it needs its
# vulnerability database from the internet, which CI cannot reach.)
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

staticcheck: ## run staticcheck (pinned) on every package
	$(GO) run $(STATICCHECK) $(PKGS)

check-darwin: ## type-check the darwin build (arm64 and amd64) on any OS
	$(GO) run ./bridge/darwincheck

# BENCHOUT keeps each bench run's output for benchtable, which prints issue
# 25's figures beside their references last. A run's exit status survives
# its tee (sh has no pipefail): it is written to a .rc file and exited with.
BENCHOUT ?= bin/bench
bench_tee = { $(1) 2>&1; echo $$? >$(BENCHOUT)/$(2).rc; } | tee $(BENCHOUT)/$(2).txt; exit $$(cat $(BENCHOUT)/$(2).rc)

bench: ## run the benchmarks (analyzers, parser, gate, history, executor, socket, MCP, menu, bridge, popup to visible, model client, redaction, sandbox start, the copy-on-write view of unasked actions), then issue 25's figures beside their references
	@mkdir -p $(BENCHOUT) && rm -f $(BENCHOUT)/*.txt $(BENCHOUT)/*.rc $(BENCHOUT)/pairs.out
	@$(call bench_tee,$(GO) test -timeout 60m -run '^$$' -bench . -benchmem -count 5 ./app/internal/risk,risk)
	@# The peer of the AppleScript benchmarks, right after them: seed 000's regex table in Node.
	@if command -v node >/dev/null 2>&1; then $(call bench_tee,node app/internal/risk/testdata/peer/seed000.js -count 5,peer); \
	else echo "bench: node is not installed: peer skipped (app/internal/risk/testdata/peer/seed000.js)"; fi
	@$(call bench_tee,$(GO) test -timeout 60m -run '^$$' -bench . -benchmem -count 5 ./app/internal/action \
	  ./app/internal/gate ./app/internal/history ./app/internal/execute ./app/internal/ipc ./app/internal/mcp \
	  ./app/internal/tray ./bridge ./app/internal/llm ./app/internal/redact ./app/internal/sandbox,rest)
	@# go test's default 10-minute timeout is per package: the executor's benchmarks, five counts
	@# each, take 10 minutes on a loaded 2-core machine, hence -timeout 60m above.
	@# The gate's durable figures and the history store's own, in alternating rounds, so that
	@# each ratio compares figures the disk's other work weighed on alike.
	@for i in 1 2 3 4 5; do \
	  $(GO) test -run '^$$' -bench 'AutoApprovedAction|ConcurrentSubmitters' -count 1 ./app/internal/gate || exit 1; \
	  $(GO) test -run '^$$' -bench 'ActionRecords' -count 1 ./app/internal/history || exit 1; \
	done >$(BENCHOUT)/pairs.out 2>&1 || { cat $(BENCHOUT)/pairs.out; exit 1; }
	$(GO) run ./app/internal/benchtable -pairs $(BENCHOUT)/pairs.out $(BENCHOUT)/*.txt

fuzz: ## run every fuzz target for FUZZTIME each (default 30s)
	@for spec in \
	  ./app/internal/action:FuzzParse \
	  ./app/internal/sanitize:FuzzPath \
	  ./app/internal/sanitize:FuzzText \
	  ./app/internal/sanitize:FuzzApp \
	  ./app/internal/sanitize:FuzzPattern \
	  ./app/internal/risk:FuzzAppleScriptLexer \
	  ./app/internal/risk:FuzzAppleScript \
	  ./app/internal/risk/applescript:FuzzLexIndex \
	  ./app/internal/risk/applescript:FuzzPathUse \
	  ./app/internal/risk/applescript:FuzzLexAsBefore \
	  ./app/internal/risk/applescript:FuzzFoldAsBefore \
	  ./app/internal/risk/applescript:FuzzGuardMemo \
	  ./app/internal/risk/applescript:FuzzCollectAsBefore \
	  ./app/internal/risk/rate:FuzzFormatWarning \
	  ./app/internal/risk/rate:FuzzHFSToPOSIX \
	  ./app/internal/risk/rate:FuzzSecurityPrompt \
	  ./app/internal/risk/rate:FuzzStringGuards \
	  ./app/internal/risk/rate:FuzzNestingAsBefore \
	  ./app/internal/risk:FuzzShell \
	  ./app/internal/risk/shell:FuzzQuickParse \
	  ./app/internal/risk:FuzzJXA \
	  ./app/internal/risk:FuzzDSL \
	  ./app/internal/risk:FuzzRunFiles \
	  ./app/internal/execute:FuzzPEMPrivateKey \
	  ./app/internal/execute:FuzzLoadsOf \
	  ./app/internal/risk/interp:FuzzScan \
	  ./app/internal/risk/interp:FuzzReadOnly \
	  ./app/internal/risk/shell:FuzzClientText \
	  ./app/internal/risk/shell:FuzzTmuxText \
	  ./app/internal/ipc:FuzzDecode \
	  ./app/internal/dashboard:FuzzParseFilter \
	  ./app/internal/dashboard:FuzzSplitText \
	  ./app/internal/gate:FuzzLineRedactor \
	  ./app/internal/mcp:FuzzClientName \
	  ./app/internal/mcp:FuzzBound \
	  ./app/internal/policy:FuzzParseSettings \
	  ./app/internal/policy:FuzzParseHotkey \
	  ./app/internal/automation:FuzzParseSchedule \
	  ./app/internal/automation:FuzzDecodeList \
	  ./app/internal/bundle:FuzzValidate \
	  ./app/internal/execute:FuzzTrashPath \
	  ./app/internal/execute:FuzzRootOf \
	  ./app/internal/execute:FuzzGitConfigKeys \
	  ./app/internal/execute:FuzzGitValue \
	  ./app/internal/execute:FuzzParseIndex \
	  ./app/internal/execute:FuzzReadLoose \
	  ./app/internal/execute:FuzzSecretInPack \
	  ./app/internal/execute:FuzzSecretInBundle \
	  ./app/internal/execute:FuzzApplyDelta \
	  ./app/internal/execute:FuzzSecretInTree \
	  ./app/internal/sandbox:FuzzReadLayer \
	  ./app/internal/redact:FuzzRedact \
	  ./app/internal/redact:FuzzKeywordScan \
	  ./app/internal/redact:FuzzHeads \
	  ./app/internal/sandbox:FuzzReveals \
	  ./app/internal/sandbox/launcher:FuzzReadSpec \
	  ./bridge:FuzzShown \
	  ./bridge:FuzzAppleScriptString \
	  ./bridge:FuzzHelperAnswer \
	  ./bridge:FuzzHelperRequest \
	  ./bridge:FuzzExec \
	  ./app/internal/llm:FuzzExtract \
	  ./app/internal/llm:FuzzDecodeStreams \
	  ./app:FuzzGoStyleFlags ; do \
	  pkg=$${spec%%:*}; fn=$${spec##*:}; \
	  echo "== $$fn ($$pkg)"; \
	  $(GO) test -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	done

# The scoring corpus is not part of the repository: CORPUS names its folder,
# which holds corpus/public-scripts.jsonl and tools/score.py.
CORPUS ?=

corpus: build ## score the analyzers on a labelled corpus: make corpus CORPUS=DIR (DIR/corpus/public-scripts.jsonl, DIR/tools/score.py; needs python3)
	@test -n "$(CORPUS)" || { echo 'corpus: set CORPUS to the folder with corpus/public-scripts.jsonl and tools/score.py: make corpus CORPUS=/path/to/it'; exit 2; }
	@test -f "$(CORPUS)/corpus/public-scripts.jsonl" -a -f "$(CORPUS)/tools/score.py" || { echo 'corpus: $(CORPUS) lacks corpus/public-scripts.jsonl or tools/score.py'; exit 2; }
	./$(BIN) assess --jsonl < "$(CORPUS)/corpus/public-scripts.jsonl" > bin/verdicts.jsonl
	python3 "$(CORPUS)/tools/score.py" "$(CORPUS)/corpus/public-scripts.jsonl" bin/verdicts.jsonl
