#!/usr/bin/env bash
# CLI tests of pgnkit analyze: protocol edge cases through the scripted fake engine
# (tests/tools/fake_engine.c: bounds, mate scores, multipv, crashes, silence, illegal moves, not UCI),
# then Debian's Stockfish with a fixed node count and one thread (repeatable): the scholar's mate
# blunder, a mate in one, a Chess960 game from the TCEC corpus, comments kept, export format.
# Prints "RESULT passed failed skipped" like the C suites.
set -u
bin=${PGNKIT_BIN:-build/pgnkit}
fake=${FAKE_ENGINE:-build/fake_engine}
shared=${PGNKIT_SHARED:-../shared}
tmp=${TMPDIR:-/tmp}/pgnkit-analyze.$$
mkdir -p "$tmp"
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && head -n 20 "$2"; }
# check NAME FILE REGEX: FILE must contain a line matching the extended REGEX
check() { if grep -Eq -- "$3" "$2"; then ok; else bad "$1: /$3/ not in $2" "$2"; fi; }
check_not() { if grep -Eq -- "$3" "$2"; then bad "$1: /$3/ found in $2" "$2"; else ok; fi; }
status_is() { if [ "$2" -eq "$3" ]; then ok; else bad "$1: status $2, want $3" "${4:-/dev/null}"; fi; }
# the whole movetext on one line, for matching across the writer's line breaks
flat() { tr '\n' ' ' <"$1" | tr -s ' ' >"$1.flat"; }

cat >"$tmp/two.pgn" <<'EOF'
[Event "a"]

1. e4 {hello} e5 2. Nf3 (2. d4 exd4) Nc6 *

[Event "b"]
[FEN "6k1/p4ppp/8/8/8/8/8/1R4K1 b - - 0 1"]
[SetUp "1"]

1... a6 2. Rb8# 1-0
EOF
fake_run() { # MODE OUT ERR args...
    local mode=$1 out=$2 err=$3; shift 3
    FAKE_ENGINE_MODE=$mode FAKE_ENGINE_STATE="$tmp/state" "$bin" analyze --engine "$fake" "$@" >"$out" 2>"$err"
}

# the golden files of tests/data/analyze (written by pgnkit analyze before the analysis moved into
# the library; tests/unit/test_engine_api.c gets the same text from pgn_game_analyze in process)
gold=tests/data/analyze
fake_run normal "$tmp/g1.out" "$tmp/g1.err" "$gold/games.pgn"
if cmp -s "$tmp/g1.out" "$gold/fake.pgn"; then ok; else bad "differs from $gold/fake.pgn" "$tmp/g1.err"; diff "$tmp/g1.out" "$gold/fake.pgn" | head; fi
fake_run normal "$tmp/g3.out" "$tmp/g3.err" --nodes 500 --multipv 3 "$gold/games.pgn"
if cmp -s "$tmp/g3.out" "$gold/fake-multipv3.pgn"; then ok; else bad "differs from $gold/fake-multipv3.pgn" "$tmp/g3.err"; fi

