# Run confined, unasked, by TestRedLauncherInRoot with $1 the launcher's
# path inside a sandbox root: every way this action has to change the file
# the next action starts through. Each line prints a marker when it works.
L="$1"
D=$(dirname "$L")
P=$(dirname "$D")
printf 'evil\n' > "$L" 2>/dev/null && echo WROTE-LAUNCHER
printf 'evil\n' >> "$L" 2>/dev/null && echo APPENDED-LAUNCHER
rm -f "$L" 2>/dev/null && echo REMOVED-LAUNCHER
ln "$L" "$P/hard" 2>/dev/null && echo HARDLINKED-LAUNCHER
mv "$D" "$D.old" 2>/dev/null && echo MOVED-FOLDER
mv "$P" "$P.old" 2>/dev/null && echo MOVED-PARENT
for f in /proc/[0-9]*/fd/* /proc/[0-9]*/exe; do
	t=$(readlink "$f" 2>/dev/null)
	case "$t" in
	*airlock-launch*) echo "SEES $f -> $t"; printf 'evil\n' > "$f" 2>/dev/null && echo WROTE-THROUGH-PROC ;;
	esac
done
mkdir -p "$D" 2>/dev/null
printf '#!/bin/sh\necho evil\n' > "$D/airlock-launch.new" 2>/dev/null && chmod +x "$D/airlock-launch.new" && mv -f "$D/airlock-launch.new" "$L" 2>/dev/null && echo RENAMED-OVER-LAUNCHER
echo done
