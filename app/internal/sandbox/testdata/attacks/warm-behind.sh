# An unasked action that came back to back, so that the launcher behind it
# (of its own shape) is started while it runs (red_warm_linux_test.go).
# It says where its temporary folder is, waits there for the file "pids"
# (the warm launchers' process ids as the gate's PID namespace numbers
# them, written by the test once they wait), then runs the attacks of
# warm-sibling.sh, its first argument, on them. Every line that starts WON
# means the attack got through; the test fails on any.
echo "TMPDIR=$TMPDIR"
i=0
while [ ! -s "$TMPDIR/pids" ]; do
	i=$((i + 1))
	if [ "$i" -gt 400 ]; then
		echo "NOPIDS"
		exit 3
	fi
	sleep 0.05
done
attacks=$1
set -- $(cat "$TMPDIR/pids")
rm -f "$TMPDIR/pids"
eval "$attacks"