# bounds and multipv: the exact multipv-1 score wins over a later lowerbound and a multipv 2 line
fake_run normal "$tmp/n.out" "$tmp/n.err" --multipv 2 "$tmp/two.pgn"; st=$?
status_is "fake normal" $st 0 "$tmp/n.err"
flat "$tmp/n.out"
check "fake exact score" "$tmp/n.out.flat" '1\. e4 \{ hello \[%eval 0\.00,2\] \} .* 1\.\.\. e5 \{ \[%eval 0\.00,2\] \}'
check_not "fake bound ignored" "$tmp/n.out" '42\.42'
# multipv 2: line 2 (cp -7702 for the side to move) a variation at every move, line 1 too where it
# is not the move played; the score is line 1's
check "multipv line 2" "$tmp/n.out.flat" '1\.\.\. a6 \$4 \{ \[%eval #1,2\] Blunder\. Kf8 was best\. \} \(1\.\.\. Kf8 \{ \[%eval 1\.00,2\] \}\) \(1\.\.\. [a-hKQRBN][^ ]* \{ \[%eval 77\.02,2\] \}\) 2\. Rb8# \$18 \(2\. [^ ]+ \{ \[%eval -77\.02,2\] \}\) 1-0'
n_line2=$(grep -Eo '\[%eval -?77\.02,2\]' "$tmp/n.out" | wc -l)
if [ "$n_line2" -eq 6 ]; then ok; else bad "multipv 2: $n_line2 line-2 variations for 6 moves" "$tmp/n.out"; fi
"$bin" check "$tmp/n.out" 2>/dev/null; status_is "multipv lines legal" $? 0
fake_run normal "$tmp/n1.out" "$tmp/n1.err" "$tmp/two.pgn"
check_not "no line 2 without --multipv" "$tmp/n1.out" '77\.0'
flat "$tmp/n1.out"
check "mate score" "$tmp/n1.out.flat" '1\.\.\. a6 \$4 \{ \[%eval #1,2\] Blunder\. Kf8 was best\. \} \(1\.\.\. Kf8 \{ \[%eval 1\.00,2\] \}\) 2\. Rb8# \$18 1-0'
check "no line after a good move without --multipv" "$tmp/n1.out.flat" '1\. e4 \{ hello \[%eval 0\.00,2\] \} 1\.\.\. e5'
# multipv 3: two further lines per move
fake_run normal "$tmp/n3.out" "$tmp/n3.err" --multipv 3 "$tmp/two.pgn"
flat "$tmp/n3.out"
check "multipv line 3" "$tmp/n3.out.flat" '\{ \[%eval 77\.02,2\] \}\) \(1\.\.\. [^ ]+ \{ \[%eval 77\.03,2\] \}\) 2\. Rb8#'
n_line3=$(grep -Eo '\[%eval -?77\.03,2\]' "$tmp/n3.out" | wc -l)
if [ "$n_line3" -eq 6 ]; then ok; else bad "multipv 3: $n_line3 line-3 variations for 6 moves" "$tmp/n3.out"; fi
check "variation kept" "$tmp/n.out.flat" '\(2\. d4 exd4\)'
check "annotator" "$tmp/n.out" '^\[Annotator "FakeEngine 1\.0, nodes 1000000 \(pgnkit analyze\)"\]$'
check "tags" "$tmp/n.out" '^\[BlackACPL "900"\]$'
check "summary" "$tmp/n.err" '^2 games, 2 analysed, 0 not analysed, 8 positions'
"$bin" fmt --check "$tmp/n.out" 2>/dev/null; status_is "fake output in export format" $? 0
check_not "no progress line off a terminal" "$tmp/n.err" 'pgnkit analyze: [0-9]+ games'
# on a terminal (script(1) gives one): the progress line, on stderr only
if command -v script >/dev/null 2>&1; then
    FAKE_ENGINE_MODE=normal script -qec "'$bin' analyze --engine '$fake' '$tmp/two.pgn' >'$tmp/tty.out'" /dev/null \
        >"$tmp/tty.err" 2>&1
    check "progress line on a terminal" "$tmp/tty.err" 'pgnkit analyze: 2 games, 8 positions, [0-9.]+ positions/s'
    check_not "no progress in the output" "$tmp/tty.out" 'positions/s'
    # warnings (the engine's illegal moves, a reader warning) are never run into the progress line:
    # what the terminal shows after each \r (and the erase-line escape) is either one or the other
    printf '[Event "c"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. 0-0 *\n' >"$tmp/castle.pgn"
    FAKE_ENGINE_MODE=illegal script -qec "'$bin' analyze --engine '$fake' '$tmp/two.pgn' '$tmp/castle.pgn' >/dev/null" /dev/null \
        >"$tmp/tty2.raw" 2>&1
    sed 's/\r$//' "$tmp/tty2.raw" | awk -F'\r' '{print $NF}' | sed 's/\x1b\[K//g' >"$tmp/tty2.screen"
    check "pty: engine warnings" "$tmp/tty2.screen" '^pgnkit analyze: .*two\.pgn: warning: game 1, ply 1: engine gave an illegal pv move'
    check "pty: reader warning" "$tmp/tty2.screen" 'castle\.pgn:.*W_CASTLE_ZERO'
    check "pty: progress drawn" "$tmp/tty2.raw" 'pgnkit analyze: [0-9]+ games, [0-9]+ positions'
    check_not "pty: a warning on the progress line" "$tmp/tty2.screen" 'positions/s.*(warning|W_CASTLE)'
    check "pty: summary on its own line" "$tmp/tty2.screen" '^3 games, 3 analysed, 0 not analysed'
