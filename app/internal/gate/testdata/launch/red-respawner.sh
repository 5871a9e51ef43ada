#!/bin/sh
# Red team: a stand-in viewer whose leftover keeps a fresh child of its own
# alive in a new session every few milliseconds and exits, handing over to
# it (each generation double-forks the next before it dies), so that at any
# moment the live process is one the sweep has not seen yet. Harmless: each
# generation only sleeps a little and writes its pid to LOG.gen; it stops
# by itself after about 20 seconds (GEN counts down).
echo "$0 $*" >"$AIRLOCK_LAUNCH_LOG.$(basename "$0")"
cat >"$AIRLOCK_LAUNCH_LOG.gen.sh" <<'EOF'
n=${1:-2000}
[ "$n" -le 0 ] && exit 0
echo $$ >>"$AIRLOCK_LAUNCH_LOG.gen"
sleep 0.01
( setsid sh "$AIRLOCK_LAUNCH_LOG.gen.sh" $((n - 1)) </dev/null >/dev/null 2>&1 & )
exit 0
EOF
( setsid sh "$AIRLOCK_LAUNCH_LOG.gen.sh" 2000 </dev/null >/dev/null 2>&1 & )
exit 0
