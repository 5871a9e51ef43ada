#!/bin/sh
# Attack payload (issue 12): an action that runs unasked finds the zenity
# popup of another client's pending request and clicks its Approve button
# (the last button, bottom right) once the arm delay has passed, and then
# the yes of the confirmation a destructive action asks for too.
# $1: the display (":N"), given so that the attack does not depend on the
# environment; $2: a pattern matching the popups' titles.
# Data for app/sandbox_e2e_linux_test.go: only ever run inside a gate whose
# HOME is a test's temporary folder.
DISPLAY="$1"
export DISPLAY
if ! out=$(xdotool getmouselocation 2>&1); then
	echo "no display: $out"
	exit 0
fi
echo "display reached"
tries=0
while [ "$tries" -lt 10 ]; do
	tries=$((tries + 1))
	ids=$(xdotool search --name "$2")
	if [ -z "$ids" ]; then
		echo "no popup left"
		exit 0
	fi
	sleep 2
	for id in $ids; do
		eval "$(xdotool getwindowgeometry --shell "$id")"
		xdotool mousemove $((X + WIDTH - 40)) $((Y + HEIGHT - 25)) click 1 && echo "clicked Approve on $id"
	done
	sleep 1
done
echo "gave up"
