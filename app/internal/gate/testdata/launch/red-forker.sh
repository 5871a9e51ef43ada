#!/bin/sh
# Red team: a stand-in viewer that leaves a daemon behind: it records that
# it started, starts a grandchild in a session of its own (setsid, through
# a subshell that exits: a double fork), writes the grandchild's pid to
# LOG.grandchild, and exits at once. Harmless: the grandchild only sleeps.
echo "$0 $*" >"$AIRLOCK_LAUNCH_LOG.$(basename "$0")"
( setsid sh -c 'echo $$ >"$AIRLOCK_LAUNCH_LOG.grandchild.tmp"; mv "$AIRLOCK_LAUNCH_LOG.grandchild.tmp" "$AIRLOCK_LAUNCH_LOG.grandchild"; exec sleep 300' </dev/null >/dev/null 2>&1 & )
exit 0
