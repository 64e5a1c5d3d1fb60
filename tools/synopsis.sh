#!/usr/bin/env bash
# Prints the command synopsis of the README from the program itself: for each command of
# `pgnkit help`, in its order, the usage lines of `pgnkit COMMAND --help` (the "usage:" line and
# the indented lines that continue it, and any further "pgnkit COMMAND" forms). tests/cli/test_docs.sh
# compares it with the block between the synopsis markers of README.md; `make readme` rewrites it.
set -euo pipefail
bin=${1:-build/pgnkit}
cmds=$("$bin" help | awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{exit}')
for c in $cmds; do
    [ "$c" = help ] && continue
    "$bin" "$c" --help | awk -v c="$c" '
        NR == 1 { sub(/^usage: /, ""); print; next }
        /^ *pgnkit / { sub(/^ +/, ""); print; next }
        /^ +(\[|--|-[a-z] )/ { sub(/^ +/, "    "); print; next }
        { exit }'
done
echo "pgnkit help [COMMAND]"
echo "pgnkit --version"