else
    echo "SKIP progress line test: no script(1) (util-linux) to give a terminal"
    skip=$((skip + 1))
fi

# the output reads back with every [%eval] parsed (pgnkit convert --per-ply reads them with
# pgn_node_eval), each the fake engine's own score for the position after the move
cat >"$tmp/cap.pgn" <<'EOF'
[Event "captures"]

1. e4 d5 2. exd5 Qxd5 3. Nc3 Qxa2 4. Rxa2 e5 5. Ra1 Bb4 6. Qh5 Bxc3 7. bxc3 *
EOF
cat "$tmp/two.pgn" "$tmp/cap.pgn" >"$tmp/three.pgn"
fake_run normal "$tmp/e.out" "$tmp/e.err" --multipv 2 "$tmp/three.pgn"; st=$?
status_is "fake evals" $st 0 "$tmp/e.err"
"$bin" convert --to csv --per-ply "$tmp/e.out" >"$tmp/e.csv" 2>/dev/null
tail -n +2 "$tmp/e.csv" | cut -d, -f7 >"$tmp/e.got"
tail -n +2 "$tmp/e.csv" | cut -d, -f5 | "$fake" --eval | sed 's/^none$//' >"$tmp/e.want"
if [ "$(wc -l <"$tmp/e.got")" -eq 19 ] && cmp -s "$tmp/e.got" "$tmp/e.want"; then ok; else
    bad "evals read back differ from the engine's" "$tmp/e.csv"; paste "$tmp/e.got" "$tmp/e.want" | head -20; fi
check "evals vary" "$tmp/e.got" '^-?[1-9]'

# running analyze again. With --replace: the same as analysing once, also after a different
# analysis (FAKE_ENGINE_BEST=last names other best moves; --multipv 3 adds lines); human
# comments, NAGs, variations and annotator kept. Without: nothing added twice, a different
# analysis added beside the first (docs/analysis.md, "Running analyze again").
cat >"$tmp/h.pgn" <<'EOF'
[Event "human"]
[Annotator "Kasparov"]

