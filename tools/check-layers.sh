#!/usr/bin/env bash
# Fails on an upward #include (STYLE C2): base <- chess <- game <- parse | query <- opening | collection <- export
# <- engine <- render <- cli.
set -u
rank() { case $1 in base) echo 0;; chess) echo 1;; game) echo 2;; parse|query) echo 3;; opening|collection) echo 4;; export) echo 5;; engine) echo 6;; render) echo 7;; *) echo 9;; esac; }
bad=0
for f in src/*/*.c src/*/*.h; do
    [ -e "$f" ] || continue
    layer=$(basename "$(dirname "$f")")
    while IFS= read -r inc; do
        target=$(sed -n 's|.*"\.\./\([a-z]*\)/.*|\1|p' <<<"$inc")
        [ -n "$target" ] || continue
        if [ "$(rank "$target")" -gt "$(rank "$layer")" ]; then
            echo "check-layers: $f includes $target (upward): $inc"; bad=1
        fi
    done < <(grep -E '^#include "' "$f")
done
if grep -El '#include "\.\./(src|\.\./src)' cli/*.c cli/*.h 2>/dev/null; then
    echo "check-layers: cli/ may include only include/"; bad=1
fi
exit $bad
