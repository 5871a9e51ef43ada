//go:build linux

package gate_test

// A third red team's attacks on the secrets an unasked command prints: a
// project's .env and a private key in a sandbox root, printed in a shape
// the redactor does not know (a value without its key, one character a
// line, spaced, wide characters). Each payload (testdata/red3/secrets.json)
// is submitted as the agent at Level 1 with nobody to approve, runs in the
// real sandbox in the test's temporary home, and the test FAILS when what
// comes back to the agent holds a secret.

import (
	"context"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// The fake secrets of the rig's project: a password only its key names,
// and tokens in their providers' documented shapes.
const (
	redPassword = "Tr0ub4dor-horse-battery-77"
	redOpenAI   = "sk-proj-" + "Q7vT2mXk9LpR4sWz8NcY1bHd6FgJ3eUa5KoV0iPq7TyM2rXn"
	redGitHub   = "ghp_" + "R8kN2vX5qL9tZ3mW7pB4cY6dH1fJ0sGa2uE5"
)

// secretRig is a gate at Level 1 with no approver, its executor confining
// commands in the real sandbox, in a home whose Documents folder (the
// sandbox root) holds proj/.env and proj/server.key.
type secretRig struct {
	g       *gate.Gate
	proj    string
	secrets map[string]string // what must not come back, by name
}

// noSecretBack submits argv in the project unasked and fails when the
// command ran and its output or error holds one of the rig's secrets, in
// any shape shapes knows; a command held for the person did not run.
func (r *secretRig) noSecretBack(t *testing.T, argv []string) {
	t.Helper()
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindCommand,
		Argv: argv, Dir: r.proj}, nil)
	t.Logf("%q: %s, %v", argv, rep.Risk, err)
	if errors.Is(err, gate.ErrApprovalRequired) {
		return // held for the person: it did not run
	}
	var out strings.Builder
	for _, a := range rep.Actions {
		out.WriteString(a.Output)
		out.WriteString(a.Error)
	}
	for what, secret := range r.secrets {
		for _, s := range shapes(out.String()) {
			if strings.Contains(s, secret) {
				t.Errorf("HOLE: %q ran unasked (%s, err %v) and printed %s", argv, rep.Risk, err, what)
				break
			}
		}
	}
}

func newSecretRig(t *testing.T) *secretRig {
	t.Helper()
	env, home := sandbox(t)
	data := filepath.Join(home, ".local", "share", "airlock")
	proj := filepath.Join(home, "Documents", "proj")
	for _, d := range []string{data, proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dotenv := "DB_PASSWORD=" + redPassword + "\nOPENAI_API_KEY=" + redOpenAI + "\nGITHUB_TOKEN=" + redGitHub + "\n"
	_, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	key := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	for name, body := range map[string]string{".env": dotenv, "server.key": string(key)} {
		if err := os.WriteFile(filepath.Join(proj, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	body := strings.Join(strings.Split(strings.TrimSpace(string(key)), "\n")[1:], "")
	body = strings.TrimSuffix(body, "-----END PRIVATE KEY-----")

	box, ex := sandboxedExecutor(t, env, home, data)
	g := gate.New(gate.Config{Env: env, Exec: ex, History: &memHistory{}, Autonomy: policy.SmartDefault, Sandbox: box})
	return &secretRig{g: g, proj: proj, secrets: map[string]string{
		"the database password": redPassword, "the OpenAI key": redOpenAI, "the GitHub token": redGitHub,
		"the private key": body}}
}

// redSecretCase is one payload of testdata/red3/secrets.json.
type redSecretCase struct {
	Name string   `json:"name"`
	Argv []string `json:"argv"`
	// Open names the fix of a hole this red team left open (its fix lies
	// in another part); the case is skipped until it is made.
	Open string `json:"open,omitempty"`
}

func redSecretCases(t *testing.T) []redSecretCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "red3", "secrets.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []redSecretCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// shapes are the output read back the ways the agent would: as printed,
// with every blank, NUL and line break taken out, the text columns of a
// hex dump joined, and hex digits decoded.
func shapes(out string) []string {
	squeezed := strings.Map(func(r rune) rune {
		if r == 0 || r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, out)
	var cols strings.Builder
	for _, m := range regexp.MustCompile(`\|([^|\n]*)\|`).FindAllStringSubmatch(out, -1) {
		cols.WriteString(m[1])
	}
	hexed, _ := hex.DecodeString(regexp.MustCompile(`[^0-9a-fA-F]`).ReplaceAllString(out, ""))
	return []string{out, squeezed, strings.ReplaceAll(cols.String(), ".", ""), string(hexed)}
}

// TestRedSecretsReshaped: what an unasked command prints reaches the agent
// after the redactor, which knows secrets by their shape. A secret read
// from a sandbox root and printed in a shape it does not know must not
// come back: either the command asks first (the person sees it read a
// .env or a key), or its output holds no secret.
func TestRedSecretsReshaped(t *testing.T) {
	r := newSecretRig(t)
	for _, tc := range redSecretCases(t) {
		t.Run(tc.Name, func(t *testing.T) {
			if tc.Open != "" && os.Getenv("AIRLOCK_RED_OPEN") == "" {
				t.Skip("open hole: " + tc.Open)
			}
			r.noSecretBack(t, tc.Argv)
		})
	}
}
