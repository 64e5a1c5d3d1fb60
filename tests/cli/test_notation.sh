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
    # descriptive notation (English P-K4, Spanish P4R, Portuguese C3BR): written by fmt and by
    # convert --to san, read back named and detected (W_DESCRIPTIVE), the same games
    for d in descriptive descriptive:es descriptive:pt; do
        "$bin" fmt --lang "$d" -o "$tmp/d.pgn" "$tmp/en.pgn" 2>/dev/null
        "$bin" fmt --quiet --input-lang "$d" -o "$tmp/back.pgn" "$tmp/d.pgn" 2>/dev/null
        cmp -s "$tmp/en.pgn" "$tmp/back.pgn" && ok || bad "$name: $d, --input-lang, read back differs"
        "$bin" fmt -o "$tmp/back.pgn" "$tmp/d.pgn" 2>"$tmp/diag"
        cmp -s "$tmp/en.pgn" "$tmp/back.pgn" && ok || bad "$name: $d, detected, read back differs"
        det=$(grep -c W_DESCRIPTIVE "$tmp/diag")
        [ "$det" = "$games" ] && ok || bad "$name: $d: W_DESCRIPTIVE in $det games of $games"
        "$bin" convert --to san --lang "$d" -o "$tmp/d.san" "$tmp/en.pgn" 2>/dev/null
        awk '{print "[Event \"x\"]\n\n" $0 " *\n"}' "$tmp/d.san" >"$tmp/dsan.pgn"
        "$bin" convert --to san --input-lang "$d" -o "$tmp/dsan.san" "$tmp/dsan.pgn" 2>/dev/null
        cmp -s "$tmp/en.san" "$tmp/dsan.san" && ok || bad "$name: convert --lang $d, read back, differs"
        # the issue's names: convert --to descriptive[:LANG] and --notation
        "$bin" convert --to "$d" -o "$tmp/d2.san" "$tmp/en.pgn" 2>/dev/null
        cmp -s "$tmp/d.san" "$tmp/d2.san" && ok || bad "$name: convert --to $d differs from --to san --lang $d"
        "$bin" convert --to san --notation "$d" -o "$tmp/dsan2.san" "$tmp/dsan.pgn" 2>/dev/null
        cmp -s "$tmp/en.san" "$tmp/dsan2.san" && ok || bad "$name: --notation $d, read back, differs"
        echo "# $name $d: $games games written and read back, $det detected" >&2
    done
done
# A famous game as the books print it (Morphy v the Duke of Brunswick and Count Isouard, Paris
# 1858; moves as quoted by E. Winter from F. Marshall, Comparative Chess, 1932, p. 54: see
# tests/unit/test_descriptive.c), with "ch" and "mate" as separate words, read to its SAN; and the
# short form "B-B4" where two bishops reach a B4 square, refused with both moves named.
opera='1. P-K4 P-K4 2. N-KB3 P-Q3 3. P-Q4 B-N5 4. PxP BxN 5. QxB PxP 6. B-QB4 N-KB3 7. Q-QN3 Q-K2
8. N-B3 P-B3 9. B-KN5 P-N4 10. NxP PxN 11. BxNP ch QN-Q2 12. O-O-O R-Q1 13. RxN RxR 14. R-Q1 Q-K3
15. BxR ch NxB 16. Q-N8 ch NxQ 17. R-Q8 mate 1-0'
want='e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#'
printf '[Event "Opera"]\n\n%s\n' "$opera" >"$tmp/opera.pgn"
got=$("$bin" convert --to san "$tmp/opera.pgn" 2>"$tmp/diag")
[ "$got" = "$want" ] && ok || bad "the Opera game in descriptive reads as '$got'"
grep -q "W_DESCRIPTIVE" "$tmp/diag" && ok || bad "the Opera game: no W_DESCRIPTIVE"
printf '[Event "Opera"]\n\n%s\n' "${opera/B-QB4/B-B4}" >"$tmp/opera2.pgn"
"$bin" check "$tmp/opera2.pgn" 2>"$tmp/diag" >/dev/null
grep -q "3:66: error: .*'B-B4: Bc4, Bf4' \[E_DESCRIPTIVE_AMBIGUOUS\]" "$tmp/diag" && ok ||
    bad "B-B4 with two bishops: $(cat "$tmp/diag")"
