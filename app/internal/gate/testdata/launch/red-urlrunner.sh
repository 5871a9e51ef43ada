#!/bin/sh
# Red team: a stand-in for an app that acts on the URLs of its scheme (VS
# Code's vscode://file/PATH opens and can run a workspace; a mail client's
# mailto:?attach=PATH attaches a file). It records that it started, then
# "runs" the file the URL names. Harmless: the payload only writes a mark
# in the test's own temporary home.
echo "$0 $*" >"$AIRLOCK_LAUNCH_LOG.$(basename "$0")"
for a; do last=$a; done
p=${last#*://file}
[ -f "$p" ] && exec sh "$p"
exit 0
