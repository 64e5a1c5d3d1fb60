#!/usr/bin/env bash
# CLI tests of pgnkit db select (issue 30): every documented example of docs/query.md (the
# "Atoms" sections, and the examples at its top) answered from the database gives the same games,
# in the same order and with the same first matching ply, as pgnkit select on the imported files
# (imported with --keep-duplicates, so that the database's ids are the files' ordinals): on TWIC
# 1427+1428, on the first 5,000 games of the gnuchess book, and on the edge corpus (variants,
# Chess960, broken games, variations, setups), there with 40 FENs sampled from its main lines
# too. A fen, hash or opening that every match must reach is answered through the position index
# (--stats says so), one under not, or, flip or in variations is not; the games' bytes are the
# files'; errors are refused with the codes of pgnkit select.
# Prints "RESULT passed failed skipped" like the C suites.
set -u
bin=${PGNKIT_BIN:-build/pgnkit}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
rel=${PGNKIT_REL_BIN:-$bin}
case $rel in /*) ;; *) rel=$PWD/$rel ;; esac
shared=${PGNKIT_SHARED:-../shared}
here=$(cd "$(dirname "$0")/../.." && pwd)
pass=0 fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
same() { # name, want, got
    if [ "$2" == "$3" ]; then ok; else bad "$1: want [$2] got [$3]"; fi
}

# The examples: the indented lines of docs/query.md's "Atoms" sections, and the expressions of
# the pgnkit select examples at its top.
awk '/^## Atoms/{on=1} /^### Regular expressions/{on=0} on && /^    [^ ]/{sub(/^    /,""); print}' \
    "$here/docs/query.md" >"$t/examples"
sed -n "s/^    pgnkit select [^']*'\([^']*\)'.*/\1/p" "$here/docs/query.md" >>"$t/examples"
n=$(wc -l <"$t/examples")
[ "$n" -ge 80 ] && ok || bad "only $n examples found in docs/query.md"

# For each expression of file $2: pgnkit select on the files $3... against db select on $1, as
# lines "ordinal ply"; sets compared to the number of expressions compared.
compare() { # db, expressions, files...
    local db=$1 exprs=$2 e want got
    compared=0
    shift 2
    while IFS= read -r e; do
        want=$("$rel" select --offsets "$e" "$@" 2>/dev/null |
            sed 's/.*"game":\([0-9]*\).*"ply":\([0-9a-z]*\)}$/\1 \2/')
        got=$("$dbbin" db select --json --db "$db" "$e" 2>&1 |
            sed 's/.*"id":\([0-9]*\).*"ply":\([0-9a-z]*\)}$/\1 \2/')
        if [ "$want" == "$got" ]; then
            ok
        else
            bad "$(basename "$db"): $e: select gives $(wc -l <<<"$want") games, db select $(wc -l <<<"$got")"
        fi
        compared=$((compared + 1))
    done <"$exprs"
}

# ---- TWIC 1427 + 1428 ----
# the big files' comparisons run the release build (each expression replays every game); the
# edge corpus's run the sanitized one
dbbin=$rel
twic=("$shared/corpus/big/twic/twic1427.pgn.gz" "$shared/corpus/big/twic/twic1428.pgn.gz")
"$rel" db import --quiet --keep-duplicates --db "$t/twic.db" "${twic[@]}" 2>"$t/imp.err"
same "twic import" 0 $?
compare "$t/twic.db" "$t/examples" "${twic[@]}"
echo "db select: twic: $compared documented examples give the games of pgnkit select"

# the games' bytes are the files' (the text between games aside, which the database does not
# keep: docs/database.md)
e='opening "1. e4 c5 2. Nf3 d6 3. d4 cxd4"'
same "twic: the games' bytes" "$("$rel" select "$e" "${twic[@]}" 2>/dev/null | tr -d '\n' | md5sum)" \
    "$("$bin" db select --db "$t/twic.db" "$e" | tr -d '\n' | md5sum)"
same "twic: --count" "$("$rel" select --count "$e" "${twic[@]}" 2>/dev/null)" \
    "$("$bin" db select --count --db "$t/twic.db" "$e")"
same "twic: --limit" 3 "$("$bin" db select --json --limit 3 --db "$t/twic.db" "$e" | wc -l)"

# which expressions the position index answers
e4e5='fen "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"'
while IFS='|' read -r how e; do
    "$bin" db select --count --stats --db "$t/twic.db" "$e" >/dev/null 2>"$t/stats"
    grep -q "($how)" "$t/stats" && ok || bad "index: $e: $(cat "$t/stats")"
done <<EOF
from the position index|$e4e5
from the position index|hash 0x823c9b50fd114196
from the position index|opening "1. e4 e5 2. Nf3"
from the position index|White ~ "a" and move e4 then at ($e4e5 and wtm)
from the position index|persist 2 (check) and $e4e5
all|not $e4e5
all|$e4e5 or White ~ "Carlsen"
all|flip $e4e5
all|in variations $e4e5
all|ends = checkmate
EOF
cat >"$t/index_exprs" <<EOF
White ~ "a" and move e4 then at ($e4e5 and wtm)
persist 2 (check) and $e4e5
not $e4e5
$e4e5 or White ~ "Carlsen"
flip $e4e5
in variations $e4e5
EOF
compare "$t/twic.db" "$t/index_exprs" "${twic[@]}"

