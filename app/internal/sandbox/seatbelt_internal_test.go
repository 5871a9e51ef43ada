package sandbox

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// TestPlaceRegex: a place's regular expression, anchored where the place
// starts; names the profile text could not carry are refused, not spliced.
func TestPlaceRegex(t *testing.T) {
	for _, tc := range []struct {
		pl   sanitize.PersistencePlace
		want string
	}{
		{sanitize.PersistencePlace{Under: "/", Elems: []string{"etc", "paths.d"}}, `^/[eE][tT][cC]/[pP][aA][tT][hH](s|S|ſ)\.[dD](/|$)`},
		{sanitize.PersistencePlace{Elems: []string{"*.git", "hooks"}}, `/[^/]*\.[gG][iI][tT]/[hH][oO][oO](k|K|KELVIN)(s|S|ſ)(/|$)`},
		{sanitize.PersistencePlace{Elems: []string{"site-packages", "*.pth"}}, `/(s|S|ſ)[iI][tT][eE]-[pP][aA][cC](k|K|KELVIN)[aA][gG][eE](s|S|ſ)/[^/]*\.[pP][tT][hH](/|$)`},
		{sanitize.PersistencePlace{Under: "/Users/a b", Elems: []string{"*", "x+y"}}, `^/[uU](s|S|ſ)[eE][rR](s|S|ſ)/[aA] [bB]/[^/]+/[xX]\+[yY](/|$)`},
		{sanitize.PersistencePlace{Under: "/Users/a", Elems: []string{".zc*"}}, `^/[uU](s|S|ſ)[eE][rR](s|S|ſ)/[aA]/\.[zZ][cC][^/]*(/|$)`},
	} {
		tc.want = strings.ReplaceAll(tc.want, "KELVIN", "\u212a")
		got, err := placeRegex(tc.pl)
		if err != nil || got != tc.want {
			t.Errorf("placeRegex(%+v) = %q, %v\nwant %q", tc.pl, got, err, tc.want)
		}
	}
	for _, bad := range []string{`a"b`, "a\nb", "a\x7fb", "a\xffb"} {
		_, err := placeRegex(sanitize.PersistencePlace{Entry: "**/" + bad, Elems: []string{bad}})
		if err == nil || !strings.Contains(err.Error(), "cannot carry") {
			t.Errorf("placeRegex of %q: %v", bad, err)
		}
	}
}

// secretNameCases are names to check secretNameRegexes against
// rate.SecretFile: each table pattern made a name (its "*" as one and as
// several characters), in upper case and with the Kelvin sign and the
// long s, and look-alikes that are no secret.
func secretNameCases() []string {
	pats, exc := rate.SecretFilePatterns()
	names := append([]string{
		".env.example", "notes.env.txt", ".env.bak.txt", ".envrc.sample", "id_rsa.pub", "deploy_ed25519.pub",
		"key.pem.txt", "x.keys", "keyring", "credentials.py", "credentials.json.bak", "mykey", "env",
		".ENV.EXAMPLE", "Sample.env", "passwords.csv.txt", "x.key~", "server.k", ".env.", "a.env",
	}, exc...)
	for _, p := range pats {
		for _, fill := range []string{"x", "prod.v2"} {
			n := strings.ReplaceAll(p, "*", fill)
			names = append(names, n, strings.ToUpper(n),
				strings.ReplaceAll(n, "k", "\u212a"), strings.ReplaceAll(n, "s", "\u017f"),
				n+".txt", "x"+n, strings.TrimSuffix(n, n[len(n)-1:]))
		}
		names = append(names, strings.ReplaceAll(p, "*", "")) // the star as nothing
		// Copies and backups (rate.OriginalName), and names that only
		// look like them.
		n := strings.ReplaceAll(p, "*", "x")
		names = append(names, n+"~", n+".BAK", n+".old.1", n+" copy", n+" Copy 2", n+" (1)", "Copy of "+n,
			n+"~ copy", n+" copy2", n+"copy", n+" (x)", n+".bak.txt", "copy of", n+" copy (3).orig",
			n+".~1~", n+".~12~.bak", n+".~x~", n+".~~", n+"~1~", "."+n, "."+n+".swp", n+".SWO", "."+n+".swpx", ".."+n, ".copy of "+n,
			"#"+n+"#", ".#"+n, "#"+n, n+"#", "##"+n+"##", "#"+n+"~#", ".#"+n+".bak", "#"+n+".~2~#", ".#.#"+n, "#.#"+n+"#", "#copy of "+n+"#")
		if i := strings.LastIndexByte(n, '.'); i > 0 {
			names = append(names, n[:i]+" copy"+n[i:], n[:i]+" (2)"+n[i:], n[:i]+"-copy"+n[i:]+"~", n[:i]+" copy3"+n[i:])
		}
	}
	return names
}