# A game as a book prints it: Edward Lasker, Chess Strategy (1915; Project Gutenberg #5614), Game
# No. 18, Em. Lasker v Capablanca, St Petersburg 1914, moves 1-10 (Kt, Castles, "Castles." with
# its full stop; tests/unit/test_desc_printed.c), read through the PGN reader to the moves of the
# same game in pgnmentor's Capablanca.pgn.gz. The e-text's "4. BxKtQ PxB" (a space misplaced in
# "BxKt QPxB") is refused as no legal move, and the book's own text reads.
cs='1. P-K4 P-K4 2. Kt-KB3 Kt-QB3 3. B-Kt5 P-QR3 4. BxKt QPxB 5. P-Q4 PxP 6. QxP QxQ
7. KtxQ B-Q3 8. Kt-QB3 Kt-K2 9. Castles Castles. 10. P-B4 R-K1 *'
f="$shared/corpus/big/pgnmentor-players/Capablanca.pgn.gz"
want=$(zcat "$f" | tr -d '\r' | awk '/^\[White "Lasker, Emanuel"\]/ { w = 1 } /^\[Black / && w == 1 {
    w = ($0 ~ /Capablanca/) ? 2 : 0 } /^\[Event / { w = 0 } w == 2 && /^1\./ { m = 1 } m && /^$/ { exit }
    m { print }' | tr ' ' '\n' | sed 's/^[0-9]*\.//' | grep -v '^$' | head -20 | tr '\n' ' ')
printf '[Event "St Petersburg"]\n\n%s\n' "$cs" >"$tmp/cs.pgn"
got=$("$bin" convert --to san "$tmp/cs.pgn" 2>"$tmp/diag" | tr '\n' ' ')
[ -n "$want" ] && [ "${got% }" = "${want% }" ] && ok || bad "Chess Strategy game 18 reads as '$got', not '$want'"
printf '[Event "St Petersburg"]\n\n%s\n' "${cs/BxKt QPxB/BxKtQ PxB}" >"$tmp/cs2.pgn"
"$bin" check "$tmp/cs2.pgn" 2>"$tmp/diag" >/dev/null
grep -q "3:49: error: illegal move 'BxKtQ' \[E_ILLEGAL_MOVE\]" "$tmp/diag" && ok ||
    bad "Chess Strategy's e-text: $(cat "$tmp/diag")"
# W_NOTATION_HINT: a move that no reader plays, named with the notations whose form it has, with
# detection (P-K5: no legal move in any) and under --input-lang en (English only) or de.
hint() { # name, expected token, pgnkit arguments...
    local name=$1 want=$2
    shift 2
    "$bin" check "$@" 2>"$tmp/diag" >/dev/null
    grep -q "'$want' \[W_NOTATION_HINT\]" "$tmp/diag" && ok || bad "hint $name: $(cat "$tmp/diag")"
}
printf '[Event "a"]\n\n1. P-K5 *\n' >"$tmp/h1.pgn"
hint "P-K5" "P-K5: descriptive" "$tmp/h1.pgn"
hint "--input-lang en, Chess Strategy" "P-K4: descriptive" --input-lang en "$tmp/cs.pgn"
printf '[Event "a"]\n\n1. e4 e5 2. Sf3 Sc6 *\n' >"$tmp/h2.pgn"
hint "--input-lang en, German" "Sf3: da/de/no/sv, pl" --input-lang en "$tmp/h2.pgn"
printf '[Event "a"]\n\n1. P4R P4R 2. C3AR C3AD *\n' >"$tmp/h3.pgn"
hint "--input-lang de, Spanish" "P4R: descriptive:es, descriptive:pt" --input-lang de "$tmp/h3.pgn"
"$bin" check "$tmp/h2.pgn" 2>"$tmp/diag" >/dev/null # read by detection: no hint
grep -q "W_NOTATION_HINT" "$tmp/diag" && bad "hint on a game detection reads" || ok
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
