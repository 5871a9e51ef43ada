tell application "Finder"
	duplicate (POSIX file "/tmp/report.pdf") to folder (POSIX file ((POSIX path of (path to home folder)) & "Work"))
end tell
