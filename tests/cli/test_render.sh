#!/usr/bin/env bash
# CLI tests of issue 18 items 1-2: pgnkit svg and pgnkit graph. Every position of a few corpus
# games is drawn; each SVG is valid against the W3C SVG 1.1 DTD (xmllint --dtdvalid, the DTD of
# Debian's w3c-sgml-lib) and passes tests/tools/svg_check.py (the structural SVG 1.1 check of
# docs/render.md: references, numbers, colours), shows the position pgnkit convert --to fen gives
# for that ply (read back from the <use> elements), highlights the move convert --to uci gives,
# marks check exactly when the SAN says + or #, and renders with rsvg-convert into a picture
# whose squares hold the pieces of that FEN (tests/tools/png_board_check.py). The graphs are
# checked against winning chances computed independently from the [%eval]s
# (tests/tools/graph_check.py), and against the judgements of a real Stockfish analysis.
# Prints "RESULT passed failed skipped" like the C suites.
set -u
bin=${PGNKIT_BIN:-build/pgnkit}
# the hundreds of boards of the corpus games are drawn by the release build (an ASan process takes
# a few hundred ms to start on a loaded machine); everything else runs the ASan build
rel=${PGNKIT_REL_BIN:-$bin}
shared=${PGNKIT_SHARED:-../shared}
py=/usr/bin/python3
here=$(cd "$(dirname "$0")/../tools" && pwd)
tmp=${TMPDIR:-/tmp}/pgnkit-render.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() { # name, command that must succeed
    local name=$1; shift
    if "$@"; then ok; else bad "$name"; fi
}
for tool in xmllint rsvg-convert; do
    if ! command -v $tool >/dev/null; then
        echo "$tool is missing (tools/deps.sh installs it): the suite cannot run"
        echo "RESULT 0 1 0"; exit 1
    fi
done
dtd=${SVG_DTD:-/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-SVG11-20110816/svg11.dtd}
if [ ! -f "$dtd" ]; then
    echo "the SVG 1.1 DTD is missing ($dtd; Debian w3c-sgml-lib, tools/deps.sh installs it)"
    echo "RESULT 0 1 0"; exit 1
fi
if ! $py -c 'import PIL' 2>/dev/null; then
    echo "python3-pil is missing (tools/deps.sh installs it): the suite cannot run"
    echo "RESULT 0 1 0"; exit 1
fi