# ---- the first 5,000 games of the gnuchess book ----
zcat "$shared/corpus/big/gnuchess-book_1.02.pgn.gz" | awk '/^\[Event /{n++} n<=5000' >"$t/book.pgn"
"$rel" db import --quiet --keep-duplicates --db "$t/book.db" "$t/book.pgn" 2>"$t/imp.err"
same "book import" 0 $?
compare "$t/book.db" "$t/examples" "$t/book.pgn"
echo "db select: book slice: $compared documented examples give the games of pgnkit select"

# ---- the edge corpus: variants, Chess960, broken games, variations, setups ----
dbbin=$bin
mapfile -t edge < <(ls "$shared"/corpus/edge/{annotated,chess960,malformed,variants,setup-fen,null-moves,long-games,lichess-export}/*.pgn)
"$rel" db import --quiet --keep-duplicates --db "$t/edge.db" "${edge[@]}" 2>"$t/imp.err"
[ -s "$t/edge.db" ] && ok || bad "edge import: $(cat "$t/imp.err")"
"$rel" convert --to fen "${edge[@]}" 2>/dev/null | awk 'NR % 997 == 1' | head -40 |
    sed 's/.*/fen "&"/' >>"$t/examples"
compare "$t/edge.db" "$t/examples" "${edge[@]}"
echo "db select: edge corpus (${#edge[@]} files): $compared examples and sampled FENs give the games of pgnkit select"

# ---- --count of a fen or hash alone: the position index's games, counted without a replay ----
# (the games it does not hold, variants and broken games, replayed); every other expression as
# db select --json
counts() { # db, expressions, files...
    local db=$1 exprs=$2 e
    compared=0
    shift 2
    while IFS= read -r e; do
        same "$(basename "$db"): --count $e" "$("$rel" select --count "$e" "$@" 2>/dev/null)" \
            "$("$dbbin" db select --count --db "$db" "$e" 2>&1)"
        compared=$((compared + 1))
    done <"$exprs"
}
counts "$t/edge.db" "$t/examples" "${edge[@]}"
echo "db select: edge corpus: $compared --count answers equal pgnkit select's"
"$rel" convert --to fen "$t/book.pgn" 2>/dev/null | grep . | awk 'NR % 1999 == 1' | head -60 |
    sed 's/.*/fen "&"/' >"$t/book_fens"
dbbin=$rel
counts "$t/book.db" "$t/book_fens" "$t/book.pgn"
echo "db select: book slice: $compared sampled FENs' --count equal pgnkit select's"
# positions of the opening that 5 to 400 games of the slice reach, in a database of batches of
# 700 games: dense in some batches (PGNK_DENSE_MIN games or more: every move a row of explore, the
# batch's entries of the fingerprint skipped) and not in others (the entries replayed)
"$rel" db import --quiet --keep-duplicates --batch 700 --db "$t/book7.db" "$t/book.pgn" 2>"$t/imp.err"
same "book import in batches of 700" 0 $?
"$rel" convert --to fen "$t/book.pgn" 2>/dev/null | awk 'NF == 6 && $6 <= 8' | sort | uniq -c |
    awk '$1 >= 5 && $1 <= 400 { $1 = ""; sub(/^ /, ""); print }' | awk 'NR % 7 == 1' | head -40 |
    sed 's/.*/fen "&"/' >"$t/dense_fens"
counts "$t/book7.db" "$t/dense_fens" "$t/book.pgn"
echo "db select: book slice in batches: $compared opening positions' --count equal pgnkit select's"
compare "$t/book7.db" "$t/dense_fens" "$t/book.pgn"
same "book slice in batches: the explorer as in one batch" \
    "$(sed 's/^fen "\(.*\)"$/\1/' "$t/dense_fens" | "$bin" db explore --json --db "$t/book.db" - | md5sum)" \
    "$(sed 's/^fen "\(.*\)"$/\1/' "$t/dense_fens" | "$bin" db explore --json --db "$t/book7.db" - | md5sum)"
"$bin" db select --count --stats --db "$t/twic.db" "$e4e5" >"$t/n" 2>"$t/stats"
same "twic: --count of a fen" "$("$rel" select --count "$e4e5" "${twic[@]}" 2>/dev/null)" "$(cat "$t/n")"
grep -q "^pgnkit db select: 0 games replayed (from the position index), $(cat "$t/n") matched" \
    "$t/stats" && ok || bad "twic: --count of a fen replays: $(cat "$t/stats")"

# ---- errors ----
"$bin" db select --db "$t/twic.db" 'white ~ "Carlsen" and Qz9' >/dev/null 2>"$t/err"
same "a bad expression: status" 2 $?
grep -q "column 23: unknown atom 'Qz9'" "$t/err" && ok || bad "a bad expression: $(cat "$t/err")"
"$bin" db select --db "$t/missing.db" 'wtm' >/dev/null 2>&1
same "a missing database: status" 3 $?
"$bin" db select --count --json --db "$t/twic.db" 'wtm' >/dev/null 2>&1
same "--count with --json: status" 2 $?
"$bin" db select --db "$t/twic.db" >/dev/null 2>&1
same "no expression: status" 2 $?
printf 'ends = checkmate # mates\n' >"$t/q"
same "-f FILE" "$("$rel" select --count 'ends = checkmate' "${twic[@]}" 2>/dev/null)" \
    "$("$bin" db select --count -f "$t/q" --db "$t/twic.db")"

echo "RESULT $pass $fail 0"
