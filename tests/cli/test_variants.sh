#!/usr/bin/env bash
# Chess variants through the CLI (issue 17 §4 and "What must be shown"), against outside truth:
# - tests/data/variants-python-chess.tsv: every game of ../shared/corpus/edge/variants/ as
#   python-chess reads it (run from its public source by tests/tools/variant_oracle.py; none of its
#   code is in pgnkit): "unsupported" (Seirawan, Sittuyin), or its UCI main line and final FEN.
#   `check` reads every supported game with no error and refuses every other with
#   E_UNSUPPORTED_VARIANT; `convert --to uci` gives python-chess's main lines (drops as N@f3) and
#   `convert --to fen` its final positions (pockets in brackets, promoted pieces marked ~).
# - `fmt` is idempotent on them and keeps the main lines; the JSON (`variant`, pockets in the FEN)
#   is valid against docs/pgnkit-game.schema.json and reads back (`--from json`) to fmt's PGN.
# - The lichess crazyhouse games' clocks through `convert --to csv --per-ply` equal python-chess's
#   (tests/data/annot-python-chess.tsv): the 48 of the KnightVuillaume game, no workaround.
# - Drops in other languages' letters: every crazyhouse game through `fmt --lang L` and
#   `--input-lang L` (S@f3 in German, ♘@f3 in figurines) gives python-chess's main lines again.
# - Drops in a game with no Variant tag (issue 28 point 7): every crazyhouse game above without
#   its Variant tag reads as crazyhouse, with W_DROP_CRAZYHOUSE once per game with a drop and no
#   error, to the same UCI main lines and FENs after every ply as with the tag; fmt writes the tag.
#   scalachess's crazyhouseNoVariantTag fixture (a freechess.org game) reads as with the tag.
# - perft/moves/fen --variant on entries of the perft files of ../shared/corpus/perft/
#   (python-chess, scalachess) and the variants' start positions.
# - analyze: Debian's stockfish (no UCI_Variant) leaves a crazyhouse game unchanged with a message;
#   Debian's fairy-stockfish (UCI_Variant lists antichess) analyses the antichess games (every main
#   line move gets its [%eval]). A missing engine is a SKIP with its reason.
# Prints "RESULT passed failed skipped" like the C suites.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(realpath "${PGNKIT_BIN:-build/pgnkit}")
shared=$(realpath "${PGNKIT_SHARED:-../shared}")
oracle=$root/tests/data/variants-python-chess.tsv
clocks=$root/tests/data/annot-python-chess.tsv
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # name, want, got
    if [ "$2" == "$3" ]; then ok; else
        bad "$1"
        diff <(echo "$2") <(echo "$3") | head -n 6
    fi
}

