#!/usr/bin/env node
// The peer of the AppleScript benchmarks: seed 000's safety check as its
// source has it (repository adamrdrew/applescript-mcp, src/tools/execute.ts:
// DANGEROUS_PATTERNS and analyzeScriptSafety). Its 15 regular expressions
// are reproduced below, in the source's order and with its flags (each is
// case-insensitive, none global or sticky, so test() keeps no state between
// calls), and matched as the source matches them: every pattern is tried
// against the whole script, none stops the scan, each match adds its warning
// and raises the risk. The harness around them is this project's own.
//
// It times the inputs BenchmarkAppleScript2KB and BenchmarkAppleScriptSize
// time (bench_test.go), built the same way: the script in
// ../bench/tidy.applescript repeated and cut to n bytes. It prints Go
// benchmark lines, so its figures sit beside Go's:
//
//	node app/internal/risk/testdata/peer/seed000.js [-count N] [-benchtime 1s] [-bench regexp]
//
// Nothing here is Airlock's analysis: the peer is the speed Airlock's full
// analysis must match, not a judge of its verdicts.
'use strict';

const fs = require('fs');
const path = require('path');

// The seed's table, row for row in the source's order: [risk, pattern,
// warning]. The patterns are the source's exactly (facts about the seed,
// for a fair comparison); the warnings are shortened, as only their number
// is used here.
const PATTERNS = [
  ['critical', /\bdelete\s+(every|all)\s+(file|folder|item|document)/i, 'BULK DELETE'],
  ['high', /\bdelete\s+(file|folder|item|document)/i, 'DELETE'],
  ['critical', /\bempty\s+(the\s+)?trash/i, 'EMPTY TRASH'],
  ['high', /\bmove\s+(every|all)\s+(file|folder|item)/i, 'BULK MOVE'],
  ['medium', /\bduplicate\s+(every|all)\s+(file|folder|item)/i, 'BULK DUPLICATE'],
  ['high', /\b(shutdown|restart|sleep)\b/i, 'SYSTEM POWER'],
  ['high', /\bdo\s+shell\s+script\b/i, 'SHELL COMMAND'],
  ['critical', /\bdo\s+shell\s+script\s+"[^"]*\b(rm|sudo|chmod|chown|mkfs|dd|format)\b/i, 'DANGEROUS SHELL COMMAND'],
  ['medium', /\bkeystroke\b/i, 'KEYSTROKE'],
  ['medium', /\bkey\s+code\b/i, 'KEY CODE'],
  ['critical', /\bsend\s+(every|all)\s+(message|mail|email)/i, 'BULK EMAIL'],
  ['medium', /\bsend\b.*\boutgoing\s+message\b/i, 'SEND EMAIL'],
  ['critical', /\bdelete\s+(every|all)\s+(event|reminder|calendar)/i, 'BULK DELETE CALENDAR'],
  ['critical', /\bdelete\s+(every|all)\s+(note|contact)/i, 'BULK DELETE'],
  ['high', /\bquit\s+(every|all)\s+application/i, 'QUIT ALL APPS'],
];

const RANK = { none: 0, low: 1, medium: 2, high: 3, critical: 4 };

// analyzeScriptSafety is the seed's algorithm: every pattern is tried in
// order with test(), every match adds its warning and raises the risk to
// its row's if that is higher.
function analyzeScriptSafety(script) {
  let risk = 'none';
  const warnings = [];
  for (const [level, re, warning] of PATTERNS) {
    if (re.test(script)) {
      warnings.push(warning);
      if (RANK[level] > RANK[risk]) risk = level;
    }
  }
  return {
    safe: risk === 'none' || risk === 'low',
    risk,
    warnings,
    requiresConfirmation: risk === 'high' || risk === 'critical',
  };
}