# ---- every position of a few games: standard, Chess960, a long one with promotions ----
game() { # file, n: the n-th game of the file (by [Event)
    awk -v n="$2" '/^\[Event /{k++} k==n' "$1" | tr -d '\r'
}
e=$shared/corpus/edge
game "$e/annotated/python-chess-kasparov-deep-blue-1997.pgn" 1 > "$tmp/g1.pgn"
game "$e/chess960/python-chess-cutechess-fischerrandom.pgn" 1 > "$tmp/g2.pgn"
zcat "$shared/corpus/big/twic/twic1427.pgn.gz" | awk '/^\[Event /{k++} k==5' > "$tmp/g3.pgn"
game "$e/setup-fen/pgn-extract-odds.pgn" 1 > "$tmp/g4.pgn"
positions=0
for g in g1 g2 g3 g4; do
    f=$tmp/$g.pgn
    "$bin" convert --to fen "$f" 2>/dev/null | grep -v '^$' > "$tmp/$g.fens"
    "$bin" convert --to csv --per-ply "$f" 2>/dev/null > "$tmp/$g.csv"
    start=$("$bin" convert --to epd "$f" 2>/dev/null | head -n 1 | cut -d' ' -f1)
    n=$(wc -l < "$tmp/$g.fens")
    check "$g: $n plies read" [ "$n" -gt 10 ]
    flip=
    [ $g = g3 ] && flip="--flip --coords"
    for ((i = 0; i <= n; i++)); do
        "$rel" svg $flip --ply $i "$f" > "$tmp/$g-$i.svg" 2>/dev/null || bad "$g ply $i: exit $?"
    done
    # the expected lines: FILE PLACEMENT [check=SQ] last=FROM,TO [flipped]
    echo "$tmp/$g-0.svg $start${flip:+ flipped}" > "$tmp/$g.want"
    awk -F, -v pre="$tmp/$g" -v fl="${flip:+ flipped}" '
        function king(p, s,   k, r, f, i, c) {
            k = s == "w" ? "K" : "k"; r = 8; f = 0
            for (i = 1; i <= length(p); i++) {
                c = substr(p, i, 1)
                if (c == "/") { r--; f = 0 } else if (c ~ /[0-9]/) f += c
                else { if (c == k) return substr("abcdefgh", f + 1, 1) r; f++ }
            }
        }
        { sub(/\r$/, "") }
        NR > 1 {
            split($5, F, " "); from = substr($4, 1, 2); to = substr($4, 3, 2); san = $3
            # Chess960 UCI castling is king-takes-rook: the board shows the king on its square
            if (san ~ /^O-O/) { c = san; sub(/[+#]$/, "", c); to = (c == "O-O" ? "g" : "c") substr(from, 2, 1) }
            line = pre "-" $2 ".svg " F[1]
            if (san ~ /[+#]$/) line = line " check=" king(F[1], F[2])
            print line " last=" from "," to fl
        }' "$tmp/$g.csv" >> "$tmp/$g.want"
    (cd / && $py "$here/svg_check.py" --board "$tmp/$g"-*.svg) | sort > "$tmp/$g.got"
    # last= lists the squares in board order (a1 first): sort the two the same way
    norm() { awk '{for (i = 1; i <= NF; i++) if ($i ~ /^last=/) { split(substr($i, 6), s, ",");
        a = substr(s[1], 2) substr(s[1], 1, 1); b = substr(s[2], 2) substr(s[2], 1, 1)
        $i = "last=" (a <= b ? s[1] "," s[2] : s[2] "," s[1]) } print}' "$1" | sort; }
    if diff <(norm "$tmp/$g.want") <(norm "$tmp/$g.got") > "$tmp/$g.diff"; then
        ok
    else
        bad "$g: boards drawn differ from convert --to fen/uci"; head -n 6 "$tmp/$g.diff"
    fi
    if xmllint --noout --dtdvalid "$dtd" "$tmp/$g"-*.svg 2> "$tmp/xmllint.err"; then ok; else
        bad "$g: xmllint against the SVG 1.1 DTD"; head -n 3 "$tmp/xmllint.err"; fi
    positions=$((positions + n + 1))
    # rsvg-convert renders every position of g4 (of all four with PGNKIT_SLOW=1; else every
    # fifth of the others: a render takes 50-350 ms); the pictures show the pieces of the FEN
    every=1
    case $g in g1 | g2 | g3) [ "${PGNKIT_SLOW:-0}" = 1 ] || every=5 ;; esac
    wrong=0
    seq 0 $every $n | sed "s|.*|$tmp/$g-&|" > "$tmp/$g.list"
    want=$(wc -l < "$tmp/$g.list")
    xargs -P 2 -I{} rsvg-convert -w 240 {}.svg -o {}.png < "$tmp/$g.list" 2>/dev/null
    rendered=$(ls "$tmp/$g"-*.png | wc -l)
    check "$g: rsvg-convert rendered $want positions ($rendered)" [ "$rendered" -eq "$want" ]
    for i in 0 $((n / every / 2 * every)) $((n / every * every)); do
        placement=$(grep "^$tmp/$g-$i.svg " "$tmp/$g.want" | cut -d' ' -f2)
        $py "$here/png_board_check.py" "$tmp/$g-$i.png" "$placement" ${flip:+flipped} || wrong=1
    done
    check "$g: the pictures show the pieces of the FEN" [ $wrong -eq 0 ]
    rm -f "$tmp/$g"-*.svg "$tmp/$g"-*.png
done
echo "svg: $positions positions drawn and checked"

# ---- marks: [%csl]/[%cal] of the comment, --arrow/--square, colours, --fen, flip ----
cat > "$tmp/marks.pgn" <<'PGN'
[Event "marks"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# { [%csl Rf7,Bc4] [%cal Gc4f7,Yh5f7] } 1-0
PGN
"$bin" svg --coords --arrow Bd1h5 --square e8 "$tmp/marks.pgn" > "$tmp/m.svg"
check "marks: read back" grep -q " check=e8 last=f7,h5 arrows=Bd1h5,Gc4f7,Yh5f7 circles=Ge8,Rf7,Bc4$" \
    <($py "$here/svg_check.py" --board "$tmp/m.svg" | sed 's/last=h5,f7/last=f7,h5/')
"$bin" svg --flip --coords --ply 3 --arrow e2e4 "$tmp/marks.pgn" > "$tmp/m3.svg"
check "flip: read back" grep -q "rnbqkbnr/pppp1ppp/8/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR last=d1,h5 arrows=Ge2e4 flipped$" \
    <($py "$here/svg_check.py" --board "$tmp/m3.svg" | sed 's/last=h5,d1/last=d1,h5/')
"$bin" svg --fen '8/8/8/4k3/8/8/8/4K2R w K - 0 1' --size 200 > "$tmp/fen.svg"
check "--fen: read back" grep -q " 8/8/8/4k3/8/8/8/4K2R$" <($py "$here/svg_check.py" --board "$tmp/fen.svg")
check "--size 200" grep -q 'width="200" height="200"' "$tmp/fen.svg"
check "only the pieces on the board are defined" [ "$(grep -c '<g id="pk-' "$tmp/fen.svg")" -eq 3 ]
check "svg --ply 0 has no last move" grep -q 'ply0.svg rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR$' \
    <("$bin" svg --ply 0 "$tmp/marks.pgn" > "$tmp/ply0.svg"; $py "$here/svg_check.py" --board "$tmp/ply0.svg")
check "svg checks pass on every marks file" $py "$here/svg_check.py" "$tmp/m.svg" "$tmp/m3.svg" "$tmp/fen.svg"
check "marks render" rsvg-convert "$tmp/m.svg" -o "$tmp/m.png"
# the README pictures' recipe works (docs/board.png, docs/graph.png)
# errors: exit statuses of STYLE C9
"$bin" svg --ply 99 "$tmp/marks.pgn" > /dev/null 2> "$tmp/err"; s=$?
check "--ply beyond the game: exit 1" [ $s -eq 1 ]
check "--ply beyond the game: message" grep -q "game 1 has no ply 99" "$tmp/err"
"$bin" svg --game 2 "$tmp/marks.pgn" > /dev/null 2>&1; check "no game 2: exit 1" [ $? -eq 1 ]
"$bin" svg --arrow e2 "$tmp/marks.pgn" > /dev/null 2>&1; check "--arrow e2: exit 2" [ $? -eq 2 ]
"$bin" svg --square Xd5 "$tmp/marks.pgn" > /dev/null 2>&1; check "--square Xd5: exit 2" [ $? -eq 2 ]
"$bin" svg --fen 'bad fen' > /dev/null 2>&1; check "bad --fen: exit 1" [ $? -eq 1 ]
"$bin" svg --fen "$(echo 8/8/8/4k3/8/8/8/4K3 w - - 0 1)" "$tmp/marks.pgn" > /dev/null 2>&1
check "--fen with FILE: exit 2" [ $? -eq 2 ]
"$bin" svg --size 5 "$tmp/marks.pgn" > /dev/null 2>&1; check "--size 5: exit 2" [ $? -eq 2 ]
check "svg --help" "$bin" svg --help > /dev/null
check "svg from stdin" grep -q '</svg>' <("$bin" svg < "$tmp/marks.pgn")

# ---- graph ----
cat > "$tmp/graph.pgn" <<'PGN'
[Event "graph"]

1. e4 {[%eval 0.30]} e5 {[%eval 0.25]} 2. Nf3 {[%eval 0.20]} Nc6 {[%eval 1.50]} 3. Bc4
{[%eval -0.50]} Nf6 {[%eval -0.30]} 4. Ng5 {[%eval -0.35]} d5 {[%eval #3]} 5. exd5
{[%eval 0.10]} Na5 $2 6. d3 {[%eval 0.5]} h6 {[%eval -9.55]} 7. Nxf7 {[%eval #-2]} (7. O-O) Qe7
{[%eval #-1,20]} 8. Nxh8 {[%eval 0.0]} *
PGN
"$bin" graph "$tmp/graph.pgn" > "$tmp/graph.svg"
"$bin" convert --to csv --per-ply "$tmp/graph.pgn" | tail -n +2 > /dev/null
"$bin" convert --to csv --per-ply "$tmp/graph.pgn" > "$tmp/graph.csv"
check "graph: points and dots = lichess's formulas" $py "$here/graph_check.py" "$tmp/graph.svg" "$tmp/graph.csv" 600 200
check "graph: a mistake, blunders and a mate" [ "$(grep -c '<circle' "$tmp/graph.svg")" -ge 4 ]
check "graph: svg check" $py "$here/svg_check.py" "$tmp/graph.svg"
check "graph: valid against the SVG 1.1 DTD" xmllint --noout --dtdvalid "$dtd" "$tmp/graph.svg"
check "graph: renders" rsvg-convert "$tmp/graph.svg" -o "$tmp/graph.png"
"$bin" graph --width 900 --height 120 "$tmp/graph.pgn" > "$tmp/graph2.svg"
check "graph --width --height" $py "$here/graph_check.py" "$tmp/graph2.svg" "$tmp/graph.csv" 900 120
check "graph titles" grep -q '<title>4... d5 #3 blunder</title>' "$tmp/graph.svg"
check "graph: no evals, still a graph" $py "$here/svg_check.py" <("$bin" graph "$tmp/marks.pgn")
printf '1. f3 {[%%eval -0.5]} e5 {[%%eval -0.4]} 2. g4 {[%%eval #-1]} Qh4# 0-1\n' > "$tmp/mate.pgn"
"$bin" graph "$tmp/mate.pgn" > "$tmp/mate.svg"
"$bin" convert --to csv --per-ply "$tmp/mate.pgn" > "$tmp/mate.csv"
check "graph: a checkmating move is a point at -1" $py "$here/graph_check.py" "$tmp/mate.svg" "$tmp/mate.csv" 600 200
check "graph: the mate's point" grep -q ' 525.0,182.0" fill="none"' "$tmp/mate.svg"
"$bin" graph --width 10 "$tmp/graph.pgn" > /dev/null 2>&1; check "graph --width 10: exit 2" [ $? -eq 2 ]
# a real analysis: Stockfish's evaluations, and the dots agree with analyze's $6/$2/$4
sf=/usr/games/stockfish
if [ -x "$sf" ]; then
    "${PGNKIT_REL_BIN:-$bin}" analyze --engine "$sf" --nodes 3000 --threads 1 --quiet "$tmp/g1.pgn" \
        -o "$tmp/an.pgn" 2>/dev/null
    "$bin" convert --to csv --per-ply "$tmp/an.pgn" > "$tmp/an.csv"
    nags=$(awk -F, '{ sub(/\r$/, "") } NR > 1 && $NF ~ /\$[624]$/ {n = substr($NF, 2); printf "%s%s:%s", c, $2, n; c = ","}' "$tmp/an.csv")
    "$bin" graph "$tmp/an.pgn" > "$tmp/an.svg"
    check "graph of a Stockfish analysis: has judged moves" [ -n "$nags" ]
    check "graph of a Stockfish analysis = formulas and analyze's judgements" \
        $py "$here/graph_check.py" "$tmp/an.svg" "$tmp/an.csv" 600 200 "$nags"
else
    bad "stockfish is missing at $sf (tools/deps.sh installs it)"
fi
echo "RESULT $pass $fail 0"
[ $fail -eq 0 ]
