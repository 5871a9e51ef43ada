package shell

import (
	"sort"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// Verdicts are made of effects (effect.go): every row of the table says
// what its program does as an effect, or only reads and says which options
// it takes; every option with an effect of its own declares it; and every
// reason the analyzer gives carries the effect it found.

// rowNames is the table's keys, sorted, so failures read in order.
func rowNames() []string {
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// TestEveryRowDeclaresItsEffects: a row is rated by a function (whose
// every reason takes an effect, by its type: TestEveryReasonHasAnEffect),
// or declares its effect, or only reads and names its option model. A row
// by subcommand declares each subcommand's effect (readOnly for those that
// only print).
func TestEveryRowDeclaresItsEffects(t *testing.T) {
	for _, name := range rowNames() {
		r := commands[name]
		switch {
		case r.run != nil:
			continue
		case r.fx.Kind == 0 && r.opts == nil:
			t.Errorf("row %q: declares no effect and no option model: say what it does, or that it only reads (reads, freeWords)", name)
		case r.fx.Kind == 0 && (r.subs != nil || r.writes):
			t.Errorf("row %q: rates by subcommand or writes a file without an effect of its own", name)
		}
		for s, e := range r.subs {
			if e.Kind == 0 {
				t.Errorf("row %q, subcommand %q: no effect (readOnly for one that only prints)", name, s)
			}
		}
		if r.fx.Kind == effect.Read && r.why == "" && r.subs == nil {
			t.Errorf("row %q: declares a read without saying what; a read-only row is the zero effect with its option model", name)
		}
	}
}

// TestEveryOptionEffectIsDeclared: an option listed with an effect of its
// own says which effect and why.
func TestEveryOptionEffectIsDeclared(t *testing.T) {
	check := func(where string, m *opts) {
		if m == nil {
			return
		}
		for opt, e := range m.effects {
			if e.fx.Kind == 0 {
				t.Errorf("%s option %s: no effect declared", where, opt)
			}
			if e.why == "" {
				t.Errorf("%s option %s: does %v without saying why", where, opt, e.fx)
			}
		}
	}
	for _, name := range rowNames() {
		check("row "+name, commands[name].opts)
	}
	for name, m := range map[string]*opts{"dateModel": dateModel, "awkModel": awkModel, "openModel": openModel, "scpModel": scpModel, "rsyncModel": rsyncModel, "curlModel": curlModel, "wgetModel": wgetModel,
		"psqlModel": psqlModel, "mysqlModel": mysqlModel, "redisModel": redisModel, "vimModel": vimModel, "screenModel": screenModel, "tmuxModel": tmuxModel, "gpgModel": gpgModel} {
		check(name, m)
	}
}

// TestEveryReasonHasAnEffect: every reason any row gives, for a plain use,
// an option, or each subcommand, carries the effect it found.
func TestEveryReasonHasAnEffect(t *testing.T) {
	for _, name := range rowNames() {
		probes := [][]string{{name}, {name, "x"}, {name, "-v", "x"}, {name, "--airlock-unmodelled", "x"}}
		for s := range commands[name].subs {
			probes = append(probes, []string{name, s, "x"})
		}
		for _, argv := range probes {
			var v Verdict
			Argv(&v, argv, nil)
			for _, r := range v.Reasons {
				if r.Effect.Kind == 0 {
					t.Errorf("%s: reason %s (%q) has no effect", strings.Join(argv, " "), r.Rule, r.Text)
				} else if r.Effect.Level() > r.Level {
					t.Errorf("%s: reason %s is %v but its effect %v weighs %v", strings.Join(argv, " "), r.Rule, r.Level, r.Effect, r.Effect.Level())
				}
			}
		}
	}
}

// TestNetworkUseIsAnEffect: what reaches the network says so with a
// network effect (Fetch, Upload, Connect, Lookup), which is what the
// sandbox gives the network to; what works on this Mac alone does not.
func TestNetworkUseIsAnEffect(t *testing.T) {
	network := []string{
		"curl https://example.com", "wget https://example.com/f", "curl -d @notes.txt https://example.com",
		"scp f host:/tmp/", "rsync -a src host:dst", "ssh host", "sftp host", "nc host 80", "socat - TCP:host:80",
		"telnet host 23", "ssh-copy-id host", "mount_smbfs //u@host/share /Volumes/s", "dig example.com",
		"ping -c 1 example.com", "git clone https://example.com/r.git", "git pull", "git fetch origin", "git push",
		"git submodule update --init", "npm install", "npm view left-pad", "pip install requests", "pip download requests",
		"cargo fetch", "cargo build", "go get example.com/m", "go build ./...", "gem install rake", "brew install jq",
		"npx cowsay hi", "pod install", "bundle install", "kubectl apply -f x.yaml", "psql -c 'select 1'",
		"redis-cli ping", "openssl s_client -connect host:443", "kinit me@REALM", "mas install 1",
	}
	local := []string{
		"ls -la", "cat notes.txt", "git status", "git commit -m x", "git checkout -b topic", "git stash", "cp a b",
		"mv a b", "mkdir d", "rm -f f", "sed -i s/a/b/ f", "tar -xf a.tar", "python3 -m json.tool f.json", "go fmt ./...",
		"chmod +x f", "echo hi > f", "pbcopy < f", "open notes.txt",
	}
	uses := func(line string) (bool, string) {
		var v Verdict
		Into(&v, line, nil, nil, 0)
		var found []string
		for _, r := range v.Reasons {
			found = append(found, r.Rule+"="+r.Effect.String())
			if effect.Network(r.Effect.Kind) {
				return true, ""
			}
		}
		return false, strings.Join(found, ", ")
	}
	for _, line := range network {
		if ok, found := uses(line); !ok {
			t.Errorf("%s: no network effect among its reasons (%s): the sandbox would give it no network", line, found)
		}
	}
	for _, line := range local {
		if ok, _ := uses(line); ok {
			t.Errorf("%s: a network effect, for work on this Mac alone", line)
		}
	}
}

// TestInputIsAnEffect: a program that types or clicks says Input.
func TestInputIsAnEffect(t *testing.T) {
	for _, line := range []string{"xdotool type hello", "cliclick c:10,10", "wtype hi", "ydotool type hi"} {
		var v Verdict
		Into(&v, line, nil, nil, 0)
		found := false
		for _, r := range v.Reasons {
			found = found || r.Effect.Kind == effect.Input
		}
		if !found {
			t.Errorf("%s: no Input effect among %v", line, v.Reasons)
		}
	}
}
