#!/usr/bin/env bash
# CLI tests of issue 4 parts 2-4: convert --to san|lan|epd|csv and the editing flags of fmt and
# convert. Expected values come from pgn-extract (/usr/games/pgn-extract) on a slice of TWIC 1427,
# from Python's csv module and a python-chess-style regex, and from the perft EPD files.
# Prints "RESULT passed failed skipped" like the C suites.
set -u
bin=${PGNKIT_BIN:-build/pgnkit}
shared=${PGNKIT_SHARED:-../shared}
pe=/usr/games/pgn-extract
tmp=${TMPDIR:-/tmp}/pgnkit-annot.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
same() { # name, file with the expected text, file with the actual text
    if [ -s "$2" ] && cmp -s "$2" "$3"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $1"
        diff "$2" "$3" | head -n 6
    fi
}
check() { # name, command that must succeed
    local name=$1; shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name"; fi
}
if [ ! -x "$pe" ]; then
    echo "pgn-extract is missing at $pe (apt-get install pgn-extract): the suite cannot run"
    echo "RESULT 0 1 0"
    exit 1
fi
zcat "$shared/corpus/big/twic/twic1427.pgn.gz" | awk '/^\[Event /{n++} n<=150' > "$tmp/slice.pgn"
slice=$tmp/slice.pgn
# pgn-extract's movetext as one line per game: no move numbers, no result
moves_only() { awk 'BEGIN{RS=""} !/^\[/{gsub(/\n/," "); gsub(/[0-9]+\.(\.\.)? ?/,""); gsub(/ +(1-0|0-1|1\/2-1\/2|\*)$/,""); gsub(/ +/," "); sub(/^ /,""); print}'; }

# --to san: pgn-extract -Wsan writes canonical SAN too
"$pe" -s -Wsan -C -N -V "$slice" | moves_only > "$tmp/pe_san"
"$bin" convert --to san "$slice" > "$tmp/san" 2>/dev/null
same "convert --to san = pgn-extract -Wsan (150 TWIC games)" "$tmp/pe_san" "$tmp/san"
check "convert --to san: one line per game" [ "$(wc -l < "$tmp/san")" -eq 150 ]

# --to lan: pgn-extract -Wxolalg is the same notation, but writes promotions without "=" (c2-c1Q)
# and once "O-O-O++" for a castling check: both are normalized on the way
"$pe" -s -Wxolalg -C -N -V "$slice" | moves_only | sed 's/++/+/g' > "$tmp/pe_lan"
"$bin" convert --to lan "$slice" 2>/dev/null | sed 's/=//g' > "$tmp/lan"
same "convert --to lan = pgn-extract -Wxolalg" "$tmp/pe_lan" "$tmp/lan"
check "convert --to lan promotion keeps =Q" grep -q 'c2-c1=Q' <("$bin" convert --to lan "$slice" 2>/dev/null)
check "lan sample" [ "$(printf '1. Nf3 d5 2. e4 dxe4 *\n' | "$bin" convert --to lan)" == "Ng1-f3 d7-d5 e2-e4 d5xe4" ]

# --to epd: pgn-extract -Wepd gives one line per position, the start included (its ep square is
# written after every double step: --fen-ep always)
"$pe" -s -Wepd "$slice" | grep -v '^$' | cut -d' ' -f1-4 > "$tmp/pe_epd"
"$bin" convert --to epd --fen-ep always "$slice" 2>/dev/null > "$tmp/epd"
cut -d' ' -f1-4 "$tmp/epd" > "$tmp/epd4"
same "convert --to epd positions = pgn-extract -Wepd" "$tmp/pe_epd" "$tmp/epd4"
check "epd opcodes" grep -q '^rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 hmvc 0; fmvn 1; id "1.1";$' "$tmp/epd"
# the perft EPD positions, as games without moves, come back as the same positions
perft=$shared/corpus/perft/ethereal/standard.epd
cut -d' ' -f1-4 "$perft" > "$tmp/perft4"
awk '{print "[FEN \"" $1 " " $2 " " $3 " " $4 " 0 1\"]\n[SetUp \"1\"]\n\n*\n"}' "$tmp/perft4" > "$tmp/perft.pgn"
"$bin" convert --to epd "$tmp/perft.pgn" | cut -d' ' -f1-4 > "$tmp/perft_back"
same "convert --to epd of the perft EPD positions" "$tmp/perft4" "$tmp/perft_back"