// The rows' own examples: the table must rate each as its row says, or the
// figures below would time a broken peer.
const SELF_TEST = [
  ['tell application "Finder" to delete every file of desktop', 'critical'],
  ['tell application "Finder" to empty the trash', 'critical'],
  ['tell application "Calendar" to delete all events', 'critical'],
  ['tell application "Notes" to delete every note', 'critical'],
  ['tell application "Mail" to send all messages', 'critical'],
  ['do shell script "sudo purge"', 'critical'],
  ['tell application "Finder" to delete file "a.txt"', 'high'],
  ['tell application "Finder" to move every file of desktop to trash', 'high'],
  ['tell application "System Events" to Restart', 'high'],
  ['do shell script "ls ~"', 'high'],
  ['tell application "System Events" to quit every application', 'high'],
  ['tell application "Finder" to duplicate every item of desktop', 'medium'],
  ['tell application "System Events" to keystroke "a"', 'medium'],
  ['tell application "System Events" to key code 36', 'medium'],
  ['tell application "Mail" to send the outgoing message', 'medium'],
  ['display dialog "hello"', 'none'],
];

function selfTest() {
  for (const [script, want] of SELF_TEST) {
    const got = analyzeScriptSafety(script).risk;
    if (got !== want) {
      throw new Error(`seed000.js: the table rates ${JSON.stringify(script)} ${got}, want ${want}`);
    }
  }
}

function parseArgs(argv) {
  const opts = { count: 1, benchtime: 1e9, bench: /./ };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i].replace(/^--?/, '');
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`seed000.js: flag ${argv[i]} needs a value`);
    i++;
    switch (flag) {
      case 'count':
        opts.count = Number(value);
        if (!Number.isInteger(opts.count) || opts.count < 1) throw new Error(`seed000.js: -count ${value}: want a whole number of at least 1`);
        break;
      case 'benchtime': {
        const m = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(value);
        if (!m) throw new Error(`seed000.js: -benchtime ${value}: want a duration such as 1s or 500ms`);
        opts.benchtime = Number(m[1]) * (m[2] === 's' ? 1e9 : 1e6);
        break;
      }
      case 'bench':
        opts.bench = new RegExp(value);
        break;
      default:
        throw new Error(`seed000.js: unknown flag ${argv[i - 1]} (want -count, -benchtime or -bench)`);
    }
  }
  return opts;
}

// sized builds an input of n bytes as bench_test.go does: the script
// repeated, cut at n bytes (a cut through a character leaves U+FFFD, as
// Go's string leaves a broken byte).
function sized(script, n) {
  const reps = Math.ceil(n / script.length);
  return Buffer.concat(Array(reps).fill(script)).subarray(0, n).toString('utf8');
}

let sink = 0;

// timeN assesses src n times and returns the nanoseconds it took.
function timeN(src, n) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    sink += analyzeScriptSafety(src).warnings.length;
  }
  return Number(process.hrtime.bigint() - t0);
}

// run times one benchmark as Go's testing package does: more iterations
// until one round takes benchtime, then that round's figures.
function run(name, src, bytes, opts) {
  let n = 1;
  let ns = timeN(src, n);
  while (ns < opts.benchtime && n < 1e9) {
    let next = ns > 0 ? Math.round((opts.benchtime * n * 1.2) / ns) : n * 100;
    next = Math.min(Math.max(next, n + 1), n * 100);
    n = next;
    ns = timeN(src, n);
  }
  const perOp = ns / n;
  const mbs = (bytes * 1e3) / perOp;
  console.log(`${name}\t${String(n).padStart(8)}\t${perOp.toFixed(0).padStart(10)} ns/op\t${mbs.toFixed(2).padStart(8)} MB/s\t${(perOp / bytes).toFixed(3).padStart(10)} ns/byte`);
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  selfTest();
  const script = fs.readFileSync(path.join(__dirname, '..', 'bench', 'tidy.applescript'));
  const benches = [['BenchmarkPeerAppleScript2KB', 2048]];
  for (const n of [1 << 10, 16 << 10, 256 << 10, 1 << 20]) {
    benches.push([`BenchmarkPeerAppleScriptSize/${n >> 10}KB`, n]);
  }
  const verdict = analyzeScriptSafety(sized(script, 2048));
  console.log(`pkg: seed000-peer (node ${process.version}, ${PATTERNS.length} patterns; the 2 KB script: ${verdict.risk}, ${verdict.warnings.length} warnings)`);
  for (const [name, n] of benches) {
    if (!opts.bench.test(name.replace(/^Benchmark/, ''))) continue;
    const src = sized(script, n);
    for (let i = 0; i < opts.count; i++) run(name, src, n, opts);
  }
  if (sink < 0) console.log(sink); // keeps the work observable
}

try {
  main();
} catch (err) {
  console.error(err.message);
  process.exit(2);
}
