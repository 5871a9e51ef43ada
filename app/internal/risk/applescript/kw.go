package applescript

import (
	"fmt"

	"github.com/airlockhq/airlock/app/internal/risk/facts"
)

// Interned keywords: every word any AppleScript rule or word set mentions
// gets a small integer id, and the lexer gives each token the id of its
// text once, so matching compares integers, not strings.
//
// The invariant the analyzer relies on: for every word, |identifier| and
// «event» token, kw is the id of its text when that text is a vocabulary
// word, and kwNone otherwise; string, number and operator tokens are
// kwNone (their texts are never vocabulary words: those start with a
// letter). So t.kw == kwTo holds exactly where the token's text is "to".

type kwID uint16

// The words the analyzer's code names. Their ids are fixed; the words the
// rule table and the word sets add are interned after them at init.
const (
	kwNone kwID = iota
	kwA
	kwAccess
	kwAction
	kwAdministrator
	kwAlarm
	kwAlias
	kwAltering
	kwAnswer
	kwApp
	kwApplescript
	kwApplication
	kwAs
	kwAscii
	kwAt
	kwAttribute
	kwBeginning
	kwCharacter
	kwCode
	kwConsidering
	kwContents
	kwCopy
	kwDisk
	kwDo
	kwDown
	kwElse
	kwEnd
	kwError
	kwFile
	kwFolder
	kwFor
	kwForm
	kwForward
	kwFrom
	kwGet
	kwGiven
	kwGlobal
	kwHidden
	kwHome
	kwId
	kwIf
	kwIgnoring
	kwIn
	kwInto
	kwIt
	kwItem
	kwIts
	kwJavascript
	kwKey
	kwKeystroke
	kwLocal
	kwLocation
	kwLogin
	kwMe
	kwMenu
	kwMiddle
	kwMy
	kwName
	kwNew
	kwOf
	kwOn
	kwOpen
	kwPassword
	kwPath
	kwPermission
	kwPosix
	kwProcess
	kwProperty
	kwQuoted
	kwRecipient
	kwRedirect
	kwRepeat
	kwResponses
	kwRest
	kwReturn
	kwRule
	kwScript
	kwSelection
	kwSet
	kwShell
	kwShortcut
	kwSome
	kwString
	kwSystem
	kwTell
	kwTerms
	kwText
	kwThe
	kwThen
	kwTimeout
	kwTo
	kwTransaction
	kwTrash
	kwTry
	kwUnicode
	kwUrl
	kwUser
	kwUsing
	kwWith
	kwWithout
	kwWrite
	kwNamed // the first id interned at init
)

var kwNamedWords = [kwNamed]string{
	"", "a", "access", "action", "administrator", "alarm", "alias", "altering", "answer", "app",
	"applescript", "application", "as", "ascii", "at", "attribute", "beginning", "character", "code",
	"considering", "contents", "copy", "disk", "do", "down", "else", "end", "error", "file", "folder",
	"for", "form", "forward", "from", "get", "given", "global", "hidden", "home", "id", "if",
	"ignoring", "in", "into", "it", "item", "its", "javascript", "key", "keystroke", "local",
	"location", "login", "me", "menu", "middle", "my", "name", "new", "of", "on", "open", "password",
	"path", "permission", "posix", "process", "property", "quoted", "recipient", "redirect", "repeat",
	"responses", "rest", "return", "rule", "script", "selection", "set", "shell", "shortcut", "some",
	"string", "system", "tell", "terms", "text", "the", "then", "timeout", "to", "transaction", "trash",
	"try", "unicode", "url", "user", "using", "with", "without", "write",
}

// Word flags: which of the analyzer's word sets a word is in.
const (
	kfKeyword   uint16 = 1 << iota // asKeywords: statement words that are not commands
	kfNoun                         // asNouns: start expression statements
	kfRule                         // starts a verb rule
	kfAddition                     // facts.StandardAdditions
	kfBulk                         // bulkWords: names many things
	kfConnector                    // connectors: continue an expression
	kfGeneric                      // facts.GenericVerbs: the Standard Suite
	kfAppVerb                      // facts.AppVerbs
	kfBlock                        // opens a block: repeat, try, considering, ignoring, script
	kfWrites                       // asWrites: the guard reads the statement's paths as written
	kfTree                         // asTree: … as changed with everything inside them
	kfReads                        // asReads: … as read
	kfDefines                      // collectDefiners: collectDef has work at the word
)

// maxKW bounds the vocabulary, kwMaxLen its words. slots is a hash table
// of two-slot buckets that holds each word as its first and last eight
// bytes and its length: a look-up is two loads, a multiply and two integer
// comparisons that need not branch, and no string is compared. A word
// whose bucket is full makes intern hash every word anew with another
// seed (and, after many seeds, into a table twice the size), so no bucket
// ever holds more than two.
const (
	maxKW     = 1024
	kwMaxLen  = 16
	kwBits    = 11 // the table starts with 1<<kwBits slots
	kwReseeds = 64 // seeds tried before the table grows
)

type kwSlot struct {
	lo, hi uint64 // see packKW
	n      uint8
	id     kwID
}

type vocabulary struct {
	words  []string // id → word
	byWord map[string]kwID
	seed   uint64
	shift  uint // 64 - log2(len(slots))
	slots  []kwSlot
	flags  [maxKW]uint16
	rules  [maxKW][]asRule // the verb rules a word starts
}

// vocab is built when the package's variables are, before any init runs:
// the named words first, then the word sets, then the verb table's.
var vocab = newVocabulary()

