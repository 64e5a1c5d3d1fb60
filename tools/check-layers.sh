#!/usr/bin/env bash
# Fails on an upward #include (STYLE C2) and on a layer order in the docs that is not this one.
# The order is defined here once (order= below, bottom up) and printed by --order; docs/design.md
# ("## Layers") must quote that line, so the docs and the check cannot give different orders
# (issue 33 point 4). The parser never includes io. Checked:
#   - src/: an include of another layer's directory ("../x/...") and of a public header
#     ("pgnkit/x.h", "pgnkit.h") must be of the file's own layer or a lower one;
#   - include/pgnkit/*.h: each includes only public headers of its own or a lower layer, and
#     every public header has a layer in the table below (a new one must be given one);
#   - cli/ includes only include/;
#   - docs/design.md quotes the line --order prints.
# Usage: tools/check-layers.sh [DIR]   (DIR: the tree to check, default .)
#        tools/check-layers.sh --order   (the layer order, bottom up, as the docs quote it)
#        tools/check-layers.sh --self-test   (shows that each kind of violation fails)
set -u
# The one layer order, bottom up: one rank per word, the layers of one rank joined by '|'; a
# directory of src/ that is not named here ranks above them all.
order="base chess game parse|query opening|collection export render engine io db cli"
order_line() { sed 's/ / <- /g; s/|/ | /g' <<<"$order"; }
# The layer of each public header: the layer of the code that implements what it declares.
# pgnkit.h, the umbrella, includes them all: only cli/ and the version (below) include it.
headers="base.h:base chess.h:chess game.h:game annot.h:game nag.h:game evaluation.h:game
    reader.h:parse json_reader.h:parse query.h:query opening.h:opening collection.h:collection
    writer.h:export export.h:export json.h:export engine.h:engine jobs.h:engine render.h:render
    source.h:io sort.h:io split.h:io tempfile.h:io workq.h:io dedupe_run.h:io db.h:db pgnkit.h:cli"
# Allowed exceptions, "file:header", each with its reason:
#   src/base/version.c defines pgn_version(), the umbrella header's own function.
allowed="src/base/version.c:pgnkit.h"

