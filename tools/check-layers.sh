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
rank() {
    local r=0 w
    for w in $order; do
        case "|$w|" in *"|$1|"*) echo $r; return;; esac
        r=$((r + 1))
    done
    echo $r
}
order_line() { sed 's/ / <- /g; s/|/ | /g' <<<"$order"; }
# The layer of each public header: the layer of the code that implements what it declares.
# pgnkit.h, the umbrella, includes them all: only cli/ and the version (below) include it.
header_layer() {
    case $1 in
    base.h) echo base;; chess.h) echo chess;; game.h|annot.h|nag.h|evaluation.h) echo game;;
    reader.h|json_reader.h) echo parse;; query.h) echo query;; opening.h) echo opening;;
    collection.h) echo collection;; writer.h|export.h|json.h) echo export;; engine.h|jobs.h) echo engine;;
    render.h) echo render;; source.h|sort.h|split.h|tempfile.h|workq.h|dedupe_run.h) echo io;; db.h) echo db;; pgnkit.h) echo cli;; *) echo unknown;;
    esac
}
# Allowed exceptions, "file:header", each with its reason:
#   src/base/version.c defines pgn_version(), the umbrella header's own function.
allowed="src/base/version.c:pgnkit.h"

check() {
    local root=$1 bad=0 f layer inc target h hl
    cd "$root" || return 2
    for f in src/*/*.c src/*/*.h; do
        [ -e "$f" ] || continue
        layer=$(basename "$(dirname "$f")")
        while IFS= read -r inc; do
            target=$(sed -n 's|.*"\.\./\([a-z]*\)/.*|\1|p' <<<"$inc")
            if [ -n "$target" ] && [ "$(rank "$target")" -gt "$(rank "$layer")" ]; then
                echo "check-layers: $f includes $target (upward): $inc"; bad=1
            fi
            h=$(sed -n 's|^#include "\(pgnkit/\)\{0,1\}\([a-z_]*\.h\)".*|\1\2|p' <<<"$inc")
            case $h in pgnkit/*|pgnkit.h) ;; *) continue;; esac
            h=${h#pgnkit/}
            hl=$(header_layer "$h")
            case " $allowed " in *" $f:$h "*) continue;; esac
            if [ "$hl" = unknown ]; then
                echo "check-layers: $f includes $h, which is no public header with a layer"; bad=1
            elif [ "$(rank "$hl")" -gt "$(rank "$layer")" ]; then
                echo "check-layers: $f includes public $h of layer $hl (upward): $inc"; bad=1
            fi
        done < <(grep -E '^#include "' "$f")
    done
    for f in include/pgnkit/*.h; do
        [ -e "$f" ] || continue
        layer=$(header_layer "$(basename "$f")")
        if [ "$layer" = unknown ]; then
            echo "check-layers: $f has no layer (add it to header_layer in tools/check-layers.sh)"
            bad=1; continue
        fi
        while IFS= read -r inc; do
            h=$(sed -n 's|^#include "\([a-z_]*\.h\)".*|\1|p' <<<"$inc")
            hl=$(header_layer "$h")
            if [ -z "$h" ] || [ ! -e "include/pgnkit/$h" ] || [ "$hl" = unknown ]; then
                echo "check-layers: $f includes what is no public header beside it: $inc"; bad=1
            elif [ "$(rank "$hl")" -gt "$(rank "$layer")" ]; then
                echo "check-layers: $f ($layer) includes $h of layer $hl (upward)"; bad=1
            fi
        done < <(grep -E '^#include "' "$f")
    done
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