func newVocabulary() *vocabulary {
	v := &vocabulary{byWord: make(map[string]kwID, maxKW), seed: 0x9e3779b97f4a7c15,
		shift: 64 - kwBits, slots: make([]kwSlot, 1<<kwBits)}
	v.words = append(make([]string, 0, maxKW), "")
	for _, w := range kwNamedWords[1:] {
		if id := v.intern(w); v.words[id] != w || id >= kwNamed {
			panic("risk: named keyword out of order: " + w)
		}
	}
	v.flagWords(kfKeyword, asKeywords)
	v.flagWords(kfNoun, asNouns)
	v.flagWords(kfAddition, facts.StandardAdditions)
	v.flagWords(kfBulk, bulkWords)
	v.flagWords(kfConnector, connectors)
	v.flagWords(kfGeneric, facts.GenericVerbs)
	v.flagWords(kfAppVerb, facts.AppVerbs)
	v.flagWords(kfBlock, blockOpeners)
	v.flagWords(kfWrites, asWrites)
	v.flagWords(kfTree, asTree)
	v.flagWords(kfReads, asReads)
	v.flagWords(kfDefines, collectDefiners)
	v.indexVerbs()
	return v
}

// packKW is a word of at most kwMaxLen bytes as two integers: lo its first
// eight bytes, hi its last eight when it is longer than eight (else 0),
// both little-endian and zero-padded. With the length they are the word.
func packKW(w string) (lo, hi uint64) {
	for k := min(len(w), 8) - 1; k >= 0; k-- {
		lo = lo<<8 | uint64(w[k])
	}
	if len(w) > 8 {
		for k := len(w) - 1; k >= len(w)-8; k-- {
			hi = hi<<8 | uint64(w[k])
		}
	}
	return lo, hi
}

// bucket returns the first slot of the bucket of a packed word.
func (v *vocabulary) bucket(lo, hi uint64, n int) uint64 {
	return ((lo ^ hi*0xc2b2ae3d27d4eb4f ^ uint64(n)) * v.seed) >> v.shift &^ 1
}

// lookupKW returns the id of w, or kwNone when w is not a vocabulary word.
func lookupKW(w string) kwID {
	if len(w) == 0 || len(w) > kwMaxLen {
		return kwNone
	}
	lo, hi := packKW(w)
	return vocab.find(lo, hi, len(w))
}

// kwLoMask[n] keeps the bytes of a word of n bytes in its first eight.
var kwLoMask = func() (lo [kwMaxLen + 1]uint64) {
	for n := range lo {
		lo[n] = 1<<(8*min(n, 8)) - 1 // all ones from 8 on: the shift is 64
	}
	return lo
}()

func (v *vocabulary) find(lo, hi uint64, n int) kwID {
	h := v.bucket(lo, hi, n)
	a, b := &v.slots[h], &v.slots[h|1]
	// Loaded first, so that the selections below need not branch.
	ida, idb := a.id, b.id
	da := a.lo ^ lo | a.hi ^ hi | uint64(a.n) ^ uint64(n)
	db := b.lo ^ lo | b.hi ^ hi | uint64(b.n) ^ uint64(n)
	id := kwNone
	if da == 0 {
		id = ida
	}
	if db == 0 {
		id = idb
	}
	return id
}

// intern adds w to the vocabulary (while the package initialises) and
// returns its id.
func (v *vocabulary) intern(w string) kwID {
	if id, ok := v.byWord[w]; ok {
		return id
	}
	if !kwWordStart(w[0]) || len(w) > kwMaxLen {
		// Only words can be vocabulary words: see the invariant above.
		panic(fmt.Sprintf("risk: %q cannot be a keyword (a word of at most %d bytes)", w, kwMaxLen))
	}
	if len(v.words) == maxKW {
		panic("risk: keyword vocabulary full")
	}
	id := kwID(len(v.words))
	v.words = append(v.words, w)
	v.byWord[w] = id
	if !v.place(id) {
		// A full bucket: hash every word anew with another seed, in a
		// larger table when many seeds have not done.
		for tries := 1; !v.rehash(); tries++ {
			if tries%kwReseeds == 0 {
				v.slots, v.shift = make([]kwSlot, 2*len(v.slots)), v.shift-1
			}
		}
	}
	return id
}

// rehash places every word with a new seed, and reports whether they all
// found room.
func (v *vocabulary) rehash() bool {
	v.seed = v.seed*0x5851f42d4c957f2d + 0x14057b7ef767814f | 1
	clear(v.slots)
	for id := kwID(1); int(id) < len(v.words); id++ {
		if !v.place(id) {
			return false
		}
	}
	return true
}

// place puts word id in its bucket, if the bucket has room.
func (v *vocabulary) place(id kwID) bool {
	w := v.words[id]
	lo, hi := packKW(w)
	h := v.bucket(lo, hi, len(w))
	for _, s := range []uint64{h, h | 1} {
		if v.slots[s].id == kwNone {
			v.slots[s] = kwSlot{lo: lo, hi: hi, n: uint8(len(w)), id: id}
			return true
		}
	}
	return false
}

func kwWordStart(c byte) bool { return c >= 'a' && c <= 'z' || c == '_' }

// flagWords interns the words of a set and marks them with flag. Entries
// that cannot be a word's text (the "(" of asKeywords) are left out, which
// changes nothing: no word token ever has that text.
func (v *vocabulary) flagWords(flag uint16, set map[string]bool) {
	for w := range set {
		if kwWordStart(w[0]) {
			v.flags[v.intern(w)] |= flag
		}
	}
}

func (k kwID) has(flag uint16) bool { return vocab.flags[k]&flag != 0 }
