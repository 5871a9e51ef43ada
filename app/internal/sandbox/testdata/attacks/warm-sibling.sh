# An unasked action's attack on the warm launchers beside it and behind it
# (red_warm_linux_test.go). Arguments: the warm launchers' process ids as
# the gate's PID namespace numbers them. Every line that starts WON means
# the attack got through; the test fails on any.

# 1. Find a launcher that waits, by name, among the processes this action sees.
for d in /proc/[0-9]*; do
	p=${d#/proc/}
	[ "$p" = 1 ] && continue
	# A launcher's second argument is its flag (this script's own text,
	# which names the flag, is a third one of sh).
	if [ "$(tr '\0' '\n' < "$d/cmdline" 2>/dev/null | sed -n 2p)" = --sandbox-wait ]; then
		echo "WON saw a waiting launcher as pid $p"
	fi
done

# 2. By its number outside: signal it, trace it, read its descriptors, enter it.
for p in "$@"; do
	kill -0 "$p" 2>/dev/null && echo "WON may signal $p"
	kill -STOP "$p" 2>/dev/null && echo "WON stopped $p"
	kill -KILL "$p" 2>/dev/null && echo "WON killed $p"
	ls "/proc/$p/fd" >/dev/null 2>&1 && echo "WON listed the descriptors of $p"
	cat "/proc/$p/environ" >/dev/null 2>&1 && echo "WON read the environment of $p"
	ls "/proc/$p/root/" >/dev/null 2>&1 && echo "WON reached the root of $p"
	timeout 2 strace -p "$p" -e trace=none -o /dev/null 2>/dev/null && echo "WON traced $p"
	nsenter -t "$p" -m true 2>/dev/null && echo "WON entered the mounts of $p"
	nsenter -t "$p" -n true 2>/dev/null && echo "WON entered the network of $p"
done

# 3. Its own launcher (PID 1 here, a warm one): the socket it waited on,
#    its descriptors, tracing it.
for f in /proc/1/fd/*; do
	[ -e "$f" ] || continue
	echo "WON sees descriptor $f of its launcher: $(readlink "$f" 2>/dev/null)"
done
timeout 2 strace -p 1 -e trace=none -o /dev/null 2>/dev/null && echo "WON traced its launcher"
ls /proc/self/fd | while read -r n; do
	case "$n" in 0|1|2|255) ;; *) l=$(readlink "/proc/self/fd/$n" 2>/dev/null); case "$l" in socket:*) echo "WON holds a socket: fd $n $l";; "") ;; *launch*) echo "WON holds the launcher's file: fd $n $l";; *) echo "NOTE holds fd $n: $l";; esac;; esac
done

# 4. Every process it may signal at all (kill -1 spares the caller).
kill -CONT -1 2>/dev/null

# 5. A mount that would propagate to a launcher not yet private (one in a
#    user namespace of its own is no win by itself: the test looks for it
#    in the other launchers' mounts).
unshare -Urm sh -c 'mount -t tmpfs warmattack /tmp && echo "NOTE mounted in a user namespace of its own"' 2>/dev/null
mount -t tmpfs warmattack /tmp 2>/dev/null && echo "WON mounted over /tmp"
mount --make-rshared / 2>/dev/null && echo "WON made its mounts shared"

# 6. Leave something for the next action.
for d in "$TMPDIR" /tmp /dev/shm /var/tmp "$HOME"; do
	[ -n "$d" ] && echo planted > "$d/warm-leftover" 2>/dev/null
done
echo done