1. e4 $1 {King's pawn} e5 {Blunder.} 2. Nf3 (2. d4 {the centre} exd4) Nc6 *

[Event "b"]
[FEN "6k1/p4ppp/8/8/8/8/8/1R4K1 b - - 0 1"]
[SetUp "1"]

1... a6 {a quiet move} 2. Rb8# 1-0
EOF
fake_run normal "$tmp/r1.out" "$tmp/r1.err" "$tmp/h.pgn"
fake_run normal "$tmp/r2.out" "$tmp/r2.err" "$tmp/r1.out"
if cmp -s "$tmp/r1.out" "$tmp/r2.out"; then ok; else bad "second run without --replace added something" "$tmp/r2.out"; fi
# idempotent wherever the writer breaks the line (inside "Blunder. Kf8 was best." too): 41 games
# whose comments of 0..40 letters before the moves put the line breaks at every place of the
# sentences, analysed twice
for n in $(seq 0 40); do
    pad=$(printf '%*s' "$n" '' | tr ' ' w)
    printf '[Event "b%s"]\n[FEN "6k1/p4ppp/8/8/8/8/8/1R4K1 b - - 0 1"]\n[SetUp "1"]\n\n{%s} 1... a6 {a quiet move} 2. Kg2 Kf8 *\n\n' "$n" "$pad"
done >"$tmp/p.pgn"
fake_run normal "$tmp/p1.out" /dev/null --multipv 2 "$tmp/p.pgn"
fake_run normal "$tmp/p2.out" /dev/null --multipv 2 "$tmp/p1.out"
if [ "$(grep -c 'Blunder' "$tmp/p1.out")" -ge 41 ] && cmp -s "$tmp/p1.out" "$tmp/p2.out"; then ok; else
    bad "a second run changed the analysed games"; diff "$tmp/p1.out" "$tmp/p2.out" | head -n 6; fi
fake_run normal "$tmp/r2r.out" "$tmp/r2r.err" --replace "$tmp/r1.out"
if cmp -s "$tmp/r1.out" "$tmp/r2r.out"; then ok; else bad "second run with --replace differs from one" "$tmp/r2r.out"; fi
FAKE_ENGINE_BEST=last fake_run normal "$tmp/l1.out" "$tmp/l1.err" --nodes 500 "$tmp/h.pgn"
FAKE_ENGINE_BEST=last fake_run normal "$tmp/lr.out" "$tmp/lr.err" --nodes 500 --replace "$tmp/r1.out"
if cmp -s "$tmp/l1.out" "$tmp/lr.out"; then ok; else bad "--replace after another analysis differs from one" "$tmp/lr.out"; fi
fake_run normal "$tmp/m3.out" "$tmp/m3.err" --multipv 3 "$tmp/h.pgn"
fake_run normal "$tmp/m3r.out" "$tmp/m3r.err" --replace "$tmp/m3.out"
if cmp -s "$tmp/r1.out" "$tmp/m3r.out"; then ok; else bad "--replace after --multipv 3 differs from one" "$tmp/m3r.out"; fi
flat "$tmp/lr.out"
check "replace keeps human annotations" "$tmp/lr.out.flat" '1\. e4 \$1 \{ King.s pawn \[%eval 0\.00,2\] \} 1\.\.\. e5 \{ Blunder\. \[%eval 0\.00,2\] \} 2\. Nf3 \{ \[%eval 0\.00,2\] \} \(2\. d4 \{ the centre \} 2\.\.\. exd4\)'
check "replace annotator" "$tmp/lr.out" '^\[Annotator "Kasparov; FakeEngine 1\.0, nodes 500 \(pgnkit analyze\)"\]$'
FAKE_ENGINE_BEST=last fake_run normal "$tmp/la.out" "$tmp/la.err" --nodes 500 "$tmp/r1.out"
flat "$tmp/la.out"
check "added: both sentences and lines" "$tmp/la.out.flat" '1\.\.\. a6 \$4 \{ a quiet move \[%eval #1,2\] Blunder\. Kf8 was best\. Blunder\. [^ ]+ was best\. \} \(1\.\.\. Kf8 \{ \[%eval 1\.00,2\] \}\) \(1\.\.\. [^ ]+ \{ \[%eval 1\.00,2\] \}\) 2\. Rb8# \$18 1-0'
check "added: both annotators" "$tmp/la.out" '^\[Annotator "Kasparov; FakeEngine 1\.0, nodes 1000000 \(pgnkit analyze\); FakeEngine 1\.0, nodes 500 \(pgnkit analyze\)"\]$'
n_eval=$(grep -o '\[%eval' "$tmp/la.out" | wc -l)
if [ "$n_eval" -eq 7 ]; then ok; else bad "added: $n_eval evals, want one per move (5) and per line (2)" "$tmp/la.out"; fi

# Chess960: UCI_Chess960 set, castling sent king-takes-rook (b1h1, not b1g1), back to standard after
cat >"$tmp/960.pgn" <<'EOF'
[Event "960"]
[FEN "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1"]
[SetUp "1"]
[Variant "chess960"]

1. O-O O-O *

[Event "standard"]

1. e4 *
EOF
FAKE_ENGINE_LOG="$tmp/960.log" fake_run normal "$tmp/960.out" "$tmp/960.err" "$tmp/960.pgn"; st=$?
status_is "fake chess960" $st 0 "$tmp/960.err"
check "UCI_Chess960 on" "$tmp/960.log" '^setoption name UCI_Chess960 value true$'
check "960 castling sent" "$tmp/960.log" '^position fen rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1 moves b1h1 b8h8$'
check "UCI_Chess960 off" "$tmp/960.log" '^setoption name UCI_Chess960 value false$'
check "standard game from startpos" "$tmp/960.log" '^position startpos moves e2e4$'
check "ucinewgame" "$tmp/960.log" '^ucinewgame$'

# -j 2 keeps the input order
for i in 1 2 3 4 5 6; do cat "$tmp/two.pgn"; echo; done >"$tmp/many.pgn"
fake_run normal "$tmp/j1.out" "$tmp/j1.err" -j 1 "$tmp/many.pgn"
fake_run normal "$tmp/j2.out" "$tmp/j2.err" -j 3 "$tmp/many.pgn"; st=$?
status_is "fake -j 3" $st 0 "$tmp/j2.err"
if cmp -s "$tmp/j1.out" "$tmp/j2.out" && [ "$(grep -c '^\[Event' "$tmp/j2.out")" -eq 12 ]; then ok; else bad "-j 3 output differs from -j 1"; fi

# a crash in the middle of a search: restarted, position retried, game analysed
rm -f "$tmp/state"
fake_run crash-once "$tmp/c1.out" "$tmp/c1.err" "$tmp/two.pgn"; st=$?
status_is "fake crash once" $st 0 "$tmp/c1.err"
check "crash reported" "$tmp/c1.err" 'game 1, ply 0: engine exited during the search; restarting the engine'
fake_run normal "$tmp/c0.out" "$tmp/c0.err" "$tmp/two.pgn"
if cmp -s "$tmp/c1.out" "$tmp/c0.out"; then ok; else bad "crash-once output differs from a clean run"; fi
# crashing every time: games written unchanged, status 1
fake_run crash "$tmp/c2.out" "$tmp/c2.err" "$tmp/two.pgn"; st=$?
status_is "fake crash" $st 1 "$tmp/c2.err"
check "crash not analysed" "$tmp/c2.err" '^pgnkit analyze: .*/two\.pgn: game 2 not analysed$'
"$bin" fmt "$tmp/two.pgn" >"$tmp/two.fmt" 2>/dev/null
if cmp -s "$tmp/c2.out" "$tmp/two.fmt"; then ok; else bad "crashed games not written unchanged" "$tmp/c2.out"; fi
# never answering: timeout, one retry, unchanged, bounded time
start=$(date +%s)
fake_run hang "$tmp/h.out" "$tmp/h.err" --timeout 300 "$tmp/two.pgn"; st=$?
status_is "fake hang" $st 1 "$tmp/h.err"
check "hang timeout" "$tmp/h.err" "engine did not answer within 300 ms, nor to 'stop'; restarting the engine"
if [ $(( $(date +%s) - start )) -le 10 ]; then ok; else bad "hang took too long"; fi
if cmp -s "$tmp/h.out" "$tmp/two.fmt"; then ok; else bad "hung games not written unchanged"; fi
# an engine that answers only to stop: the result so far is used, with a warning
fake_run slow "$tmp/sl.out" "$tmp/sl.err" --timeout 200 "$tmp/two.pgn"; st=$?
status_is "fake slow" $st 0 "$tmp/sl.err"
check "slow warning" "$tmp/sl.err" "game 1, ply 0: engine gave no result within 200 ms, sent 'stop' \(dropped\)"
flat "$tmp/sl.out"
check "slow result used" "$tmp/sl.out.flat" '1\. e4 \{ hello \[%eval 0\.00,1\] \}'
# the deadline derived from the limit (10 s + 2 x movetime): one position, 10 s of waiting
printf '[Event "one position"]\n\n*\n' >"$tmp/one.pgn"
fake_run slow "$tmp/d.out" "$tmp/d.err" --movetime 1 "$tmp/one.pgn"; st=$?
status_is "fake slow, derived deadline" $st 0 "$tmp/d.err"
check "derived deadline" "$tmp/d.err" "game 1, ply 0: engine gave no result within 10002 ms, sent 'stop'"
# a game with a reading error: written byte for byte, not analysed; the next one is
printf '[Event "broken"]\n\n1. e4 e5 2. Ke3 *\n\n' >"$tmp/bad.pgn"
cat "$tmp/bad.pgn" "$tmp/two.pgn" >"$tmp/mixed.pgn"
fake_run normal "$tmp/b.out" "$tmp/b.err" "$tmp/mixed.pgn"; st=$?
status_is "broken game" $st 1 "$tmp/b.err"
if head -c "$(wc -c <"$tmp/bad.pgn")" "$tmp/b.out" | cmp -s - "$tmp/bad.pgn"; then ok; else bad "broken game not written as it came" "$tmp/b.out"; fi
check "broken game summary" "$tmp/b.err" '^3 games, 2 analysed, 0 not analysed'
# illegal pv and best move: diagnostics, dropped, analysis goes on
fake_run illegal "$tmp/i.out" "$tmp/i.err" "$tmp/two.pgn"; st=$?
status_is "fake illegal" $st 0 "$tmp/i.err"
check "illegal pv" "$tmp/i.err" "illegal pv move 'a1a1' \[E_ILLEGAL_MOVE\]"
check "illegal bestmove" "$tmp/i.err" "illegal best move 'e1e8' \[E_ILLEGAL_MOVE\]"
check_not "illegal moves not written" "$tmp/i.out" 'a1a1|e1e8|Ra1|Ke8'
"$bin" check "$tmp/i.out" 2>/dev/null; status_is "illegal run output reads back" $? 0
# not a UCI engine, missing engine: exit 3 before any output
fake_run notuci "$tmp/u.out" "$tmp/u.err" --timeout 300 "$tmp/two.pgn"; st=$?
status_is "not uci" $st 3 "$tmp/u.err"
check "not uci message" "$tmp/u.err" "is not a UCI engine: no 'uciok' answer to 'uci' \(timed out\)"
if [ ! -s "$tmp/u.out" ]; then ok; else bad "not uci wrote output"; fi
"$bin" analyze --engine /bin/true "$tmp/two.pgn" >/dev/null 2>"$tmp/t.err"; status_is "/bin/true" $? 3 "$tmp/t.err"
check "/bin/true message" "$tmp/t.err" "'/bin/true' is not a UCI engine"
"$bin" analyze --engine "$tmp/no-such-engine" "$tmp/two.pgn" >/dev/null 2>"$tmp/m.err"; status_is "missing" $? 3
check "missing message" "$tmp/m.err" "cannot start engine '.*no-such-engine': No such file or directory"
"$bin" analyze --engine "$fake" --depth 3 --nodes 4 "$tmp/two.pgn" >/dev/null 2>&1; status_is "two limits" $? 2
"$bin" analyze --engine "$fake" -j 0 "$tmp/two.pgn" >/dev/null 2>&1; status_is "bad -j" $? 2

# ---- Stockfish ----
sf=$(command -v stockfish || echo /usr/games/stockfish)
if [ ! -x "$sf" ]; then
    echo "SKIP stockfish tests: no stockfish (Debian package stockfish; .ci/run installs it)"
    skip=$((skip + 1))
else
    sfa() { "$bin" analyze --engine "$sf" --threads 1 --hash 16 "$@"; }
    printf '[Event "scholar"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n' >"$tmp/s.pgn"
    sfa --nodes 5000 "$tmp/s.pgn" >"$tmp/s.out" 2>"$tmp/s.err"; status_is "stockfish scholar" $? 0 "$tmp/s.err"
    flat "$tmp/s.out"
    # 3... Nf6 is a blunder; the better move named must defend f7 (or stop the queen reaching it)
    check "Nf6 blunder" "$tmp/s.out.flat" '3\.\.\. Nf6 \$4 \{ \[%eval #1,[0-9]+\] Blunder\. (g6|Qe7|Qf6|Nh6|Qh4) was best\. \} \(3\.\.\. (g6|Qe7|Qf6|Nh6|Qh4) '
    check "mate in one eval" "$tmp/s.out.flat" '\[%eval #1,'
    check "mating move" "$tmp/s.out.flat" '4\. Qxf7# \$18 1-0'
    "$bin" fmt --check "$tmp/s.out" 2>/dev/null; status_is "stockfish output in export format" $? 0
    # every move but the mating one reads back with an [%eval]
    "$bin" convert --to csv --per-ply "$tmp/s.out" | tail -n +2 | cut -d, -f7 >"$tmp/s.evals"
    if [ "$(grep -Ec '^(-?[0-9]+\.[0-9][0-9]|#-?[0-9]+)$' "$tmp/s.evals")" -eq 6 ] &&
        [ "$(sed -n 7p "$tmp/s.evals")" = "" ]; then ok; else bad "stockfish evals not read back" "$tmp/s.evals"; fi
    # a mate in one from a FEN, and comments kept
    printf '[Event "m1"]\n[FEN "6k1/p4ppp/8/8/8/8/8/1R4K1 b - - 0 1"]\n[SetUp "1"]\n\n{before} 1... a6 {a quiet move} 2. Kg2 {missed it} Kf8 *\n' >"$tmp/m.pgn"
    sfa --nodes 3000 "$tmp/m.pgn" >"$tmp/m.out" 2>"$tmp/m.err"; status_is "stockfish mate in one" $? 0 "$tmp/m.err"
    flat "$tmp/m.out"
    check "m1 eval" "$tmp/m.out.flat" '1\.\.\. a6 \$4 \{ a quiet move \[%eval #1,[0-9]+\] Blunder\.'
    check "m1 comments kept" "$tmp/m.out.flat" '^.*\{ before \} 1\.\.\. a6'
    check "m1 missed mate" "$tmp/m.out.flat" '2\. Kg2 \$4 \{ missed it \[%eval [0-9.]+,[0-9]+\] Blunder\. Rb8# was best\. \} \(2\. Rb8# \{ \[%eval #1,[0-9]+\] \}\)'
    # a Chess960 game: castling king-takes-rook to the engine, legal lines back
    frc="$shared/corpus/big/tcec-frc/TCEC_Season_19_-_Frc2_Final.pgn.gz"
    zcat "$frc" | awk '/^\[Event /{n++} n==1' >"$tmp/frc.pgn"
    sfa --nodes 2000 "$tmp/frc.pgn" >"$tmp/frc.out" 2>"$tmp/frc.err"; status_is "stockfish chess960" $? 0 "$tmp/frc.err"
    check "960 analysed" "$tmp/frc.err" '^1 games, 1 analysed, 0 not analysed, 172 positions'
    check_not "960 no engine warnings" "$tmp/frc.err" 'warning'
    "$bin" check "$tmp/frc.out" 2>"$tmp/frc.check"; status_is "960 lines legal" $? 0 "$tmp/frc.check"
    check "960 variant kept" "$tmp/frc.out" '^\[Variant "fischerandom"\]$'
    check "960 comments kept" "$tmp/frc.out" 'WhiteEngineOptions'
    "$bin" fmt --check "$tmp/frc.out" 2>/dev/null; status_is "960 output in export format" $? 0
    n_read=$("$bin" convert --to csv --per-ply "$tmp/frc.out" | tail -n +2 | cut -d, -f7 | grep -c .)
    if [ "$n_read" -eq 171 ]; then ok; else bad "960: $n_read evals read back for 171 plies"; fi
    # analysing Stockfish's output again changes nothing (the scholar's mate: its sentence is broken
    # across two lines by the writer), also with --multipv 2
    sfa --nodes 3000 "$tmp/s.pgn" >"$tmp/s1.out" 2>/dev/null
    sfa --nodes 3000 "$tmp/s1.out" >"$tmp/s2.out" 2>/dev/null
    if grep -q '^g6 was best' "$tmp/s1.out" && cmp -s "$tmp/s1.out" "$tmp/s2.out"; then ok; else
        bad "stockfish: a second run changed the game" "$tmp/s2.out"; fi
    sfa --nodes 2000 --multipv 2 "$tmp/m.pgn" >"$tmp/mm1.out" 2>/dev/null
    sfa --nodes 2000 --multipv 2 "$tmp/mm1.out" >"$tmp/mm2.out" 2>/dev/null
    if grep -q 'was best' "$tmp/mm1.out" && cmp -s "$tmp/mm1.out" "$tmp/mm2.out"; then ok; else
        bad "stockfish --multipv 2: a second run changed the game" "$tmp/mm2.out"; fi
    # --replace on Stockfish's own output: the same as one analysis (fixed nodes, one thread)
    sfa --nodes 2000 --replace "$tmp/frc.out" >"$tmp/frc2.out" 2>/dev/null
    if cmp -s "$tmp/frc.out" "$tmp/frc2.out"; then ok; else bad "960: --replace on the output differs"; fi
fi
# --diag json (issue 11): every stderr line one JSON object valid against the stream's schema,
# the summary last; a bad --diag value is a one-line usage error
fake_run normal "$tmp/dj.out" "$tmp/dj.err" --nodes 500 --diag json examples/sample.pgn
if /usr/bin/python3 tests/json/validate_lines.py docs/diagnostics.schema.json "$tmp/dj.err" >/dev/null; then ok
else bad "analyze --diag json: a line is not valid" "$tmp/dj.err"; fi
check "analyze --diag json summary" "$tmp/dj.err" '^\{"summary":\{"command":"analyze","games":3,"analysed":2,"not_analysed":0,"positions":[0-9]+,"errors":1,"warnings":2'
# on the driver: a missing input and a directory are reported and skipped (exit 3); --max-errors
# stops the run over all inputs and the summary says so; --where analyses only the matches
mkdir -p "$tmp/adir"
fake_run normal "$tmp/mi.out" "$tmp/mi.err" --nodes 500 "$tmp/no-such.pgn" "$tmp/adir" "$tmp/two.pgn"; st=$?
[ "$st" -eq 3 ] && ok || bad "analyze missing input: status $st, not 3" "$tmp/mi.err"
check "analyze missing input reported" "$tmp/mi.err" "^pgnkit analyze: $tmp/no-such.pgn: No such file or directory$"
check "analyze directory reported" "$tmp/mi.err" "^pgnkit analyze: $tmp/adir: Is a directory$"
check "analyze goes on past them" "$tmp/mi.err" '^2 games, 2 analysed, 0 not analysed'
fake_run normal "$tmp/me.out" "$tmp/me.err" --nodes 500 --max-errors 1 examples/sample.pgn examples/sample.pgn; st=$?
[ "$st" -eq 1 ] && ok || bad "analyze --max-errors: status $st, not 1" "$tmp/me.err"
check "analyze --max-errors stops" "$tmp/me.err" '^3 games, 2 analysed, 0 not analysed, [0-9]+ positions, 1 errors; reading stopped after 1 errors'
fake_run normal "$tmp/wh.out" "$tmp/wh.err" --nodes 500 --where 'Event ~ Club' examples/sample.pgn; st=$?
check "analyze --where" "$tmp/wh.err" '^3 games, 1 matched, 1 analysed, 0 not analysed'
[ "$(grep -c '^\[Event ' "$tmp/wh.out")" = 1 ] && ok || bad "analyze --where wrote $(grep -c '^\[Event ' "$tmp/wh.out") games"
"$bin" analyze --diag xml x >/dev/null 2>"$tmp/dx.err"; st=$?
[ "$st" -eq 2 ] && ok || bad "analyze --diag xml: status $st, not 2" "$tmp/dx.err"
check "analyze --diag xml message" "$tmp/dx.err" "^pgnkit analyze: --diag takes text or json, not 'xml'$"
# a position without a king (issue 28 point 4): read, written whole, never sent to the engine
cat > "$tmp/kl.pgn" <<'EOF2'
[Event "kingless"]
[SetUp "1"]
[FEN "8/8/8/8/8/8/4P3/4K3 w - - 0 1"]

1. e4 *
EOF2
fake_run normal "$tmp/kl.out" "$tmp/kl.err" --nodes 500 "$tmp/kl.pgn"
check "kingless not analysed" "$tmp/kl.err" 'game 1 not analysed: a position without a king, which a UCI engine cannot search'
check "kingless summary" "$tmp/kl.err" '^1 games, 0 analysed, 1 not analysed'
check "kingless game kept" "$tmp/kl.out" '^1\. e4 \*$'
rm -rf "$tmp"
echo "RESULT $pass $fail $skip"
[ "$fail" -eq 0 ]
