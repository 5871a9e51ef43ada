// Package history owns Airlock's record of what happened: every request
// (which client, what plan), every action's assessment and decision (with
// the autonomy level in force), its approval and result, and every model
// call. It keeps them in one SQLite file through go-sqlite3, sealed and
// hash-chained, and it is the only code that reads or writes that file.
//
// It must never write anything readable in clear that could hold a secret,
// and never open without its key: when the key store is locked or missing,
// Open fails with an error wrapping secrets.ErrUnavailable and writes
// nothing.
//
// # What is stored, and how
//
// Five tables: requests, decisions, outcomes, model_calls and changes (what
// an action run unasked changed on disk, added by schema 4: kind, status,
// sizes and modes in clear, its paths, hashes and Trash locations sealed
// unredacted, since undo needs them exact). A request
// keeps both the name its client gave itself and the client's program as
// the operating system vouched for it (program, added by schema 2; rows
// chained before it leave it out of their link), and, for a plan the person
// edited in the approval popup, the request it replaced and who edited it
// there (edit_of and edited_by, added by schema 3 the same way; the
// replaced request's actions end with the approval and status "edited"). Every text field passes
// redact.String first. Enumerations (decision, approval, status) are
// checked against their fixed sets instead. Then the fields
// that can carry content — plan text, action text, preview, reasons,
// output, error (of an output or error over 64 KiB, its first and last
// 32 KiB: kept) — are sealed with AES-256-GCM: a fresh random nonce per
// value, and associated data binding the table, the row's sequence number,
// the column and the key id, so a sealed value copied into another row or
// column no longer opens. What stays in clear is what `airlock history`
// needs to list and join: ids, times, client, program, kind, edit link and
// editor, risk level,
// autonomy level, decision, approval, status, durations, endpoint, HTTP
// status and token counts.
//
// The key is 32 random bytes made on first run and kept in the key store
// (the Keychain on macOS) under KeyName(id), never in a file. The sealing
// key and the chain key are derived from it with HKDF. Each row names its
// key id, so Rotate starts a new key for new rows while old rows still
// open with theirs; keys are never deleted by this package.
//
// # The audit chain
//
// Every row of every table is an audit row. Rows carry a sequence number
// (seq) that is global across the tables and given by this package,
// not by SQLite, so VACUUM cannot renumber it. Each row stores
//
//	link(n) = HMAC-SHA256(chain key, link(n-1) ‖ table ‖ seq ‖ key id ‖ every column, sealed ones as stored)
//
// with link(0) a hash of the database's random id. The chain is keyed:
// someone who can write the file but not read the key store cannot
// recompute the links after an edit. The head of the chain (last seq and
// link) is kept in the meta table under its own HMAC, updated in the same
// transaction as the rows, and on Close it is also anchored in the key
// store.
//
// Verify walks all rows in seq order and names every row that fails: a
// sealed value that does not open (altered, or moved from another row), a
// link that does not match (a row edited, inserted, or reordered), a gap
// in seq (a row deleted), a seq used twice, and a head that does not match
// the last row (rows cut from the end). An anchored head that is missing
// or differs means the file was cut short or rolled back. The anchor is
// written every 32 rows as well as at Close (current.go says why not at
// every row).
//
// The key store also names the database kept at each history path. A file
// that is another database (a history swapped in) is refused by Open and
// reported by Verify; a missing file makes a new history, which Verify
// reports as having started over, naming the one that went missing; and
// VerifyFile reports a history the key store names that is not there.
//
// Open runs the cheap part of this check (head, last row, anchor) and
// refuses a history whose end does not match, with an error wrapping
// ErrTampered: the gate then cannot record and so cannot run, until the
// person looks at `airlock audit verify` and moves the file aside.
//
// What the chain cannot detect: rolling the file back to a copy made after
// the last anchor (at most 32 rows, or what came after a crash); and
// anything done by someone who can read or write the key store, who can
// re-seal, re-chain and re-anchor at will (the analyzers block every
// action that names Airlock's key-store items). It protects the record against tampering with the file, not
// against the user's own account once its Keychain is open to an attacker.
//
// # Reading
//
// Recent lists the newest actions (`airlock history`, the menu); Request
// reads one request; Groups reads whole requests — the request, its model
// calls and its actions in plan order — selected by client, risk, outcome
// and time (the dashboard). Every read opens what it returns and fails
// with a *TamperError naming the row whose sealed value does not open.
//
// # Writing
//
// One goroutine owns the write connection. Add* calls hand their record to
// it and wait; it takes every record pending, writes them in one IMMEDIATE
// transaction with synchronous=FULL (group commit), and each caller returns
// only after the transaction holding its record has committed. If a batch
// fails, each record is retried alone so one bad record fails only its own
// caller. QueueRequest and QueueDecision hand a record over without waiting
// (Pending.Wait waits). The writer takes records in the order they were
// handed over, so a caller that queues a request and then its decisions has
// them chained in that order, in one commit when the writer had not begun
// the request's yet; a decision whose request did not commit fails (its
// foreign key). Before each batch the writer rereads the head from the
// file, so a second writer (another process) is serialised by SQLite's lock
// rather than forking the chain.
package history
