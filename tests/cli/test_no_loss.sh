#!/usr/bin/env bash
# Nothing lost (issues 34 and 36): split never replaces an input or, without --force, a file that
# exists, and never follows a symbolic link it replaces; temporary files are removed on every exit
# path and by the next run. Prints "RESULT passed failed skipped" like the C suites.
set -u
bin=${PGNKIT_BIN:-build/pgnkit}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac # runs in other directories
shared=${PGNKIT_SHARED:-../shared}
case $shared in /*) ;; *) shared=$PWD/$shared ;; esac
pass=0 fail=0 skip=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
same() { # name, want, got
    if [ "$2" == "$3" ]; then ok; else bad "$1: want [$2] got [$3]"; fi
}
skipped() { skip=$((skip + 1)); echo "SKIP $*"; }
sum() { md5sum <"$1" | cut -c1-32; }
temps() { find "$1" -name '.*.pgnkit-*' | wc -l; }
fischer=$shared/corpus/big/pgnmentor-players/Fischer.pgn.gz
twic=$shared/corpus/big/twic/twic1427.pgn.gz

# ---- split: never over an input, before reading (issue 34 point 1) ----
mkdir "$t/own" && zcat "$fischer" >"$t/own/split-1.pgn"
before=$(sum "$t/own/split-1.pgn")
err=$(cd "$t/own" && "$bin" split --games 100 split-1.pgn 2>&1)
same "split into its own input: status" 2 $?
same "split into its own input: the input unchanged" "$before" "$(sum "$t/own/split-1.pgn")"
same "split into its own input: nothing else written" "split-1.pgn" "$(ls -A "$t/own")"
same "split into its own input: refused before reading (no summary)" 0 "$(grep -c games <<<"$err")"
err=$(cd "$t/own" && "$bin" split --games 100 --pattern "$t/own/./split-{n}.pgn" ../own/split-1.pgn 2>&1)
same "split into its own input, other spellings: status" 2 $?
mkdir "$t/year" && zcat "$twic" >"$t/year/2022.pgn"
before=$(sum "$t/year/2022.pgn")
err=$(cd "$t/year" && "$bin" split --by Year 2022.pgn 2>&1)
same "split --by Year into its own input: status" 2 $?
same "split --by Year into its own input: the input unchanged" "$before" "$(sum "$t/year/2022.pgn")"
same "split --by Year into its own input: nothing else written" "2022.pgn" "$(ls -A "$t/year")"
same "split --by Year into its own input: named" 1 \
    "$(grep -c "'2022.pgn' is the same file as the input '2022.pgn': refused" <<<"$err")"
ln "$t/year/2022.pgn" "$t/year/hard.pgn"
err=$(cd "$t/year" && "$bin" split --force --by Year --pattern '{value}.pgn' hard.pgn 2>&1)
same "split --force onto a hard link of the input: status" 2 $?
same "split --force onto a hard link of the input: unchanged" "$before" "$(sum "$t/year/2022.pgn")"
rm "$t/year/hard.pgn"

# ---- split: an existing file is replaced only with --force; the files written are named ----
mkdir "$t/two" && zcat "$fischer" >"$t/two/f.pgn"
err=$(cd "$t/two" && "$bin" split --games 300 f.pgn 2>&1)
same "split: status" 0 $?
same "split: each file written named, with its games" \
    "pgnkit split: wrote split-1.pgn (300 games)|pgnkit split: wrote split-2.pgn (300 games)|pgnkit split: wrote split-3.pgn (227 games)|827 games, 3 files, 0 errors" \
    "$(tr '\n' '|' <<<"$err" | sed 's/|$//')"
echo "not a game" >"$t/two/split-2.pgn"
s1=$(sum "$t/two/split-1.pgn")
err=$(cd "$t/two" && "$bin" split --games 300 f.pgn 2>&1)
same "split over existing files: status" 2 $?
same "split over existing files: each one named" 3 "$(grep -c 'exists: not replaced without --force' <<<"$err")"
same "split over existing files: untouched" "not a game $s1" "$(cat "$t/two/split-2.pgn") $(sum "$t/two/split-1.pgn")"
same "split over existing files: no temporary file left" 0 "$(temps "$t/two")"
err=$(cd "$t/two" && "$bin" split --games 300 --force --diag json f.pgn 2>&1)
same "split --force: status" 0 $?
same "split --force: replaced" 300 "$(grep -c '^\[Event ' "$t/two/split-2.pgn")"
same "split --diag json: one line per file written" \
    '{"written":{"command":"split","file":"split-3.pgn","games":227}}' "$(grep split-3 <<<"$err")"

# ---- split --force replaces a symbolic link, never the file it names (issue 36) ----
mkdir -p "$t/link/y" && zcat "$twic" >"$t/link/g.pgn" && echo "precious" >"$t/link/other"
ln -s ../other "$t/link/y/2022.pgn"
(cd "$t/link" && "$bin" split --force --by Year --pattern 'y/{value}.pgn' g.pgn 2>/dev/null)
same "split --force over a symbolic link: status" 0 $?
same "split --force over a symbolic link: the file it named unchanged" precious "$(cat "$t/link/other")"
same "split --force over a symbolic link: a file in its place" "regular file 4742" \
    "$(stat -c %F "$t/link/y/2022.pgn") $(grep -c '^\[Event ' "$t/link/y/2022.pgn")"

# ---- temporary files: removed on a signal, and a dead run's by the next run ----
mkdir "$t/sig" && for _ in 1 2 3 4; do zcat "$twic"; done >"$t/sig/g.pgn"
(cd "$t/sig" && exec "$bin" split --one-per-file --pattern 'o/{n}.pgn' g.pgn 2>/dev/null) &
pid=$!
for _ in $(seq 1 400); do [ "$(temps "$t/sig")" -gt 10 ] && break; sleep 0.01; done
kill -TERM $pid 2>/dev/null
wait $pid
st=$?
same "split stopped by SIGTERM: died of it" 143 $st
same "split stopped by SIGTERM: no temporary file left" 0 "$(temps "$t/sig")"
same "split stopped by SIGTERM: nothing put in place" "" "$(ls "$t/sig/o" 2>/dev/null)"
cp "$t/sig/g.pgn" "$t/sig/i.pgn"
before=$(sum "$t/sig/i.pgn")
"$bin" fmt "$t/sig/g.pgn" 2>/dev/null >"$t/whole.pgn"
whole=$(sum "$t/whole.pgn")
(cd "$t/sig" && exec "$bin" fmt -i i.pgn 2>/dev/null) &
pid=$!
sleep 0.3
kill -INT $pid 2>/dev/null
wait $pid
st=$?
# The signal may come before the formatted file is put in place (130, the old bytes), after it
# (130 while the run frees its memory, the new bytes) or not at all (0, the new bytes): never
# anything else.
now=$(sum "$t/sig/i.pgn")
if [ $st = 130 ] && [ "$now" = "$before" ]; then got=ok
elif { [ $st = 130 ] || [ $st = 0 ]; } && [ "$now" = "$whole" ]; then got=ok
else got="status $st, the file neither as it was nor whole"; fi
same "fmt -i stopped by SIGINT (or done first): the file as it was or whole, no temporary file" \
    "ok 0" "$got $(temps "$t/sig")"
same "fmt -i: the whole file's games" 18968 "$(grep -c '^\[Event ' "$t/whole.pgn")"
rm "$t/sig/i.pgn" "$t/whole.pgn"
dead=$(sh -c 'echo $$') # a process gone
printf 'x\n' >"$t/sig/.g.pgn.pgnkit-$dead-abcdef"
printf 'x\n' >"$t/sig/.g.pgn.pgnkit-$$-abcdef" # a live run's: kept
(cd "$t/sig" && "$bin" fmt -o g2.pgn g.pgn 2>/dev/null)
same "a dead run's temporary file removed by the next run, a live one's kept" \
    ".g.pgn.pgnkit-$$-abcdef" "$(cd "$t/sig" && ls -A | grep pgnkit)"

# ---- the named temporary file of systems without O_TMPFILE (PGNKIT_NAMED_TEMP=1; issue 36) ----
# fmt -i stopped by a signal while its named temporary file exists, failing on a write, and after a
# run killed outright: no temporary file stays, the file is as it was
mkdir "$t/nt" && cp "$t/sig/g.pgn" "$t/nt/i.pgn"
before=$(sum "$t/nt/i.pgn")
for sig in INT TERM HUP; do
    (cd "$t/nt" && PGNKIT_NAMED_TEMP=1 exec "$bin" fmt -i -j 1 i.pgn 2>/dev/null) &
    pid=$!
    seen=0
    for _ in $(seq 1 500); do [ "$(temps "$t/nt")" -gt 0 ] && seen=1 && break; sleep 0.01; done
    kill -$sig $pid 2>/dev/null
    wait $pid
    st=$?
    same "fmt -i (named temporary file) stopped by SIG$sig: seen, died of it, file as it was, no temporary file" \
        "1 1 $before 0" "$seen $([ $st -gt 128 ] && echo 1) $(sum "$t/nt/i.pgn") $(temps "$t/nt")"
done
(cd "$t/nt" && ulimit -f 1024 && PGNKIT_NAMED_TEMP=1 "$bin" fmt -i i.pgn 2>"$t/nt.err")
same "fmt -i (named temporary file) past a file size limit: exit 3, said, file as it was, no temporary file" \
    "3 1 $before 0" "$? $(grep -c 'File too large' "$t/nt.err") $(sum "$t/nt/i.pgn") $(temps "$t/nt")"
dead=$(sh -c 'echo $$')
printf 'x\n' >"$t/nt/.i.pgn.pgnkit-$dead-abcdef"
(cd "$t/nt" && PGNKIT_NAMED_TEMP=1 "$bin" fmt -i i.pgn 2>/dev/null)
same "fmt -i (named temporary file): done, a dead run's temporary file removed" \
    "0 0 18968" "$? $(temps "$t/nt") $(grep -c '^\[Event ' "$t/nt/i.pgn")"

# ---- a game cut short is broken (issue 34 point 2): 200 random cuts of TWIC files ----
zcat "$twic" >"$t/t27.pgn" && zcat "$shared/corpus/big/twic/twic1428.pgn.gz" >"$t/t28.pgn"
seed=${PGNKIT_CUT_SEED:-$(date +%s)}
echo "cut seed $seed (PGNKIT_CUT_SEED=$seed repeats the cuts)"
here=$(cd "$(dirname "$0")" && pwd)
out=$(/usr/bin/python3 "$here/../tools/cut_games.py" "$bin" "$seed" 200 "$t/t27.pgn" "$t/t28.pgn")
same "200 random cuts of TWIC: every cut game broken, the games before it whole" 0 $?
grep FAIL <<<"$out" | head -n 10
tail -n 1 <<<"$out"

# ---- the same at thread and range cuts: games cut inside a file, and at its end ----
ncut=$(/usr/bin/python3 - "$t/t27.pgn" "$t/cuts.pgn" <<'PY'
import random, re, sys
text = open(sys.argv[1], "rb").read()
games = [g for g in re.split(rb"(?m)^(?=\[Event )", text) if g]
rnd = random.Random(34)
out, n = [], 0
for i, g in enumerate(games):
    head, sep, moves = g.partition(b"\n\n")
    if (i % 40 == 7 or i == len(games) - 1) and len(moves.rstrip()) > 20:  # cut in its movetext
        g = head + sep + moves[:rnd.randrange(1, len(moves.rstrip()) - 4)]
        g = g + (b"\n\n" if i < len(games) - 1 else b"")
        n += 1
    out.append(g)
open(sys.argv[2], "wb").write(b"".join(out))
print(n)
PY
)
diagof() { grep -v '"summary"' | sed 's/"game":[0-9]*,//'; }
"$bin" check -j 1 --diag json "$t/cuts.pgn" 2>&1 >/dev/null | diagof >"$t/j1.diag"
same "games cut inside a file: each one broken (E_TRUNCATED, or E_BAD_SAN then E_TRUNCATED)" "$ncut" \
    "$(grep -c '"E_TRUNCATED"' "$t/j1.diag")"
"$bin" check -j 4 --diag json "$t/cuts.pgn" 2>&1 >/dev/null | diagof >"$t/j4.diag"
same "games cut inside a file: -j 4 as -j 1" "" "$(diff "$t/j1.diag" "$t/j4.diag" | head -n 4)"
size=$(stat -c %s "$t/cuts.pgn")
: >"$t/range.diag"
prev=0
for cut in $((size / 5)) $((size / 3)) $((size / 2)) $((size * 4 / 5)) ""; do
    "$bin" check --diag json --range "$prev:$cut" "$t/cuts.pgn" 2>&1 >/dev/null | diagof >>"$t/range.diag"
    prev=$cut
done
same "games cut inside a file: ranges as the whole" "" "$(diff "$t/j1.diag" "$t/range.diag" | head -n 4)"
"$bin" fmt -j 4 --rejects "$t/rej.pgn" "$t/cuts.pgn" >"$t/cuts.out" 2>/dev/null
same "fmt -j 4: the cut games rejected, the others written" "$ncut $(( $(grep -c '^\[Event ' "$t/cuts.pgn") - ncut ))" \
    "$(grep -c '^\[Event ' "$t/rej.pgn") $(grep -c '^\[Event ' "$t/cuts.out")"

# ---- dedupe: its outputs checked against each other like every writer's (issue 36) ----
mkdir "$t/dd" && printf '[Event "a"]\n\n1. e4 *\n\n[Event "a"]\n\n1. e4 *\n' >"$t/dd/in.pgn"
for args in "-o X --report X" "--report -" "--dupes X --report X" "-o X --dupes X" \
    "--report in.pgn"; do
    err=$(cd "$t/dd" && "$bin" dedupe $args in.pgn 2>&1 >/dev/null)
    same "dedupe $args: refused" "2 1" "$? $(grep -c 'is the same file as .*: refused' <<<"$err")"
    same "dedupe $args: nothing written" "in.pgn" "$(ls -A "$t/dd")"
done
: >"$t/dd/X" && ln -s X "$t/dd/L"
(cd "$t/dd" && "$bin" dedupe -o X --report L in.pgn 2>/dev/null)
same "dedupe -o X --report (a link to X): refused" "2 0" "$? $(stat -c %s "$t/dd/X")"
rm "$t/dd/L" "$t/dd/X"
(cd "$t/dd" && "$bin" dedupe -o X --report R in.pgn 2>/dev/null)
same "dedupe -o X --report R: both written, the report naming its input (read after it closed)" \
    "1 2" "$(grep -c '^\[Event ' "$t/dd/X") $(grep -o '"source":"in.pgn"' "$t/dd/R" | wc -l)"

# ---- select: --fmt and --mark never write a broken game as whole (issue 34 point 3) ----
mkdir "$t/sel" && printf '[Event "a"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n\n[Event "b"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 Nc6 3. Nf3 Nf6 4. Bc4 Bc5 5. O-O O-O 6. d3 d6 *\n\n[Event "c"]\n[Result "1-0"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf' >"$t/sel/in.pgn"
"$bin" check "$t/sel/in.pgn" 2>&1 | grep ": error: " >"$t/sel/check"
same "select: the input's errors (check)" "E_ILLEGAL_MOVE (game 2) E_TRUNCATED (game 3)" \
    "$(grep -o '\[E_[A-Z_]*\] (game [0-9])' "$t/sel/check" | tr -d '[]' | tr '\n' ' ' | sed 's/ $//')"
for opt in --fmt --mark "--mark-nag 1" "--fmt -j 2"; do
    for expr in 'Result = "*" or Result = "1-0"' 'plies >= 4'; do
        "$bin" select $opt "$expr" --rejects "$t/sel/rej.pgn" -o "$t/sel/out.pgn" "$t/sel/in.pgn" 2>"$t/sel/err"
        st=$?
        same "select $opt '$expr': exit 1, the good game written, the broken ones to --rejects" \
            "1 a b c" "$st $(grep -o '^\[Event "."' "$t/sel/out.pgn" | cut -c9) $(grep -o '^\[Event "."' "$t/sel/rej.pgn" | cut -c9 | tr '\n' ' ' | sed 's/ $//')"
        same "select $opt '$expr': each error reported as check reports it" "$(cat "$t/sel/check")" \
            "$(grep ": error: " "$t/sel/err")"
    done
done
"$bin" select 'plies >= 4' "$t/sel/in.pgn" 2>"$t/sel/err" >/dev/null
same "select 'plies >= 4' reads the moves it counts: the illegal move reported, exit 1" "1 1" \
    "$? $(grep -c "illegal move 'Ke3'" "$t/sel/err")"

# ---- fmt -i keeps % lines and the text before, between and after games (issue 34 point 5) ----
mkdir "$t/ip" && printf '%% header line\nSome notes before.\n\n[Event "a"]\n\n1.e4 e5 *\n\n%% between\n{comment between}\nnotes\n\n[Event "b"]\n\n1. d4 Ke7?? *\n\n%% after a broken game\n[Event "c"]\n\n1.c4 c5 1-0\ntrailing text\n' >"$t/ip/g.pgn"
cp "$t/ip/g.pgn" "$t/ip/orig.pgn"
"$bin" fmt -i --backup .bak "$t/ip/g.pgn" 2>/dev/null
st=$?
same "fmt -i --backup: exit 1 (a broken game), the backup the file as it was" "1 $(sum "$t/ip/orig.pgn")" "$st $(sum "$t/ip/g.pgn.bak")"
# the text outside the games, byte for byte: the file less its games' tags and movetext
outside() { /usr/bin/python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
# a game: its tag lines, an empty line, movetext lines up to the one ending in its result
print(re.sub(r"(?ms)^\[Event .*?(?:\*|1-0|0-1|1/2-1/2)$", "GAME", text), end="")
PY
}
same "fmt -i: % lines, notes and comments between games kept byte for byte" "$(outside "$t/ip/orig.pgn")" "$(outside "$t/ip/g.pgn")"
same "fmt -i: the games rewritten, the broken one verbatim" "1. e4 e5 *|1. d4 Ke7?? *|1. c4 c5 1-0" \
    "$(grep -E '^1\.' "$t/ip/g.pgn" | tr '\n' '|' | sed 's/|$//')"
# fmt to standard output or -o keeps them too, at -j 1 and -j N alike (the text before the first
# game from the first batch, the text after each game from the batch that read it): TWIC 1427
# with a % line and a note after each game, cut into small batches
/usr/bin/python3 - "$t/t27.pgn" "$t/ip/notes.pgn" <<'PY'
import re, sys
games = [g for g in re.split(r"(?m)^(?=\[Event )", open(sys.argv[1]).read()) if g.startswith("[Event ")]
out = ["% lead line\nA note before the first game.\n\n"]
out += [g.rstrip("\n") + "\n\n%% escape line after a game\n{a comment} and a note after it\n\n" for g in games]
open(sys.argv[2], "w").write("".join(out) + "trailing text\n")
PY
for j in 1 4; do
    PGNKIT_BATCH=30000 "$bin" fmt -j $j "$t/ip/notes.pgn" >"$t/ip/notes.$j" 2>/dev/null
    same "fmt -j $j: the text outside the games byte for byte, every game written" \
        "0 $(outside "$t/ip/notes.pgn" | md5sum) 4742" "$? $(outside "$t/ip/notes.$j" | md5sum) $(grep -c '^\[Event ' "$t/ip/notes.$j")"
done
same "fmt -j 1 and -j 4: the same bytes" "$(sum "$t/ip/notes.1")" "$(sum "$t/ip/notes.4")"
PGNKIT_BATCH=30000 "$bin" fmt -j 4 -o "$t/ip/notes.o" "$t/ip/notes.pgn" 2>/dev/null
same "fmt -o: the same bytes" "$(sum "$t/ip/notes.1")" "$(sum "$t/ip/notes.o")"
# eco rewrites a whole collection too: the same text kept in its places
for j in 1 4; do
    PGNKIT_BATCH=30000 "$bin" eco -j $j "$t/ip/notes.pgn" >"$t/ip/eco.$j" 2>/dev/null
    same "eco -j $j: the text outside the games byte for byte, every game written" \
        "0 $(outside "$t/ip/notes.pgn" | md5sum) 4742" "$? $(outside "$t/ip/eco.$j" | md5sum) $(grep -c '^\[Event ' "$t/ip/eco.$j")"
done
same "eco -j 1 and -j 4: the same bytes" "$(sum "$t/ip/eco.1")" "$(sum "$t/ip/eco.4")"
cp "$t/ip/g.pgn" "$t/ip/once.pgn"
"$bin" fmt -i --backup .bak "$t/ip/g.pgn" 2>/dev/null
same "fmt -i twice: the same file; the backup replaced by the file as it was" "$(sum "$t/ip/once.pgn") $(sum "$t/ip/once.pgn")" \
    "$(sum "$t/ip/g.pgn") $(sum "$t/ip/g.pgn.bak")"
cp "$here/../../examples/sample.pgn" "$t/ip/sample.pgn"
"$bin" fmt -i "$t/ip/sample.pgn" 2>/dev/null
same "fmt -i on the bundled sample keeps its % header" "$(grep '^%' "$here/../../examples/sample.pgn")" "$(head -n 4 "$t/ip/sample.pgn")"
"$bin" fmt --backup .bak "$t/ip/g.pgn" >/dev/null 2>&1
same "fmt --backup without -i: usage error" 2 $?
ln -s g.pgn "$t/ip/link.pgn" && rm "$t/ip/g.pgn.bak"
"$bin" fmt -i --backup .bak "$t/ip/link.pgn" 2>/dev/null
same "fmt -i --backup through a symbolic link: the link kept, the backup of the file it names" \
    "link.pgn -> g.pgn $(sum "$t/ip/once.pgn")" "$(cd "$t/ip" && stat -c %N link.pgn | tr -d "'\`’‘") $(sum "$t/ip/link.pgn.bak")"

# ---- sort: more runs than open files, merged in passes (issue 34 point 6) ----
"$bin" sort --quiet --by White,Date "$t/t27.pgn" | md5sum >"$t/sort.want"
got=$( (ulimit -n 40 && "$bin" sort --by White,Date --memory 16K "$t/t27.pgn" 2>"$t/sort.err" | md5sum) )
runs=$(grep -o '[0-9]* runs' "$t/sort.err" | cut -d' ' -f1)
same "sort with ${runs:-no} runs under ulimit -n 40: the same output as in memory" "$(cat "$t/sort.want")" "$got"
[ "${runs:-0}" -gt 40 ] && ok || bad "sort --memory 16K made only ${runs:-no} runs: $(cat "$t/sort.err")"
(ulimit -n 12 && "$bin" sort --by White --memory 16K "$t/t27.pgn" >"$t/sort.out" 2>"$t/sort.err")
same "sort that cannot open its runs: exit 3, the error naming the limit, no summary, nothing written" \
    "3 1 0 0" "$? $(grep -c 'cannot open a temporary run file: .* (the limit is 12 open files: ulimit -n)' "$t/sort.err") $(grep -c ' games, ' "$t/sort.err") $(stat -c %s "$t/sort.out")"

# ---- in place: owner, group, mode and extended attributes kept, or refused (issue 36) ----
xattr() { /usr/bin/python3 -c 'import os,sys; print(os.getxattr(sys.argv[1], "user.origin").decode())' "$1" 2>&1; }
if [ "$(id -u)" != 0 ]; then
    skipped "fmt -i on another user's file: creating a user needs root (running as uid $(id -u))"
elif ! command -v useradd >/dev/null || ! command -v runuser >/dev/null; then
    skipped "fmt -i on another user's file: useradd or runuser missing"
else
    user=pgnkt$$
    useradd -M -U -s /usr/sbin/nologin "$user" || bad "useradd $user"
    trap 'userdel "$user" 2>/dev/null; rm -rf "$t"' EXIT
    chmod 755 "$t" && mkdir -m 755 "$t/meta"
    printf '[Event "x"]\n\n1.e4 e5 2.Nf3 *\n' >"$t/meta/g.pgn"
    chown "$user:$user" "$t/meta/g.pgn" && chmod 640 "$t/meta/g.pgn"
    /usr/bin/python3 -c 'import os,sys; os.setxattr(sys.argv[1], "user.origin", b"corpus")' "$t/meta/g.pgn"
    "$bin" fmt -i "$t/meta/g.pgn" 2>/dev/null
    same "fmt -i as root on another user's file: status" 0 $?
    same "fmt -i: owner, group and mode kept" "$user $user 640" "$(stat -c '%U %G %a' "$t/meta/g.pgn")"
    same "fmt -i: extended attribute kept" corpus "$(xattr "$t/meta/g.pgn")"
    same "fmt -i: rewritten" "1. e4 e5 2. Nf3 *" "$(tail -n 2 "$t/meta/g.pgn" | head -n 1)"
    # the user may replace root's file in a directory of theirs, but cannot give it back to root
    mkdir -m 755 "$t/meta/mine" && chown "$user:$user" "$t/meta/mine"
    printf '[Event "x"]\n\n1.e4 e5 *\n' >"$t/meta/mine/r.pgn" && chmod 644 "$t/meta/mine/r.pgn"
    before=$(sum "$t/meta/mine/r.pgn")
    err=$(runuser -u "$user" -- "$bin" fmt -i "$t/meta/mine/r.pgn" 2>&1)
    same "fmt -i that cannot keep the owner: status" 3 $?
    same "fmt -i that cannot keep the owner: says why" 1 "$(grep -c 'cannot keep its owner 0 and group 0 (Operation not permitted): not replaced' <<<"$err")"
    same "fmt -i that cannot keep the owner: unchanged, no temporary file" "$before root 0" \
        "$(sum "$t/meta/mine/r.pgn") $(stat -c %U "$t/meta/mine/r.pgn") $(temps "$t/meta")"
    err=$(PGNKIT_NAMED_TEMP=1 runuser -u "$user" -- "$bin" fmt -i "$t/meta/mine/r.pgn" 2>&1)
    same "fmt -i that cannot keep the owner (named temporary file): exit 3, said, unchanged, no temporary file" \
        "3 1 $before 0" "$? $(grep -c 'cannot keep its owner' <<<"$err") $(sum "$t/meta/mine/r.pgn") $(temps "$t/meta")"
fi

echo "RESULT $pass $fail $skip"
[ "$fail" = 0 ]
