// Airlock puts a safety gate between LLM-driven automation and a Mac.
//
// Where things live:
//
//	app/                 the airlock program; main.go only wires packages and subcommands
//	app/internal/level   the one risk scale (safe … destructive, blocked)
//	app/internal/action  the Action DSL: command registry, parser, printer, previews
//	app/internal/sanitize argument rules: control characters, traversal, system and
//	                     credential paths, persistence locations, sandbox roots, sizes
//	app/internal/risk    the analyzers: DSL plans, AppleScript, JXA, shell
//	app/internal/risk/rate  what every analyzer shares: verdicts, Env, bounds,
//	                     path zones, the guard of Airlock's own files, and
//	                     Languages, the way to a nested script's analyzer
//	app/internal/risk/shell the shell analyzer; its rules are one table, table.go
//	app/internal/risk/facts the facts they share, as tables: applications,
//	                     terminals, URL schemes, runnable file types, menu labels
//	app/internal/automation the person's scheduled automations: schedules,
//	                     the scheduler (runs them through the gate), the
//	                     Book of changes (adding or turning on asks the person)
//	app/internal/dashboard the browser's dashboard on 127.0.0.1: history by request, automations
//	app/internal/risk/jxa   JavaScript for Automation; its rules are one table
//	                     (rules.go: a row per method with its level and rule id)
//	app/internal/risk/applescript the AppleScript analyzer (ASObjC too); its
//	                     rules are one table, table.go
//	bridge/              platform code (darwin, linux); no policy
//	glyph/               which characters a person cannot read as themselves
//	                     (look-alike letters, blanks), for bridge's popups and
//	                     sanitize's messages alike
//	bridge/darwincheck   type-checks the darwin build on any OS
//
// The layers point one way: app/main.go → app/internal/* → bridge.
package airlock