# ---- every game of edge/variants/ against python-chess ----
files=$(grep -v '^#' "$oracle" | cut -f1 | uniq)
[ -n "$files" ] || bad "no rows in $oracle"
for rel in $files; do
    f=$shared/corpus/$rel
    name=$(basename "$rel")
    rows=$(awk -F'\t' -v f="$rel" '$1 == f' "$oracle")
    games=$(echo "$rows" | wc -l)
    unsup=$(echo "$rows" | awk -F'\t' '$3 == "unsupported"' | wc -l)
    # check: the unsupported games are the only errors, each E_UNSUPPORTED_VARIANT
    "$bin" check --quiet --diag json "$f" >/dev/null 2>"$tmp/diag"
    errors=$(grep -c '"severity":"error"' "$tmp/diag")
    refused=$(grep '"severity":"error"' "$tmp/diag" | grep -c '"code":"E_UNSUPPORTED_VARIANT"')
    check "$name: errors = unsupported games" "$unsup $unsup" "$errors $refused"
    # convert --to uci: the main lines of the supported games, in order; the others rejected
    "$bin" convert --to uci "$f" >"$tmp/uci" 2>"$tmp/uci.err"
    check "$name: uci summary" "$games games, $((games - unsup)) written, $unsup rejected, $unsup errors" \
        "$(tail -n 1 "$tmp/uci.err")"
    check "$name: uci main lines = python-chess" \
        "$(echo "$rows" | awk -F'\t' '$3 != "unsupported" {print $7}')" "$(cat "$tmp/uci")"
    # convert --to fen: each game's last FEN is python-chess's final position
    # (a game without moves has no FEN line: "-")
    "$bin" convert --to fen "$f" 2>/dev/null | awk 'NF {last = $0; n++} !NF {print n ? last : "-"; n = 0}' >"$tmp/final"
    check "$name: final positions = python-chess" \
        "$(echo "$rows" | awk -F'\t' '$3 != "unsupported" {print $5 == 0 ? "-" : $6}')" "$(cat "$tmp/final")"
    # fmt: idempotent, and the formatted games have the same main lines
    "$bin" fmt "$f" >"$tmp/a.pgn" 2>/dev/null
    "$bin" fmt "$tmp/a.pgn" >"$tmp/b.pgn" 2>/dev/null
    if cmp -s "$tmp/a.pgn" "$tmp/b.pgn"; then ok; else
        bad "$name: fmt not idempotent"
        diff "$tmp/a.pgn" "$tmp/b.pgn" | head -n 6
    fi
    check "$name: fmt keeps the main lines" "$(cat "$tmp/uci")" \
        "$("$bin" convert --to uci "$tmp/a.pgn" 2>/dev/null)"
    # JSON: one variant member per supported game, and back to fmt's PGN
    "$bin" convert --to ndjson "$f" >"$tmp/g.ndjson" 2>/dev/null
    check "$name: json variant members" "$(echo "$rows" | awk -F'\t' '$3 != "unsupported" {print $3}')" \
        "$(sed -n 's/.*"variant":"\([^"]*\)".*/\1/p' "$tmp/g.ndjson")"
    "$bin" convert --from json "$tmp/g.ndjson" >"$tmp/back.pgn" 2>"$tmp/back.err"
    "$bin" fmt "$tmp/back.pgn" >"$tmp/back2.pgn" 2>/dev/null
    "$bin" convert --to uci "$tmp/back.pgn" >"$tmp/back.uci" 2>/dev/null
    check "$name: json reads back to the same main lines" "$(cat "$tmp/uci")" "$(cat "$tmp/back.uci")"
    if [ "$unsup" -eq 0 ]; then
        if cmp -s "$tmp/a.pgn" "$tmp/back2.pgn"; then ok; else
            bad "$name: json read back differs from fmt"
            diff "$tmp/a.pgn" "$tmp/back2.pgn" | head -n 6
        fi
    fi
done

# JSON of the variant games valid against the schema (python3-jsonschema: validate.py fails, never
# skips, without it; tools/deps.sh installs it)
py=python3
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import jsonschema' >/dev/null 2>&1; then py=$p; break; fi
done
for f in "$shared"/corpus/edge/variants/*.pgn; do
    "$bin" convert --to ndjson "$f" 2>/dev/null
done >"$tmp/all.ndjson"
check "json of the variant games valid" "games 200 invalid 0" \
    "$("$py" "$root/tests/json/validate.py" "$root/docs/pgnkit-game.schema.json" "$tmp/all.ndjson" 2>&1 | tail -n 1)"

# ---- the lichess crazyhouse games' clocks through the CLI (python-chess's values) ----
for rel in edge/variants/python-chess-knightvuillaume-jannlee-zh-lichess.pgn \
    edge/variants/python-chess-saturs-jannlee-zh-lichess.pgn; do
    want=$(awk -F'\t' -v f="$rel" '$1 == f && $4 == "clk" {print $3, $5}' "$clocks")
    got=$("$bin" convert --to csv --per-ply "$shared/corpus/$rel" 2>/dev/null | tr -d '\r' |
        awk -F, 'NR > 1 && $6 != "" {print $2, $6}')
    got=$(echo "$got" | awk 'NF {printf "%d %d\n", $1, $2 * 1000 + 0.5}') # csv: seconds; python-chess: ms
    check "$(basename "$rel"): $(echo "$want" | wc -l) clocks = python-chess" "$want" "$got"
done

# ---- drops in other languages' piece letters ----
# Every crazyhouse game written by `fmt --lang L` reads back (`--input-lang L`) to python-chess's
# main lines, in every language; figurines and Cyrillic letters also without --input-lang (no
# other notation has them). The drops are written in the language's letters (PGN §17's table):
# mapped back to English, the same pieces as python-chess's UCI drops (P@e4, N@f3...).
zh_files="edge/variants/pychess-zh.pgn edge/variants/python-chess-knightvuillaume-jannlee-zh-lichess.pgn
edge/variants/python-chess-saturs-jannlee-zh-lichess.pgn"
drop_pieces() { grep -o '[PNBRQ]@' | sort | uniq -c | tr -s ' '; }
to_english() { # language: its drops' letters (as fmt writes them) as English ones
    case $1 in
    de) sed 's/B@/p@/g; s/S@/N@/g; s/L@/B@/g; s/T@/R@/g; s/D@/Q@/g; s/p@/P@/g' ;;
    fr) sed 's/C@/N@/g; s/F@/B@/g; s/T@/R@/g; s/D@/Q@/g' ;;
    ru) sed 's/п@/P@/g; s/К@/N@/g; s/С@/B@/g; s/Л@/R@/g; s/Ф@/Q@/g' ;;
    figurine) sed 's/♙@/P@/g; s/♘@/N@/g; s/♗@/B@/g; s/♖@/R@/g; s/♕@/Q@/g' ;;
    esac
}
for rel in $zh_files; do
    name=$(basename "$rel")
    want=$(awk -F'\t' -v f="$rel" '$1 == f && $3 != "unsupported" {print $7}' "$oracle")
    [ -n "$want" ] || bad "$name: no python-chess rows"
    langs="de ru figurine" # every language on pychess-zh's 83 games (1,139 drops), three on the others
    [ "$name" = pychess-zh.pgn ] && langs="cs da nl et fi fr de hu is it no pl pt ro es sv ru figurine"
    for lang in $langs; do
        "$bin" fmt --lang "$lang" "$shared/corpus/$rel" >"$tmp/l.pgn" 2>/dev/null
        check "$name: fmt --lang $lang reads back (--input-lang $lang) to python-chess's main lines" \
            "$want" "$("$bin" convert --input-lang "$lang" --to uci "$tmp/l.pgn" 2>/dev/null)"
        case $lang in
        ru | figurine)
            check "$name: $lang drops read without --input-lang" "$want" \
                "$("$bin" convert --to uci "$tmp/l.pgn" 2>/dev/null)"
            ;;
        esac
        case $lang in
        de | fr | ru | figurine)
            check "$name: fmt --lang $lang writes the drops in its letters" \
                "$(echo "$want" | drop_pieces)" \
                "$("$bin" fmt --lang "$lang" --no-variations --no-comments "$shared/corpus/$rel" 2>/dev/null |
                    grep -v '^\[' | to_english "$lang" | drop_pieces)"
            ;;
        esac
    done
done

# ---- perft, moves and fen --variant ----
# perft counts from ../shared/corpus/perft/ (python-chess: 3check, atomic, crazyhouse, giveaway,
# horde, racingkings; scalachess: antichess): ID FILE DEPTH, the count read from the file
perft_case() { # variant, file, id, depth, pgnkit FEN (the file's EPD, completed with clocks)
    local want
    want=$(awk -v id="$3" -v d="$4" '$1 == "id" {cur = $2} cur == id && $1 == "perft" && $2 == d {print $3}' \
        "$shared/corpus/perft/$2")
    [ -n "$want" ] || { bad "perft $3: no depth $4 in $2"; return; }
    check "perft --variant $1 $3 depth $4" "$want" "$("$bin" perft --variant "$1" --fen "$5" "$4" 2>&1)"
}
perft_case crazyhouse python-chess/crazyhouse.perft zh-drops 3 "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1"
perft_case atomic python-chess/atomic.perft atomic-start 3 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
perft_case antichess scalachess/antichess.perft antichess-start 3 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
perft_case 3check python-chess/3check.perft 3check-castling 2 "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 +2+2"
perft_case horde python-chess/horde.perft horde-start 3 "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
perft_case racingkings python-chess/racingkings.perft racingkings-start 3 "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"
# the start positions: pgnkit's own (fen --variant, no move), counted as the files count them
start_case() { # variant, file, id, depth
    check "fen --variant $1 start = $3" "$(awk -v id="$3" '$1 == "id" {cur = $2} cur == id && $1 == "epd" {print $2, $3, $4, $5}' "$shared/corpus/perft/$2")" \
        "$("$bin" fen --variant "$1" | cut -d' ' -f1-4)"
    perft_case "$1" "$2" "$3" "$4" "$("$bin" fen --variant "$1")"
}
start_case horde python-chess/horde.perft horde-start 2
start_case racingkings python-chess/racingkings.perft racingkings-start 2
start_case antichess scalachess/antichess.perft antichess-start 2
# moves --variant: drops as N@f3 / @ squares; the count is perft 1 of the file
check "moves --variant crazyhouse zh-drops count" \
    "$(awk '$1 == "id" {cur = $2} cur == "zh-drops" && $1 == "perft" && $2 == 1 {print $3}' "$shared/corpus/perft/python-chess/crazyhouse.perft")" \
    "$("$bin" moves --variant crazyhouse --fen "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1" | wc -l | tr -d ' ')"
check "moves --variant crazyhouse: a queen drop in UCI" "1" \
    "$("$bin" moves --variant crazyhouse --fen "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1" | grep -c ' Q@d4$')"
# fen --variant: a drop played, the pocket emptied (python-chess: Q@d4 from zh-drops)
check "fen --variant crazyhouse Q@d4" "2k5/8/8/8/3Q4/8/8/4K3[n] b - - 1 1" \
    "$("$bin" fen --variant crazyhouse --fen "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1" Q@d4 2>&1)"
# an unknown variant name is a usage error (status 2)
"$bin" perft --variant sittuyin 1 >/dev/null 2>"$tmp/err"
check "perft --variant sittuyin refused" "2" "$?"
# ---- drops in a game with no Variant tag: read as crazyhouse (issue 28 point 7) ----
zh_files=$(grep -l '^\[Variant "Crazyhouse"\]' "$shared"/corpus/edge/variants/*.pgn \
    "$shared"/corpus/peers/suites/scalachess/fixtures/*.pgn)
for f in $zh_files; do
    name=$(basename "$f")
    if grep '^\[Variant ' "$f" | grep -qv '"Crazyhouse"'; then
        continue # other variants' games too (Seirawan): no longer theirs without the tag
    fi
    grep -v '^\[Variant ' "$f" >"$tmp/untagged.pgn"
    "$bin" check "$tmp/untagged.pgn" >/dev/null 2>"$tmp/u.err"
    drops=$("$bin" convert --to uci "$f" 2>/dev/null | grep -c '@')
    check "$name without Variant: status 0, one W_DROP_CRAZYHOUSE per game with a drop" "0 $drops" \
        "$? $(grep -c 'W_DROP_CRAZYHOUSE' "$tmp/u.err")"
    check "$name without Variant: UCI main lines" "$("$bin" convert --to uci "$f" 2>/dev/null)" \
        "$("$bin" convert --to uci "$tmp/untagged.pgn" 2>/dev/null)"
    check "$name without Variant: FEN after every ply" "$("$bin" convert --to fen "$f" 2>/dev/null)" \
        "$("$bin" convert --to fen "$tmp/untagged.pgn" 2>/dev/null)"
    check "$name without Variant: fmt writes the tag" \
        "$("$bin" fmt "$f" 2>/dev/null | grep -c '^\[Variant "Crazyhouse"\]')" \
        "$("$bin" fmt "$tmp/untagged.pgn" 2>/dev/null | grep -c '^\[Variant "Crazyhouse"\]')"
done
nv=$shared/corpus/peers/suites/scalachess/fixtures/crazyhouseNoVariantTag.pgn
if [ -f "$nv" ]; then
    { echo '[Variant "Crazyhouse"]'; cat "$nv"; } >"$tmp/tagged.pgn"
    "$bin" check "$nv" >/dev/null 2>"$tmp/nv.err"
    check "crazyhouseNoVariantTag: status 0, W_DROP_CRAZYHOUSE at the first drop" "0 14:50" \
        "$? $(grep -o '[0-9]*:[0-9]*: warning: [^[]*\[W_DROP_CRAZYHOUSE' "$tmp/nv.err" | cut -d: -f1-2)"
    check "crazyhouseNoVariantTag: as with the tag" \
        "$("$bin" convert --to fen "$tmp/tagged.pgn" 2>/dev/null)" \
        "$("$bin" convert --to fen "$nv" 2>/dev/null)"
else
    echo "SKIP crazyhouseNoVariantTag: no $nv"
    skip=$((skip + 1))
fi

# ---- analyze ----
zh=$shared/corpus/edge/variants/python-chess-knightvuillaume-jannlee-zh-lichess.pgn
sf=$(command -v stockfish || echo /usr/games/stockfish)
if [ -x "$sf" ]; then
    "$bin" analyze --engine "$sf" --threads 1 --hash 16 --nodes 1000 "$zh" >"$tmp/an.pgn" 2>"$tmp/an.err"
    check "analyze crazyhouse with stockfish: not analysed (status 1, as any game not analysed)" "1" "$?"
    check "analyze crazyhouse with stockfish: the message" "1" \
        "$(grep -c "game 1 not analysed: a Crazyhouse game, and the engine '.*' does not list 'crazyhouse' in its UCI_Variant option" "$tmp/an.err")"
    check "analyze crazyhouse with stockfish: the game unchanged" "$("$bin" fmt "$zh" 2>/dev/null)" "$(cat "$tmp/an.pgn")"
else
    echo "SKIP analyze with stockfish: no stockfish (Debian package stockfish; tools/deps.sh installs it)"
    skip=$((skip + 1))
fi
fsf=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
anti=$shared/corpus/edge/variants/python-chess-antichess-programfox.pgn
if [ -x "$fsf" ]; then
    "$bin" analyze --engine "$fsf" --threads 1 --hash 16 --nodes 2000 "$anti" >"$tmp/fa.pgn" 2>"$tmp/fa.err"
    check "analyze antichess with fairy-stockfish: status 0, both analysed" "0 2 games, 2 analysed, 0 not analysed" \
        "$? $(tail -n 1 "$tmp/fa.err" | cut -d, -f1-3)"
    # an eval after every main-line move but the one that ends a game (no position to search)
    plies=$(awk -F'\t' '$1 ~ /antichess/ && $3 == "antichess" {n += $5} END {print n}' "$oracle")
    ended=0
    while IFS= read -r fen; do
        [ -z "$("$bin" moves --variant antichess --fen "$fen" 2>/dev/null)" ] && ended=$((ended + 1))
    done < <(awk -F'\t' '$1 ~ /antichess/ && $3 == "antichess" {print $6}' "$oracle")
    check "analyze antichess with fairy-stockfish: an eval per main-line move" "$((plies - ended))" \
        "$("$bin" convert --to csv --per-ply "$tmp/fa.pgn" 2>/dev/null | tr -d '\r' | awk -F, 'NR > 1 && $7 != ""' | wc -l | tr -d ' ')"
    check "analyze antichess with fairy-stockfish: main lines kept" \
        "$("$bin" convert --to uci "$anti" 2>/dev/null)" "$("$bin" convert --to uci "$tmp/fa.pgn" 2>/dev/null)"
else
    echo "SKIP analyze with fairy-stockfish: no fairy-stockfish (Debian package fairy-stockfish; tools/deps.sh installs it)"
    skip=$((skip + 1))
fi
echo "RESULT $pass $fail $skip"
