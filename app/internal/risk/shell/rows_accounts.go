package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// Accounts and admin rights. Creating an account, granting admin, setting
// a password or a password policy, or enabling root or the guest account
// is Destructive (DESIGN.md, "Risk levels"): it always asks. The tools'
// reading uses are listed; anything else changes accounts.

// accountChange rates a change to accounts or admin rights.
func (c *call) accountChange(format string, args ...any) {
	c.add(effect.Of(effect.Account), "accounts", format, args...)
}

// sysadminctlCommand rates sysadminctl: its "status" queries and help
// read; every other option changes users, passwords, the guest account,
// the screen lock or secure tokens.
func sysadminctlCommand(c *call) {
	for i, w := range c.args {
		if w.hole {
			c.accountChange("sysadminctl with options computed at run time: may change accounts")
			return
		}
		if !strings.HasPrefix(w.s, "-") {
			continue
		}
		opt := strings.ToLower(w.s)
		if inList(opt, "-h", "-help", "--help", "-securetokenstatus") {
			continue
		}
		if i+1 < len(c.args) && strings.EqualFold(c.args[i+1].s, "status") {
			continue
		}
		if inList(opt, "-adminuser", "-adminpassword", "-password", "-fullname", "-uid", "-gid", "-shell", "-home", "-hint", "-picture", "-gid", "-roleaccount", "-gidnumber", "-newpassword", "-oldpassword") {
			continue // the values of another option, or the credentials of the one asking
		}
		c.accountChange("sysadminctl %s: changes user accounts, passwords or their protections", rate.Display(w.s))
		return
	}
}

// dsclReads are dscl's reading commands; the rest write the directory.
var dsclReads = set(`read readall readpl readpli list search diff cd ls cat pushd popd auth authonly help q quit
	-read -readall -readpl -readpli -list -search -diff -authonly -help -q -plist -url -raw -u -P -p`)

// dsclCommand rates dscl: reading records is Safe; -create, -append,
// -merge, -passwd, -change, -delete … change users and groups (admin
// membership, uid 0, hidden accounts).
func dsclCommand(c *call) {
	for _, w := range c.args {
		if w.hole {
			c.accountChange("dscl with a command computed at run time: may change users or groups")
			return
		}
		if !strings.HasPrefix(w.s, "-") {
			continue
		}
		s := strings.ToLower(strings.TrimPrefix(w.s, "-"))
		switch {
		case s == "delete":
			c.accountChange("dscl -delete: deletes directory records (users, groups)")
			return
		case dsclReads[s] || dsclReads[w.s]:
			if !inList(w.s, "-plist", "-url", "-raw", "-u", "-P", "-p", "-q") {
				return // one command per run: what follows are its arguments
			}
		case inList(s, "create", "append", "merge", "passwd", "change", "changei", "createpl", "deletepl", "mcxset", "mcxedit", "mcxdelete", "mcximport"):
			c.accountChange("dscl -%s: changes users or groups (accounts, passwords, admin membership)", s)
			return
		default:
			c.unmodelled(w.s)
			return
		}
	}
}

// dseditgroupCommand rates dseditgroup: -o read and -o checkmember read;
// -o edit, create and delete change group membership (admin).
func dseditgroupCommand(c *call) {
	op := "read"
	for i, w := range c.args {
		if w.s == "-o" && i+1 < len(c.args) {
			op = strings.ToLower(c.args[i+1].s)
			if c.args[i+1].hole {
				op = "computed"
			}
		}
	}
	switch op {
	case "read", "checkmember":
	default:
		c.accountChange("dseditgroup -o %s: changes groups and their members (admin)", rate.Display(op))
	}
}

// pwpolicyCommand rates pwpolicy: its get… commands read; set…, clear…,
// enableuser and disableuser change who may log in and how.
func pwpolicyCommand(c *call) {
	for _, w := range c.args {
		s := strings.ToLower(strings.TrimPrefix(w.s, "-"))
		if w.hole || strings.HasPrefix(s, "set") || strings.HasPrefix(s, "clear") || inList(s, "enableuser", "disableuser", "authentication-allowed-set") {
			c.accountChange("pwpolicy %s: changes password and login policies", rate.Display(w.s))
			return
		}
	}
}

// dsenablerootCommand rates dsenableroot: enabling root (without -d) is an
// account with every right.
func dsenablerootCommand(c *call) {
	if hasShort(c.args, 'd') {
		c.add(effect.Of(effect.Setting), "dsenableroot", "dsenableroot -d: disables the root account")
		return
	}
	c.accountChange("dsenableroot: enables the root account")
}

// dsmemberutilCommand rates dsmemberutil: it looks up memberships and ids;
// flushcache empties the membership cache.
func dsmemberutilCommand(c *call) {
	switch s := strings.ToLower(sub(c.args)); s {
	case "checkmembership", "getuuid", "getid", "getsid", "help", "":
	case "flushcache":
		c.add(effect.Of(effect.Setting), "dsmemberutil", "dsmemberutil flushcache: empties the membership cache")
	default:
		c.unmodelled(s)
	}
}
