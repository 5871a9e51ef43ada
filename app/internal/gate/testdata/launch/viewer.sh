#!/bin/sh
# A stand-in for a document viewer: it records what it was given, then
# stays open (as a window would) until it is killed.
echo "$0 $*" >"$AIRLOCK_LAUNCH_LOG.$(basename "$0")"
exec sleep 300