// TestSecretNameRegexes: the Seatbelt rules of secret files by name, with
// Go's regexp as the spec of their dialect: every name rate.SecretFile
// says is a secret is refused (denied and not allowed again), and what is
// refused is a secret or one as APFS compares names (the long s an s);
// only a path's last element counts. Each expression keeps to the dialect
// both read.
func TestSecretNameRegexes(t *testing.T) {
	deny, allow, err := secretNameRegexes()
	if err != nil {
		t.Fatal(err)
	}
	compile := func(res []string) []*regexp.Regexp {
		var out []*regexp.Regexp
		for _, re := range res {
			if bad := regexp.MustCompile(`\{|\\[a-zA-Z]|\(\?|\*\?|\+\?`).FindString(re); bad != "" {
				t.Errorf("%q holds %q, outside the dialect Seatbelt and Go both read", re, bad)
			}
			out = append(out, regexp.MustCompile(re))
		}
		return out
	}
	d, a := compile(deny), compile(allow)
	any := func(rs []*regexp.Regexp, p string) bool {
		return slices.ContainsFunc(rs, func(r *regexp.Regexp) bool { return r.MatchString(p) })
	}
	refused := func(p string) bool { return any(d, p) && !any(a, p) }
	pats, _ := rate.SecretFilePatterns()
	if len(deny) != len(pats) {
		t.Errorf("%d expressions for %d patterns", len(deny), len(pats))
	}
	secrets := 0
	for _, name := range secretNameCases() {
		p := "/Users/ann/src/app/" + name
		_, want := rate.SecretFile(name)
		_, apfs := rate.SecretFile(strings.ReplaceAll(name, "\u017f", "s"))
		got := refused(p)
		if want {
			secrets++
		}
		if want && !got {
			t.Errorf("%q is a secret file, not refused", p)
		}
		if got && !apfs {
			t.Errorf("%q is refused, but is no secret file", p)
		}
		if refused(p + "/inside") {
			t.Errorf("what lies in a folder named %q is refused", name)
		}
	}
	if secrets < 2*len(pats) {
		t.Errorf("only %d of the cases are secrets: the cases do not cover the table", secrets)
	}
}

// TestSecretFolderRegexes: a folder whose every file is a secret
// (rate.SecretFolder) is refused with all below it, in any case a Mac's
// file system folds; a virtual environment .env and a package secrets
// are not.
func TestSecretFolderRegexes(t *testing.T) {
	res, err := secretFolderRegexes()
	if err != nil {
		t.Fatal(err)
	}
	var rs []*regexp.Regexp
	for _, re := range res {
		rs = append(rs, regexp.MustCompile(re))
	}
	refused := func(p string) bool {
		return slices.ContainsFunc(rs, func(r *regexp.Regexp) bool { return r.MatchString(p) })
	}
	for p, want := range map[string]bool{
		"/Users/ann/src/app/.env.d":             true,
		"/Users/ann/src/app/.env.d/DB_PASSWORD": true,
		"/Users/ann/src/app/.ENV.D/db":          true,
		"/Users/ann/.secrets/token":             true,
		"/Users/ann/src/app/secrets.d/x/y":      true,
		"/Users/ann/src/app/.env/bin/python":    false,
		"/Users/ann/src/app/secrets/store.go":   false,
		"/Users/ann/src/app/.secretsfoo/x":      false,
		"/Users/ann/src/app/x.secrets":          false,
	} {
		if got := refused(p); got != want {
			t.Errorf("%s: refused %v, want %v", p, got, want)
		}
	}
}
