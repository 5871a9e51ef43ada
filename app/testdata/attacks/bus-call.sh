#!/bin/sh
# Attack payload (issue 12): an action that runs unasked reaches the session
# bus, where the tray's menu, the notification server and the keyring that
# holds the history's key answer any process of the session. It lists who
# is there, first by the address it was given ($1, so that the attack does
# not depend on the environment), then by the environment's.
# Data for app/sandbox_e2e_linux_test.go: only ever run inside a gate whose
# HOME is a test's temporary folder.
for addr in "$1" "$DBUS_SESSION_BUS_ADDRESS"; do
	[ -n "$addr" ] || continue
	if out=$(dbus-send --bus="$addr" --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.ListNames 2>&1); then
		echo "bus reached at $addr"
		echo "$out"
		exit 0
	fi
	echo "no bus at $addr: $out"
done
if out=$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus --method org.freedesktop.DBus.ListNames 2>&1); then
	echo "bus reached by gdbus"
	echo "$out"
	exit 0
fi
echo "no bus by gdbus: $out"
