#!/usr/bin/env bash
# A game's language is the game's (issue 28 point 3, docs/notation.md): TWIC 1427 + 1428
# (9,416 games of $SHARED/corpus/big/twic) exported in English by fmt, then rewritten with each
# letter set of docs/notation.md's table by tests/tools/lang_rewrite.py (its own rewriting, from
# the table, not pgnkit's), read back by fmt with no option (detection) and compared game by game
# with the English export:
# - German, French, Spanish, Dutch and figurines: no error, byte-identical to the English export;
# - every letter set: at least 99.5% of the games read whole (identical, no error), and no game
#   that differs from the English one without an error (never a wrong game without a diagnostic).
# Prints "RESULT passed failed skipped".
set -u
bin=$(realpath "${PGNKIT_BIN:-build/pgnkit}")
shared=$(realpath "${PGNKIT_SHARED:-../shared}")
here=$(dirname "$(realpath "$0")")
root=$(realpath "$here/../..")
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
twic=("$shared"/corpus/big/twic/twic1427.pgn.gz "$shared"/corpus/big/twic/twic1428.pgn.gz)
for f in "${twic[@]}"; do
    [ -f "$f" ] || { echo "SKIP $f missing"; echo "RESULT 0 0 1"; exit 0; }
done
gzip -dc "${twic[@]}" >"$tmp/raw.pgn"
"$bin" fmt --quiet -o "$tmp/en.pgn" "$tmp/raw.pgn" 2>/dev/null
# game by game: N games, W whole (identical, no error), E with an error, X different without one
# (or a game more or less)
compare() {
    /usr/bin/python3 - "$tmp/en.pgn" "$1" "$2" <<'EOF'
import re, sys
def games(p):
    with open(p, encoding="utf-8") as f:
        return re.split(r"\n(?=\[Event )", f.read())
en, back = games(sys.argv[1]), games(sys.argv[2])
err = set()
with open(sys.argv[3], encoding="utf-8", errors="replace") as f:
    for line in f:
        m = re.search(r"error: .*\(game (\d+)\)$", line.rstrip("\n"))
        if m:
            err.add(int(m.group(1)))
# fmt writes the games read whole, in order, and leaves out (rejects) the broken ones
whole = wrong = 0
j = 0
for i, g in enumerate(en):
    if (i + 1) in err:
        continue
    b = back[j] if j < len(back) else None
    j += 1
    if b is not None and b.rstrip("\n") == g.rstrip("\n"):
        whole += 1
    else:
        wrong += 1
wrong += max(0, len(back) - j)
print(len(en), whole, len(err), wrong)
EOF
}
for l in de fr es nl figurine cs da et fi hu is it no pl pt ro sv ru; do
    /usr/bin/python3 "$root/tests/tools/lang_rewrite.py" "$root/docs/notation.md" "$l" \
        "$tmp/en.pgn" "$tmp/$l.pgn" || { bad "$l: rewriting failed"; continue; }
    cmp -s "$tmp/en.pgn" "$tmp/$l.pgn" && bad "$l: the rewriting changed nothing"
    "$bin" fmt --quiet -o "$tmp/back.pgn" "$tmp/$l.pgn" 2>"$tmp/diag"
    read -r games whole errors wrong <<<"$(compare "$tmp/back.pgn" "$tmp/diag")"
    echo "# $l: $whole of $games games read whole, $errors with an error, $wrong wrong" >&2
    [ "${wrong:-1}" = 0 ] && ok || bad "$l: $wrong games read as other games without an error"
    [ $((whole * 1000)) -ge $((games * 995)) ] && ok || bad "$l: $whole of $games read whole (< 99.5%)"
    case $l in
    de | fr | es | nl | figurine)
        [ "$errors" = 0 ] && ok || bad "$l: $errors games with an error"
        cmp -s "$tmp/en.pgn" "$tmp/back.pgn" && ok || bad "$l: read back differs from the English export"
        ;;
    esac
done
# the same two moves read as different games by two languages (a Hungarian knight, a Polish
# queen): refused as a file's first game; read in Hungarian after a Hungarian game (the prior)
tie='1. e4 e5 2. Hf3 Hf6 0-1'
printf '[Event "x"]\n\n%s\n' "$tie" >"$tmp/tie.pgn"
"$bin" check "$tmp/tie.pgn" >"$tmp/diag" 2>&1
grep -q "'Hf3: Hungarian, Polish': did you mean Nf3 or Qf3? \[E_LANGUAGE_AMBIGUOUS\]" "$tmp/diag" && ok || bad "tie alone: $(cat "$tmp/diag")"
printf '[Event "h"]\n\n1. e4 e5 2. Hf3 Hc6 3. Fb5 a6 *\n\n[Event "x"]\n\n%s\n' "$tie" >"$tmp/tie.pgn"
"$bin" check "$tmp/tie.pgn" >"$tmp/diag" 2>&1
grep -q "'Hf3: Hungarian (as the games before)' \[W_LANGUAGE\] (game 2)" "$tmp/diag" &&
    ! grep -q "error:" "$tmp/diag" && ok || bad "tie after a Hungarian game: $(cat "$tmp/diag")"
# inside a variation: the rest of the variation decides (2. Se2 is a knight's move in German, a
# bishop's in Czech, where 2... Sc6 is no move: the bishop on c8 is shut in)
printf '[Event "v"]\n\n1. e4 e5 (1... c5 2. Se2 Sc6 3. d4 cxd4 4. Sxd4 Sf6) 2. Sf3 *\n' >"$tmp/var.pgn"
"$bin" convert --to san "$tmp/var.pgn" >"$tmp/out" 2>"$tmp/diag"
[ "$(cat "$tmp/out")" = "e4 e5 Nf3" ] && ! grep -q "error:" "$tmp/diag" && ok ||
    bad "variation: $(cat "$tmp/out" "$tmp/diag")"
echo "RESULT $pass $fail $skip"
