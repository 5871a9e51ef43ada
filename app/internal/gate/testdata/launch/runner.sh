#!/bin/sh
# A stand-in for a terminal or interpreter the agent names (zutty, python3):
# it records that it started, then runs its argument, as they do.
echo "$0 $*" >"$AIRLOCK_LAUNCH_LOG.$(basename "$0")"
[ -n "$1" ] && exec sh "$1"
