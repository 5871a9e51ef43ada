// Package rate is what the analyzers of every language share: the Verdict
// and its Reasons, the Env they learn the machine from, the Bounds of one
// assessment (its budget, its depth, its stop), the zones of paths, the
// guard that keeps every action off Airlock's own files and gate, and
// Languages, the interface through which a script nested in one language
// reaches the analyzer of another.
//
// It knows no language's syntax and no program's rules: those belong to
// the language packages, and the facts they share to package facts. Like
// every analyzer, what it decides fails closed: a path or a nested script
// it cannot read is never made Safe here.
package rate
