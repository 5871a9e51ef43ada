package risk

import (
	"encoding/binary"
	"fmt"
)

// Interned keywords: every word any AppleScript rule or word set mentions
// gets a small integer id, and the lexer gives each token the id of its
// text once, so matching compares integers, not strings.
//
// The invariant the analyzer relies on: for every word, |identifier| and
// «event» token, kw is the id of its text when that text is a vocabulary
// word, and kwNone otherwise; string, number and operator tokens are
// kwNone (their texts are never vocabulary words: those start with a
// letter). So t.kw == kwTo holds exactly where t.text == "to" would.

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
	kfAddition                     // standardAdditions
	kfBulk                         // bulkWords: names many things
	kfConnector                    // connectors: continue an expression
	kfGeneric                      // genericVerbs: the Standard Suite
	kfAppVerb                      // appVerbs
	kfBlock                        // opens a block: repeat, try, considering, ignoring, script
)

// maxKW bounds the vocabulary. index is an open-addressed hash table of
// ids (a power of two, at most a quarter full); a word is found by its
// first eight bytes packed into an integer and its length, so a look-up
// is a multiply, a shift and an integer comparison or two.
const (
	maxKW    = 2048
	kwBits   = 13
	kwSlotN  = 1 << kwBits
	kwPacked = 8 // bytes packed into kwEntry.key
)

type kwEntry struct {
	key  uint64 // the first kwPacked bytes, little-endian, zero-padded
	n    int    // length
	word string
}

type vocabulary struct {
	entries []kwEntry // id → word
	byWord  map[string]kwID
	index   [kwSlotN]kwID
	flags   [maxKW]uint16
	rules   [maxKW][]asRule // the verb rules a word starts
}

// vocab is built when the package's variables are, before any init runs:
// the named words first, then the word sets; rule() adds the rules' words.
var vocab = newVocabulary()

func newVocabulary() *vocabulary {
	v := &vocabulary{byWord: make(map[string]kwID, maxKW)}
	v.entries = append(make([]kwEntry, 0, maxKW), kwEntry{})
	for _, w := range kwNamedWords[1:] {
		if id := v.intern(w); v.entries[id].word != w || id >= kwNamed {
			panic("risk: named keyword out of order: " + w)
		}
	}
	v.flagWords(kfKeyword, asKeywords)
	v.flagWords(kfNoun, asNouns)
	v.flagWords(kfAddition, standardAdditions)
	v.flagWords(kfBulk, bulkWords)
	v.flagWords(kfConnector, connectors)
	v.flagWords(kfGeneric, genericVerbs)
	v.flagWords(kfAppVerb, appVerbs)
	v.flagWords(kfBlock, blockOpeners)
	return v
}

func kwSlot(key uint64, n int) uint64 {
	return ((key ^ uint64(n)) * 0x9e3779b97f4a7c15) >> (64 - kwBits)
}

// packKW packs the first kwPacked bytes of w.
func packKW(w string) uint64 {
	var key uint64
	for k := min(len(w), kwPacked) - 1; k >= 0; k-- {
		key = key<<8 | uint64(w[k])
	}
	return key
}

// lookupKW returns the id of w, or kwNone when w is not a vocabulary word.
func lookupKW(w string) kwID {
	return vocab.find(packKW(w), w)
}

// lookupKWFast is lookupKW(string(b[i:j])) for the lexer, which has the
// lower-cased script in b: the packed key is one load there. It calls
// nothing, and reports !ok where it cannot load eight bytes (near the end
// of b), leaving those words to lookupKW.
func lookupKWFast(b []byte, i, j int) (kwID, bool) {
	n := j - i
	if i < 0 || n <= 0 || i+kwPacked > len(b) || j > len(b) {
		return kwNone, false
	}
	key := binary.LittleEndian.Uint64(b[i:]) & kwMask[min(n, kwPacked)]
	for h := kwSlot(key, n); ; h = (h + 1) & (kwSlotN - 1) {
		id := vocab.index[h]
		if id == kwNone {
			return kwNone, true
		}
		if e := &vocab.entries[id]; e.key == key && e.n == n && sameTail(b[i+min(n, kwPacked):j], e.word[min(n, kwPacked):]) {
			return id, true
		}
	}
}

// sameTail compares the bytes of a word past its packed key (written out:
// the lexer's look-up calls nothing).
func sameTail(b []byte, w string) bool {
	if len(b) != len(w) {
		return false
	}
	for k := range b {
		if b[k] != w[k] {
			return false
		}
	}
	return true
}

// kwMask[n] keeps the first n bytes of a packed key.
var kwMask = [kwPacked + 1]uint64{0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffff, 0xffffffffffff, 0xffffffffffffff, 0xffffffffffffffff}

func (v *vocabulary) find(key uint64, w string) kwID {
	h := kwSlot(key, len(w))
	for {
		id := v.index[h]
		if id == kwNone {
			return kwNone
		}
		if e := &v.entries[id]; e.key == key && e.n == len(w) && (len(w) <= kwPacked || e.word == w) {
			return id
		}
		h = (h + 1) & (kwSlotN - 1)
	}
}

// intern adds w to the vocabulary (while the package initialises) and
// returns its id.
func (v *vocabulary) intern(w string) kwID {
	if id, ok := v.byWord[w]; ok {
		return id
	}
	if !kwWordStart(w[0]) {
		// Only words can be vocabulary words: see the invariant above.
		panic(fmt.Sprintf("risk: %q cannot be a keyword", w))
	}
	if len(v.entries) == maxKW {
		panic("risk: keyword vocabulary full")
	}
	id := kwID(len(v.entries))
	key := packKW(w)
	v.entries = append(v.entries, kwEntry{key: key, n: len(w), word: w})
	v.byWord[w] = id
	h := kwSlot(key, len(w))
	for v.index[h] != kwNone {
		h = (h + 1) & (kwSlotN - 1)
	}
	v.index[h] = id
	return id
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
