package execute

import "testing"

func TestEnvTextWhy(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		runs       bool
	}{
		{"everyday settings", "# dev\nPORT=3000\nexport NODE_ENV=development\nDATABASE_URL=postgres://a:b@localhost/db?sslmode=disable&connect_timeout=5\n", false},
		{"quoted values", "GREETING=\"hello $USER\"\nSINGLE='it''s $(not run)'\nEMPTY=\n", false},
		{"a multi-line quoted key", "KEY=\"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg+/=\n-----END PRIVATE KEY-----\"\nPORT=1\n", false},
		{"a trailing comment", "PORT=3000 # the dev server\n", false},
		{"assignments after a blank", "A=1 B=2\n", false},
		{"windows line ends", "PORT=3000\r\nHOST=localhost\r\n", false},
		{"node options", "NODE_OPTIONS=--require ./x.js\n", true},
		{"lower-case node options", "node_options=--require ./x.js\n", true},
		{"a loader prefix", "DYLD_INSERT_LIBRARIES=./x.dylib\n", true},
		{"git's commands", "GIT_EXTERNAL_DIFF=./x\n", true},
		{"path", "export PATH=./bin:$PATH\n", true},
		{"a home of its choosing", "HOME=./fakehome\n", true},
		{"a kubeconfig with exec plugins", "KUBECONFIG=./kube.yaml\n", true},
		{"names that start like them", "HOMEPAGE_URL=https://example.com\nPATHNAME_BASE=/app\nCCACHE=1\n", false},
		{"a command substitution", "X=$(id)\n", true},
		{"one in double quotes", "X=\"a $(id)\"\n", true},
		{"backticks", "X=`id`\n", true},
		{"a command after ;", "X=1; id\n", true},
		{"a command after &", "X=1 & id\n", true},
		{"a command after a blank", "X=1 id\n", true},
		{"a redirection", "X=1>out\n", true},
		{"a bare command", "PORT=1\nid\n", true},
		{"a substitution on the next line of a quoted value", "X=\"a\n$(id)\"\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			why := envTextWhy(tc.text)
			if (why != "") != tc.runs {
				t.Errorf("envTextWhy(%q) = %q, want runs %v", tc.text, why, tc.runs)
			}
		})
	}
}
