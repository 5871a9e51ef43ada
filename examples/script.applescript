-- An AppleScript that only reads: the names of the mounted disks. Try it:
--   bin/airlock validate examples/script.applescript
--   bin/airlock assess --kind applescript examples/script.applescript
tell application "Finder"
	get name of every disk
end tell