# Every include line of src/ and include/pgnkit/ judged in one awk run (one process, not two per
# line: the check and its self-test's twelve runs took minutes on a loaded two-core machine).
check() {
    local root=$1 bad=0 hdrs
    cd "$root" || return 2
    hdrs=$(for f in include/pgnkit/*.h; do [ -e "$f" ] && basename "$f"; done | tr '\n' ' ')
    if ! grep -HE '^#include "' src/*/*.c src/*/*.h include/pgnkit/*.h 2>/dev/null |
        awk -v order="$order" -v allowed="$allowed" -v hdrs="$hdrs" -v table="$headers" '
        function rank(x,   i) { return (x in rk) ? rk[x] : nw }
        function hlayer(h) { return (h in hl) ? hl[h] : "unknown" }
        BEGIN {
            nw = split(order, w, " ")
            for (i = 1; i <= nw; i++) { n = split(w[i], p, "|"); for (k = 1; k <= n; k++) rk[p[k]] = i - 1 }
            n = split(table, t, /[ \n]+/); for (i = 1; i <= n; i++) { split(t[i], q, ":"); hl[q[1]] = q[2] }
            n = split(allowed, a, " "); for (i = 1; i <= n; i++) ok[a[i]] = 1
            n = split(hdrs, a, " "); for (i = 1; i <= n; i++) { have[a[i]] = 1; pub[i] = a[i] }
            npub = n; bad = 0
        }
        {
            c = index($0, ":"); f = substr($0, 1, c - 1); inc = substr($0, c + 1)
            if (f ~ /^include\/pgnkit\//) {
                b = f; sub(/.*\//, "", b); layer = hlayer(b)
                if (layer == "unknown") next
                h = ""; if (match(inc, /^#include "[a-z_]*\.h"/)) h = substr(inc, 11, RLENGTH - 11)
                if (h == "" || !(h in have) || hlayer(h) == "unknown") {
                    print "check-layers: " f " includes what is no public header beside it: " inc; bad = 1
                } else if (rank(hlayer(h)) > rank(layer)) {
                    print "check-layers: " f " (" layer ") includes " h " of layer " hlayer(h) " (upward)"; bad = 1
                }
                next
            }
            split(f, d, "/"); layer = d[2]
            if (match(inc, /"\.\.\/[a-z]*\//)) {
                target = substr(inc, RSTART + 4, RLENGTH - 5)
                if (rank(target) > rank(layer)) {
                    print "check-layers: " f " includes " target " (upward): " inc; bad = 1
                }
            }
            h = ""
            if (match(inc, /^#include "(pgnkit\/)?[a-z_]*\.h"/)) h = substr(inc, 11, RLENGTH - 11)
            if (h !~ /^pgnkit\// && h != "pgnkit.h") next
            sub(/^pgnkit\//, "", h)
            if ((f ":" h) in ok) next
            if (hlayer(h) == "unknown") {
                print "check-layers: " f " includes " h ", which is no public header with a layer"; bad = 1
            } else if (rank(hlayer(h)) > rank(layer)) {
                print "check-layers: " f " includes public " h " of layer " hlayer(h) " (upward): " inc; bad = 1
            }
        }
        END {
            for (i = 1; i <= npub; i++) if (hlayer(pub[i]) == "unknown") {
                print "check-layers: include/pgnkit/" pub[i] " has no layer (add it to headers= in tools/check-layers.sh)"
                bad = 1
            }
            exit bad
        }'; then
        bad=1
    fi
    if grep -El '#include "\.\./(src|\.\./src)' cli/*.c cli/*.h 2>/dev/null; then
        echo "check-layers: cli/ may include only include/"; bad=1
    fi
    if ! grep -qF "\`$(order_line)\`" docs/design.md 2>/dev/null; then
        echo "check-layers: docs/design.md does not quote the layer order \`$(order_line)\`"; bad=1
    fi
    return $bad
}

# Each kind of violation, put into a copy of the tree, must make the check fail.
self_test() {
    local tmp fails=0 name file line
    tmp=$(mktemp -d) || return 2
    trap 'rm -rf "$tmp"' RETURN
    { cp -r src include cli "$tmp/" && mkdir "$tmp/docs" && cp docs/design.md "$tmp/docs/"; } ||
        return 2
    if ! (check "$tmp" >/dev/null); then
        echo "check-layers self-test: the clean copy fails"; return 1
    fi
    while IFS='|' read -r name file line; do
        cp "$tmp/$file" "$tmp/$file.orig"
        printf '%s\n' "$line" >>"$tmp/$file"
        if (check "$tmp" >/dev/null); then
            echo "check-layers self-test: not caught: $name"; fails=1
        fi
        mv "$tmp/$file.orig" "$tmp/$file"
    done <<'EOF'
src upward directory|src/chess/movegen.c|#include "../export/x.h"
src upward public header|src/parse/lexer.h|#include "pgnkit/engine.h"
src the umbrella|src/game/game.c|#include "pgnkit.h"
parser includes the source layer|src/parse/reader.c|#include "pgnkit/source.h"
parser includes src/io|src/parse/lexer.h|#include "../io/source_int.h"
src unknown public header|src/game/game.c|#include "pgnkit/nosuch.h"
public header upward|include/pgnkit/chess.h|#include "game.h"
public header not public|include/pgnkit/game.h|#include "../../src/game/arena.h"
cli into src|cli/main.c|#include "../src/game/arena.h"
EOF
    sed -i 's/ <- render <- / <- x <- /' "$tmp/docs/design.md"
    if (check "$tmp" >/dev/null); then
        echo "check-layers self-test: not caught: another layer order in docs/design.md"; fails=1
    fi
    touch "$tmp/include/pgnkit/new.h"
    if (check "$tmp" >/dev/null); then
        echo "check-layers self-test: not caught: public header without a layer"; fails=1
    fi
    [ $fails = 0 ] && echo "check-layers self-test: 11 violations caught"
    return $fails
}

if [ "${1:-}" = --self-test ]; then
    self_test
elif [ "${1:-}" = --order ]; then
    order_line
else
    check "${1:-.}"
fi
