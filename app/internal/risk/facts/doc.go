// Package facts holds what the analyzers of every language know of the
// Mac, as data: the scriptable applications and their commands, terminal
// applications, URL schemes, the kinds of file that run code when opened,
// and the menu commands whose choice matters.
//
// Its tables are literals: nothing adds to them at run time, and the
// compiler refuses a duplicate key. Where a fact is rated, the rating is
// the floor every language applies. Where secrets are kept is not here:
// package sanitize owns those places (its credential zone), for the
// sanitiser and the analyzers alike.
package facts