# --to csv: read back with Python's csv module (RFC 4180); the values are the tag values
"$bin" convert --to csv --tags White,Black,WhiteElo,Event "$slice" > "$tmp/tags.csv" 2>/dev/null
grep '^\[White ' "$slice" | sed 's/^\[White "\(.*\)"\]$/\1/; s/\\"/"/g; s/\\\\/\\/g' > "$tmp/white_want"
python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1], newline=""))); assert r[0]==["White","Black","WhiteElo","Event"], r[0]; print("\n".join(x[0] for x in r[1:]))' "$tmp/tags.csv" > "$tmp/white_got"
same "convert --to csv --tags White column = the White tags" "$tmp/white_want" "$tmp/white_got"
printf '[Event "a, \\"b\\""]\n[White "x"]\n\n1. e4 *\n' | "$bin" convert --to csv > "$tmp/q.csv"
check "csv RFC 4180 quoting" python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1], newline=""))); assert r[1][0]=="a, \"b\"" and r[1][4]=="x" and r[1][6]=="*", r' "$tmp/q.csv"
check "csv rows end with CRLF" grep -q $'^game,ply,san,uci,fen,clock,eval,nags\r$' <("$bin" convert --to csv --per-ply "$slice" 2>/dev/null)
# --per-ply: uci and fen columns against pgn-extract's oracle table (uci, fen after the move)
"$bin" convert --to csv --per-ply "$slice" 2>/dev/null > "$tmp/ply.csv"
python3 -c 'import csv,sys; [print(x[3]) for x in list(csv.reader(open(sys.argv[1], newline="")))[1:]]' "$tmp/ply.csv" > "$tmp/ply_uci"
# (pgn-extract writes the promotion piece in capitals, c2c1Q; UCI has it in lower case)
"$pe" -s -Wuci -C -N -V "$slice" | grep -v '^\[' | grep -v '^$' | tr ' ' '\n' | grep -v -E '^(1-0|0-1|1/2-1/2|\*)$' |
    sed 's/^\(....\)\([NBRQ]\)$/\1\L\2/' > "$tmp/pe_uci"
same "csv --per-ply uci column = pgn-extract -Wuci" "$tmp/pe_uci" "$tmp/ply_uci"
# clock and eval columns: the [%eval] values of a file, found with python-chess's own regex
hoover=$shared/corpus/edge/malformed/hoover-scannertest-1.pgn
python3 - "$hoover" > "$tmp/eval_want" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="latin-1").read()
for m in re.finditer(r"\[%eval\s(?:#([+-]?\d+)|([+-]?(?:\d{0,10}\.\d{1,2}|\d{1,10}\.?)))(?:,(\d+))?\]", text):
    print("#%d" % int(m.group(1)) if m.group(1) else "%.2f" % float(m.group(2)))
PY
"$bin" convert --to csv --per-ply "$hoover" 2>/dev/null | python3 -c 'import csv,sys; [print(x[6]) for x in list(csv.reader(sys.stdin))[1:] if x[6]]' > "$tmp/eval_got"
same "csv --per-ply eval column = python-chess regex on the file" "$tmp/eval_want" "$tmp/eval_got"
printf '1. e4 {[%%clk 0:01:00]} e5 $1 {[%%clk 0:00:59.5] [%%eval -0.42,18]} *\n' | "$bin" convert --to csv --per-ply | tail -n 1 | tr -d '\r' > "$tmp/t84"
check "csv --per-ply clock, eval, nags (T84)" grep -q ',59.5,-0.42,\$1$' "$tmp/t84"
# TCEC engine comments (d=, mt=, wv=) are text: no clock, no eval, no W_BAD_COMMAND
zcat "$shared/corpus/big/tcec/TCEC_Cup_10_Final.pgn.gz" > "$tmp/tcec.pgn"
check "TCEC comments are not commands" [ "$("$bin" convert --to csv --per-ply "$tmp/tcec.pgn" 2>/dev/null | awk -F, 'NR>1 && ($6!="" || $7!="")' | wc -l)" -eq 0 ]
check "TCEC: no W_BAD_COMMAND" bash -c "! \"$bin\" check \"$tmp/tcec.pgn\" 2>&1 | grep -q W_BAD_COMMAND"

