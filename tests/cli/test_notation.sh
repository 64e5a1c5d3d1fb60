#!/usr/bin/env bash
# Other notations (issue 15, docs/notation.md) through the program, against outside truth:
# - round trips over real games (Kasparov's games of pgnmentor, TWIC 232 games; every file of
#   corpus/big/pgnmentor-players with PGNKIT_SLOW=1): fmt --lang L, then fmt reading it with
#   detection, gives back the English export byte for byte (main lines, variations, comments),
#   for every language, Cyrillic and figurines; convert --to san|lan --lang L read back by
#   --input-lang L too;
# - pgn-extract (/usr/games/pgn-extract), which reads German letters by default: the German copy
#   written by fmt --lang de reads back in pgn-extract to the same SAN as the English file, and
#   pgn-extract's German output (-WsanBSLTDK) reads back with --input-lang de to what pgn-extract
#   writes in English. Detection (no --input-lang) on whole files: no game read wrongly; the
#   counts of games read and of E_LANGUAGE_AMBIGUOUS go to stderr.
# Prints "RESULT passed failed skipped".
set -u
bin=$(realpath "${PGNKIT_BIN:-build/pgnkit}")
shared=$(realpath "${PGNKIT_SHARED:-../shared}")
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=("$shared/corpus/big/misc/mliebelt-twic-01-232games.pgn" "$shared/corpus/big/pgnmentor-players/Kasparov.pgn.gz")
if [ "${PGNKIT_SLOW:-0}" = 1 ]; then
    files+=("$shared"/corpus/big/pgnmentor-players/*.pgn.gz)
fi
langs="cs da nl et fi fr de hu is it no pl pt ro es sv ru figurine"
for f in "${files[@]}"; do
    [ -f "$f" ] || { skip=$((skip + 1)); continue; }
    name=$(basename "$f")
    "$bin" fmt --quiet -o "$tmp/en.pgn" "$f" 2>/dev/null
    "$bin" convert --to san --quiet -o "$tmp/en.san" "$tmp/en.pgn" 2>/dev/null
    games=$(grep -c '^\[Event ' "$tmp/en.pgn")
    for l in $langs; do
        "$bin" fmt --lang "$l" -o "$tmp/$l.pgn" "$tmp/en.pgn" 2>/dev/null
        # detected per game: every game read whole is read right (its main line is one of the
        # English file's), the others are rejected with an error (E_LANGUAGE_AMBIGUOUS when two
        # languages read a move differently); never a wrong game without an error
        "$bin" convert --to san -o "$tmp/det.san" "$tmp/$l.pgn" 2>"$tmp/diag"
        whole=$(grep -c . "$tmp/det.san")
        wrong=$(grep -cvxFf "$tmp/en.san" "$tmp/det.san")
        amb=$(grep -c E_LANGUAGE_AMBIGUOUS "$tmp/diag")
        [ "$wrong" = 0 ] && ok || bad "$name: $l: $wrong games read wrongly"
        echo "# $name $l: detected $whole of $games, $amb E_LANGUAGE_AMBIGUOUS, wrong $wrong" >&2
        # the one line per game forms, read with --input-lang (Dutch cannot be detected where
        # its knight letter P reads as an English pawn move: docs/notation.md)
        "$bin" fmt --quiet --input-lang "$l" -o "$tmp/back2.pgn" "$tmp/$l.pgn" 2>/dev/null
        cmp -s "$tmp/en.pgn" "$tmp/back2.pgn" && ok || bad "$name: --input-lang $l read back differs"
        "$bin" convert --to lan --lang "$l" -o "$tmp/$l.lan" "$tmp/en.pgn" 2>/dev/null
        awk '{print "[Event \"x\"]\n\n" $0 " *\n"}' "$tmp/$l.lan" >"$tmp/lan.pgn"
        "$bin" convert --to san --input-lang "$l" -o "$tmp/lan.san" "$tmp/lan.pgn" 2>/dev/null
        cmp -s "$tmp/en.san" "$tmp/lan.san" && ok || bad "$name: convert --to lan --lang $l, read back, differs"
    done
    echo "# $name: $games games, 18 letter sets, detected and forced" >&2
done
# pgn-extract reads German letters by default: our German copy must give it our moves.
pe=/usr/games/pgn-extract
f="$shared/corpus/big/misc/mliebelt-twic-01-232games.pgn"
if [ -x "$pe" ] && [ -f "$f" ]; then
    "$bin" fmt --quiet -o "$tmp/en.pgn" "$f" 2>/dev/null
    "$bin" fmt --lang de -o "$tmp/de.pgn" "$tmp/en.pgn" 2>/dev/null
    "$pe" -s -Wsan --nocomments --novars -w1000 -o "$tmp/pe_de.pgn" "$tmp/de.pgn" 2>/dev/null
    "$pe" -s -Wsan --nocomments --novars -w1000 -o "$tmp/pe_en.pgn" "$tmp/en.pgn" 2>/dev/null
    if [ -s "$tmp/pe_en.pgn" ] && cmp -s "$tmp/pe_en.pgn" "$tmp/pe_de.pgn"; then ok; else
        bad "pgn-extract reads our German copy differently from the English file"
    fi
    # and pgn-extract's German output (-WsanBSLTDK) is what we read back as German
    "$pe" -s -WsanBSLTDK --nocomments --novars -o "$tmp/pe_out_de.pgn" "$tmp/en.pgn" 2>/dev/null
    "$bin" fmt --quiet --input-lang de -o "$tmp/ours.pgn" "$tmp/pe_out_de.pgn" 2>/dev/null
    "$pe" -s --nocomments --novars -o "$tmp/pe_out_en.pgn" "$tmp/en.pgn" 2>/dev/null
    "$bin" fmt --quiet -o "$tmp/ref.pgn" "$tmp/pe_out_en.pgn" 2>/dev/null
    if [ -s "$tmp/ref.pgn" ] && cmp -s "$tmp/ref.pgn" "$tmp/ours.pgn"; then ok; else
        bad "pgn-extract's German output reads back differently"
    fi
else
    skip=$((skip + 1))
fi
echo "RESULT $pass $fail $skip"
