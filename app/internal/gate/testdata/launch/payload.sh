#!/bin/sh
# The agent's payload of issue 20's first attack: a file it wrote, opened
# "with" an app that runs what it is given. Harmless here (it only leaves a
# mark in the test's own home), and it must never run at all.
echo ran >"$HOME/PWNED"
