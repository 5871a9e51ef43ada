# An unasked action's attack on the spawner, the process that starts the
# warm launchers in the gate's place (red_warm_linux_test.go,
# TestRedSpawner). Argument: the spawner's process id as the gate's PID
# namespace numbers it. Every line that starts WON means the attack got
# through; the test fails on any.

# 1. Find it by name among the processes this action sees.
for d in /proc/[0-9]*; do
	p=${d#/proc/}
	if [ "$(tr '\0' '\n' < "$d/cmdline" 2>/dev/null | sed -n 2p)" = --sandbox-spawn ]; then
		echo "WON saw the spawner as pid $p"
	fi
done

# 2. By its number outside: signal it, trace it, read its descriptors and
#    memory, reach its socket, enter its namespaces.
p=$1
kill -0 "$p" 2>/dev/null && echo "WON may signal $p"
kill -STOP "$p" 2>/dev/null && echo "WON stopped $p"
kill -KILL "$p" 2>/dev/null && echo "WON killed $p"
ls "/proc/$p/fd" >/dev/null 2>&1 && echo "WON listed the descriptors of $p"
for f in "/proc/$p/fd/"*; do
	[ -e "$f" ] && echo "WON reached descriptor $f of the spawner"
done
cat "/proc/$p/environ" >/dev/null 2>&1 && echo "WON read the environment of $p"
head -c 1 "/proc/$p/mem" >/dev/null 2>&1 && echo "WON read the memory of $p"
ls "/proc/$p/root/" >/dev/null 2>&1 && echo "WON reached the root of $p"
timeout 2 strace -p "$p" -e trace=none -o /dev/null 2>/dev/null && echo "WON traced $p"
nsenter -t "$p" -m true 2>/dev/null && echo "WON entered the mounts of $p"
nsenter -t "$p" -U true 2>/dev/null && echo "WON entered the user namespace of $p"

# 3. Every process it may signal at all (kill -1 spares the caller; CONT
#    only, which harms nothing wherever it lands).
kill -CONT -1 2>/dev/null

# 4. What its own launcher holds: nothing of the spawner's.
for f in /proc/1/fd/* /proc/self/fd/*; do
	[ -e "$f" ] || continue
	case "$(readlink "$f" 2>/dev/null)" in
	socket:*) echo "NOTE a socket at $f" ;;
	esac
done
echo done
