package rate

import "strings"

// SecretVariable reports an environment variable whose name says it holds
// a credential: GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD, API_KEY …
// (the names of the helpers' sockets and files, SSH_AUTH_SOCK, GIT_ASKPASS,
// XAUTHORITY, hold none). Every language asks it of a variable it reads:
// the shell's printenv NAME, AppleScript's system attribute, JXA's
// systemAttribute and getenv.
func SecretVariable(name string) bool {
	up := strings.ToUpper(name)
	for _, w := range []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL", "AUTH"} {
		if strings.Contains(up, w) {
			return !strings.HasPrefix(up, "GIT_ASKPASS") && up != "SSH_AUTH_SOCK" && up != "XAUTHORITY"
		}
	}
	return false
}
