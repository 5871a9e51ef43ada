package risk_test

import (
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/level"

	"github.com/airlockhq/airlock/app/internal/risk"
)

// benchScript is a realistic AppleScript of about 2 KB: handlers, tell
// blocks, a do shell script with quoted form, comments, strings with
// scary words, records and lists.
const benchScript = `-- Tidy the Desktop: file screenshots into a dated folder and report.
property screenshotPrefix : "Screenshot"
property reportTitle : "Desktop tidy"

on run argv
	set stamp to do shell script "date +%Y-%m-%d"
	set moved to my fileScreenshots(stamp)
	set freeSpace to do shell script "df -h " & quoted form of POSIX path of (path to desktop) & " | tail -1"
	display notification (moved as text) & " screenshots filed; " & freeSpace with title reportTitle
	return moved
end run

(* fileScreenshots moves every screenshot into a folder named for today.
   Nothing is deleted: "delete every file" and "empty trash" appear only here. *)
on fileScreenshots(stamp)
	set countMoved to 0
	tell application "Finder"
		set target to (path to desktop folder) as alias
		if not (exists folder stamp of target) then
			make new folder at target with properties {name:stamp}
		end if
		set shots to (every file of target whose name starts with screenshotPrefix)
		repeat with f in shots
			set countMoved to countMoved + 1
			set label index of f to 2
		end repeat
	end tell
	return countMoved
end fileScreenshots

on summarize(items_)
	set AppleScript's text item delimiters to ", "
	set s to items_ as text
	set AppleScript's text item delimiters to ""
	return s
end summarize

on todaysReminders()
	set out to {}
	tell application "Reminders"
		set todayStart to current date
		set time of todayStart to 0
		repeat with r in (reminders whose completed is false and due date ≥ todayStart)
			set end of out to name of r
		end repeat
	end tell
	return out
end todaysReminders

tell application "Music"
	if player state is playing then
		set currentName to name of current track
		log "Now playing: " & currentName
	end if
end tell

tell application "System Events"
	set frontApp to name of first application process whose frontmost is true
end tell
set theList to {"alpha", "beta", "gamma"}
set joined to summarize(theList)
display dialog "Tidied for " & frontApp & ": " & joined buttons {"OK"} default button "OK" giving up after 5
`

func benchEnv(b *testing.B) *risk.Env { return fixtureEnv(b) }

func sized(n int) string {
	var sb strings.Builder
	for sb.Len() < n {
		sb.WriteString(benchScript)
	}
	return sb.String()[:n]
}

func BenchmarkAppleScript2KB(b *testing.B) {
	env := benchEnv(b)
	src := sized(2048)
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		risk.AppleScript(src, env)
	}
}

// BenchmarkAppleScriptSize shows the cost per byte from 1 KB to 1 MB; it
// should stay flat (linear time).
func BenchmarkAppleScriptSize(b *testing.B) {
	env := benchEnv(b)
	for _, n := range []int{1 << 10, 16 << 10, 256 << 10, 1 << 20} {
		src := sized(n)
		b.Run(fmt.Sprintf("%dKB", n>>10), func(b *testing.B) {
			b.SetBytes(int64(n))
			for i := 0; i < b.N; i++ {
				risk.AppleScript(src, env)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/byte")
		})
	}
}

func BenchmarkPlan200(b *testing.B) {
	env := benchEnv(b)
	var sb strings.Builder
	lines := 0
	for i := 0; lines < 200; i++ {
		switch i % 8 {
		case 0:
			fmt.Fprintf(&sb, "CREATE_FOLDER \"~/Documents/Projects/p%d\"\n", i)
		case 1:
			fmt.Fprintf(&sb, "MOVE_FILE \"~/Desktop/todo.txt\" \"~/Documents/Projects/todo-%d.txt\"\n", i)
		case 2:
			fmt.Fprintf(&sb, "NOTIFY \"Step %d\" \"Moving along\"\n", i)
		case 3:
			fmt.Fprintf(&sb, "OPEN_URL \"https://example.com/page/%d\"\n", i)
		case 4:
			sb.WriteString("WRITE_DOC \"~/Documents/notes.md\" <<END\n# Notes\n\n- one\n- two\nEND\n")
			lines += 5
		case 5:
			fmt.Fprintf(&sb, "COPY_TO_CLIPBOARD \"copied %d\"\n", i)
		case 6:
			fmt.Fprintf(&sb, "CREATE_REMINDER \"Follow up %d\" \"2026-12-01 09:00\"\n", i)
		case 7:
			sb.WriteString("# a comment line\n")
		}
		lines++
	}
	src := sb.String()
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := risk.DSL(src, env)
		if len(v.Reasons) == 0 {
			b.Fatal("no verdict")
		}
	}
}

func BenchmarkShellPipeline20(b *testing.B) {
	env := benchEnv(b)
	stages := []string{"cat ~/Documents/report.txt", "grep -v '^#'", "sed 's/foo/bar/g'", "awk '{print $1}'",
		"sort", "uniq -c", "sort -rn", "head -50", "cut -c1-80", "tr a-z A-Z", "grep -E 'X|Y'", "rev", "rev",
		"nl", "column -t", "tail -40", "wc -l", "xargs echo", "tee /tmp/out.txt", "pbcopy"}
	src := strings.Join(stages, " | ")
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		risk.Shell(src, env)
	}
}

func BenchmarkShell1MB(b *testing.B) {
	env := benchEnv(b)
	line := "if [ -d \"$HOME/Documents\" ]; then ls -la ~/Documents | grep -c txt; fi\necho \"done: $(date +%s)\" >> /tmp/log.txt\n"
	src := strings.Repeat(line, (1<<20)/len(line))
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		risk.Shell(src, env)
	}
}

func BenchmarkJXA1MB(b *testing.B) {
	env := benchEnv(b)
	chunk := "var app = Application.currentApplication();\napp.includeStandardAdditions = true;\n// read the front URL\nvar s = Application('Safari');\nvar u = s.windows[0].currentTab.url();\napp.displayNotification('Front page: ' + u, {withTitle: 'Safari'});\n"
	src := strings.Repeat(chunk, (1<<20)/len(chunk))
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		risk.JXA(src, env)
	}
}

// BenchmarkNestedShellBomb assesses issue 12's bomb: sh -c nested 12 deep,
// 797 KB. The target: under 0.1 s and 100 MB allocated per assessment.
// cpu-ms/op is the process's CPU time (garbage collection included), which
// other work on a shared machine inflates less than ns/op.
func BenchmarkNestedShellBomb(b *testing.B) {
	bomb := nestedShell(12, "rm -rf ~/Documents")
	env := benchEnv(b)
	b.SetBytes(int64(len(bomb)))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0 := cpuTime(b)
	for b.Loop() {
		if v := risk.Assess(risk.KindShell, bomb, env); v.Level < level.Dangerous {
			b.Fatalf("the bomb is %v", v)
		}
	}
	cpu := cpuTime(b) - cpu0
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/(1<<20), "MB/op")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
