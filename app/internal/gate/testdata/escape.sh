# An action that tries to outlive its kill. Test data: run only by the
# bridge's and the gate's tests, as `sh escape.sh DIR MODE`.
#
# It leaves three processes outside its own process group, each holding its
# standard output and error open:
#   setsid  a child in a session of its own (setsid)
#   double  a grandchild whose parent exits at once (a double fork)
#   both    a double fork whose grandchild also calls setsid
# and writes each one's pid to a file of that name in DIR, its own to
# DIR/leader. Then it writes "ready" to DIR/ready (a FIFO the test reads),
# and with MODE "leave" exits at once; with any other MODE it waits.

dir=$1

echo $$ > "$dir/leader"

setsid sleep 303 &
echo $! > "$dir/setsid"
# Until it has actually left our session (field 6 of stat).
mine=$(cut -d' ' -f6 /proc/$$/stat)
while [ "$(cut -d' ' -f6 /proc/$!/stat)" = "$mine" ]; do sleep 0.01; done

sh -c 'sleep 304 & echo $! > "$1/double"' sh "$dir"

sh -c 'setsid sh -c "echo \$\$ > \"\$1/both\"; exec sleep 305" sh "$1" &' sh "$dir"
while [ ! -s "$dir/both" ]; do sleep 0.01; done

echo ready > "$dir/ready"

if [ "$2" = leave ]; then
	exit 0
fi
exec sleep 306
