#!/bin/sh
# Issue 21's attack as one unasked action: empty a document, remove one,
# plant a git hook, and leave a harmless new file. Tests run it only as an
# action of a gate whose HOME is a temporary folder the test made, inside
# the sandbox's copy-on-write view of the roots.
set -e
d="$HOME/Documents"
: > "$d/thesis.docx"
rm "$d/notes.txt"
printf '#!/bin/sh\necho hooked > "$HOME/Documents/HOOKED"\n' > "$d/work/.git/hooks/pre-commit"
chmod +x "$d/work/.git/hooks/pre-commit"
echo new > "$d/new.txt"
echo planted
