#!/usr/bin/env bash
# Encodings told apart with no option (docs/pgn-dialect.md, Encodings), over the corpus files that
# hold bytes that are not UTF-8 (corpus README: which file holds which 8-bit encoding): CP437 names
# come out right, Latin-1 names are not damaged, Scid's Latin-1 file reads as Scid itself writes it
# in UTF-8, and UTF-8 files are read without any conversion. No output holds a C1 control
# character, a CP437 box-drawing character or U+FFFD that the input did not have.
# Prints "RESULT passed failed skipped" like the C suites.
set -u
bin=${PGNKIT_REL_BIN:-${PGNKIT_BIN:-build/pgnkit}}
shared=${PGNKIT_SHARED:-../shared}
c=$shared/corpus
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL $*"; }
if [ ! -d "$c/edge" ]; then
    echo "FAIL corpus not found at $c (set PGNKIT_SHARED)"
    echo "RESULT 0 1 0"
    exit 1
fi
# fmt of a corpus file (.gz read through zcat) into $tmp/out, its stderr into $tmp/err
fmt_of() {
    if [[ $1 == *.gz ]]; then zcat "$1" | "$bin" fmt >"$tmp/out" 2>"$tmp/err"; else "$bin" fmt "$1" >"$tmp/out" 2>"$tmp/err"; fi
}
# file, then the names its output must hold as they are (UTF-8)
names() {
    local f=$1; shift
    fmt_of "$c/$f"
    for n in "$@"; do
        if grep -qF -- "$n" "$tmp/out"; then ok; else ko "$f: no '$n' in the output"; fi
    done
    # C1 controls (U+0080-U+009F), box drawing and blocks (U+2500-U+259F), U+FFFD
    local junk
    junk=$(LC_ALL=C.UTF-8 grep -cP '[\x{80}-\x{9f}\x{2500}-\x{259f}\x{fffd}]' "$tmp/out")
    local had
    had=$( (if [[ $f == *.gz ]]; then zcat "$c/$f"; else cat "$c/$f"; fi) | LC_ALL=C.UTF-8 grep -caP '\x{fffd}')
    if [ "$junk" -eq "$had" ]; then ok; else ko "$f: $junk output lines with C1/box/U+FFFD characters (input: $had)"; fi
}
names edge/encoding/gnuchess-book-cp437-subset.pgn "Zürich" "Nürnberg" "München" "Brüssel" "Köln" \
    "Järvenpää" "Leppälä" "Morón" "Schottländer" "Kirovabad ½ ch-URS"
names big/pgnmentor-players/Kasparov.pgn.gz "Quadros,André"
names big/pgnmentor-players/PolgarJ.pgn.gz "Wälbers"
names edge/annotated/pychess-dortmund.pgn "Nüss" "Réti" "Lékó" "Sämisch" "Hübner" "Düsseldorf" "Horváth"
names edge/setup-fen/pgn-extract-odds.pgn "François" "André"
# every CP437 game of the book is the same 55 games as in the subset: one warning each
fmt_of "$c/edge/encoding/gnuchess-book-cp437-subset.pgn"
n=$(grep -c 'W_ENCODING' "$tmp/err")
if [ "$n" -eq 55 ]; then ok; else ko "gnuchess subset: $n W_ENCODING warnings, want 55"; fi
# Scid's Latin-1 file: the words with non-ASCII letters are those of Scid's own UTF-8 output
words() { LC_ALL=C.UTF-8 grep -oP '[^\s"\[\]{}(),.;:/-]*[^\x00-\x7f][^\s"\[\]{}(),.;:/-]*' "$1" | sort -u; }
"$bin" fmt --quiet "$c/expected/scid/res_gameLatin1.pgn" >"$tmp/scid" 2>/dev/null
if diff <(words "$tmp/scid") <(words "$c/expected/scid/res_gameLatin1expected.pgn") >"$tmp/d"; then ok; else
    ko "scid Latin-1: words differ from Scid's UTF-8 output"; head -n 10 "$tmp/d"; fi
# UTF-8 files: no conversion at all, and every non-ASCII word of the input comes out as it was
for f in expected/scid/res_gameUTF8.pgn edge/encoding/python-chess-utf8-bom.pgn \
    big/tcec/TCEC_Season_6_-_Superfinal.pgn.gz big/tcec/TCEC_Season_10_-_Superfinal.pgn.gz; do
    fmt_of "$c/$f"
    if grep -q W_ENCODING "$tmp/err"; then ko "$f: UTF-8 input converted"; else ok; fi
    if [[ $f == *.gz ]]; then zcat "$c/$f" >"$tmp/in"; else cp "$c/$f" "$tmp/in"; fi
    if [ -z "$(comm -23 <(words "$tmp/out") <(words "$tmp/in"))" ]; then ok; else ko "$f: a UTF-8 word changed"; fi
done
echo "RESULT $pass $fail 0"
[ "$fail" -eq 0 ]
