package bridge

import (
	"strconv"
	"time"
)

// The AppleScripts behind the DSL commands that macOS offers only to
// AppleScript. Their source is fixed: every value arrives in argv (`on run
// argv`), as text, so no value can change what a script does.

// makeDateHandler builds a date from numbers, independent of the locale's
// date format (coercing text to a date is not). The day is set to 1 first so
// that changing the month cannot overflow into the next one.
const makeDateHandler = `
on makeDate(y, m, d, s)
	set theDate to current date
	set day of theDate to 1
	set year of theDate to (y as integer)
	set month of theDate to (m as integer)
	set day of theDate to (d as integer)
	set time of theDate to (s as integer)
	return theDate
end makeDate
`

// notifyScript: argv is title, message, sound name ("" for none).
const notifyScript = `on run argv
	set {theTitle, theMessage, theSound} to {item 1 of argv, item 2 of argv, item 3 of argv}
	if theSound is "" then
		display notification theMessage with title theTitle
	else
		display notification theMessage with title theTitle sound name theSound
	end if
end run
`

// volumeScript: argv is the output volume, 0-100.
const volumeScript = `on run argv
	set volume output volume ((item 1 of argv) as integer)
end run
`

// eventScript: argv is the title, then the start and the end as year,
// month, day and seconds since midnight. The event goes to the first
// calendar that can be written to.
const eventScript = `on run argv
	set theTitle to item 1 of argv
	set startDate to my makeDate(item 2 of argv, item 3 of argv, item 4 of argv, item 5 of argv)
	set endDate to my makeDate(item 6 of argv, item 7 of argv, item 8 of argv, item 9 of argv)
	tell application "Calendar"
		set theCalendar to first calendar whose writable is true
		make new event at end of events of theCalendar with properties {summary:theTitle, start date:startDate, end date:endDate}
	end tell
end run
` + makeDateHandler

// reminderScript: argv is the title, then optionally the due date as year,
// month, day and seconds since midnight. The reminder goes to the default
// list.
const reminderScript = `on run argv
	set theTitle to item 1 of argv
	if (count of argv) > 1 then
		set dueDate to my makeDate(item 2 of argv, item 3 of argv, item 4 of argv, item 5 of argv)
		tell application "Reminders" to make new reminder with properties {name:theTitle, due date:dueDate}
	else
		tell application "Reminders" to make new reminder with properties {name:theTitle}
	end if
end run
` + makeDateHandler

// mailScript: argv is the subject, the body, then one recipient address
// per item. Mail sends the message without showing it.
const mailScript = `on run argv
	set theSubject to item 1 of argv
	set theBody to item 2 of argv
	set addresses to items 3 thru -1 of argv
	tell application "Mail"
		set theMessage to make new outgoing message with properties {subject:theSubject, content:theBody, visible:false}
		repeat with anAddress in addresses
			tell theMessage to make new to recipient at end of to recipients with properties {address:(contents of anAddress)}
		end repeat
		send theMessage
	end tell
end run
`

// dateArgs gives t, in local time, as the four values makeDate takes.
func dateArgs(t time.Time) []string {
	t = t.Local()
	secs := t.Hour()*3600 + t.Minute()*60 + t.Second()
	return []string{strconv.Itoa(t.Year()), strconv.Itoa(int(t.Month())), strconv.Itoa(t.Day()), strconv.Itoa(secs)}
}