# editing flags: pgnkit fmt --strip-X equals pgnkit fmt of pgn-extract's own stripping
ann=$shared/corpus/edge/annotated/pgn-extract-fischer.pgn
for f in "$slice" "$ann"; do
    for pair in "strip-comments:-C" "strip-nags:-N" "strip-variations:-V" "seven-tags:-7" "add-plycount:--plycount"; do
        flag=${pair%%:*} peflag=${pair#*:}
        "$pe" -s $peflag "$f" > "$tmp/pe_$flag.pgn"
        "$bin" fmt --quiet "$tmp/pe_$flag.pgn" > "$tmp/want_$flag" 2>/dev/null
        "$bin" fmt --quiet --$flag "$f" > "$tmp/got_$flag" 2>/dev/null
        same "fmt --$flag = fmt of pgn-extract $peflag ($(basename "$f"))" "$tmp/want_$flag" "$tmp/got_$flag"
    done
done
check "--strip-comments removed something" [ "$(grep -c '{' "$tmp/got_strip-comments")" -eq 0 ] 
check "--strip-variations removed something" [ "$(grep -c '(' "$tmp/got_strip-variations")" -eq 0 ]
# --fen-comments: the FEN after every move (variations too), as pgn-extract --fencomments
fenre='[1-8pnbrqkPNBRQK]+(/[1-8pnbrqkPNBRQK]+){7} [wb] [KQkq-]+ [a-h1-8-]+ [0-9]+ [0-9]+'
head -c 200000 "$slice" | awk '/^\[Event /{n++} n<=40' > "$tmp/s40.pgn"
for f in "$tmp/s40.pgn" "$ann"; do
    "$pe" -s --fencomments "$f" | tr '\n' ' ' | grep -o -E "$fenre" > "$tmp/pe_fen"
    "$bin" fmt --quiet --fen-comments --fen-ep always "$f" 2>/dev/null | tr '\n' ' ' | grep -o -E "$fenre" > "$tmp/fen"
    same "fmt --fen-comments = pgn-extract --fencomments ($(basename "$f"))" "$tmp/pe_fen" "$tmp/fen"
done
# --strip-clock / --strip-eval take only their commands
printf '1. e4 {[%%clk 0:01:00] [%%eval 0.3] hi [%%emt 0:00:01] [%%foo x]} *\n' > "$tmp/c.pgn"
check "--strip-clock" grep -q '^1. e4 { \[%eval 0.3\] hi \[%foo x\] } \*$' <("$bin" fmt --quiet --strip-clock "$tmp/c.pgn" 2>/dev/null)
check "--strip-eval" grep -q '^1. e4 { \[%clk 0:01:00\] hi \[%emt 0:00:01\] \[%foo x\] } \*$' <("$bin" fmt --quiet --strip-eval "$tmp/c.pgn" 2>/dev/null)
check "convert --strip-eval empties the eval column" [ "$("$bin" convert --to csv --per-ply --strip-eval "$hoover" 2>/dev/null | awk -F, 'NR>1 && $7!=""' | wc -l)" -eq 0 ]
check "--per-ply needs --to csv" bash -c "\"$bin\" convert --to san --per-ply \"$tmp/c.pgn\" 2>/dev/null; [ \$? -eq 2 ]"
echo "RESULT $pass $fail 0"
[ "$fail" -eq 0 ]
