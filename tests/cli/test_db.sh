#!/usr/bin/env bash
# CLI tests of pgnkit db (issue 30): the explorer's counts and the games at sampled positions
# (the start and up to 4 positions at each ply 1..60) against a scan of the same files by
# pgnkit convert --to csv --per-ply (tests/tools/db_truth.py), on TWIC 1427+1428 and on the
# gnuchess book; duplicates against pgnkit dedupe --by moves+tags; export gives back every
# game's bytes; a second import of the same files adds nothing; an import killed with SIGKILL
# keeps whole batches, two imports at once store each game once, a read-only file is refused for
# import and read; bad database files (and older or newer schemas) are refused.
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

# The explorer and the position index of DB against the truth of the files in $t/all.pgn.
against_truth() { # name, db, pgnkit binary
    local name=$1 db=$2 pk=$3 sum
    # the truth of the same file is made once (the killed and resumed import reads TWIC again)
    sum=$(md5sum <"$t/all.pgn")
    if [ "$sum" != "${truth_of:-}" ]; then
        "$rel" convert --to csv --per-ply "$t/all.pgn" >"$t/plies.csv" 2>/dev/null
        "$rel" convert --to csv --tags Result,FEN "$t/all.pgn" >"$t/games.csv" 2>/dev/null
        /usr/bin/python3 "$here/tests/tools/db_truth.py" "$t/plies.csv" "$t/games.csv" "$t/sample" "$t/truth"
        rm -f "$t/plies.csv"
        truth_of=$sum
    fi
    local n
    n=$(wc -l <"$t/sample")
    [ "$n" -gt 200 ] && ok || bad "$name: only $n positions sampled"
    "$pk" db explore --db "$db" --json - <"$t/sample" >"$t/explore.json" || bad "$name: db explore failed"
    while IFS= read -r fen; do
        printf '%s\t' "$(cut -d' ' -f1-4 <<<"$fen")"
        "$pk" db games --db "$db" --ids "$fen" | tr '\n' ' ' | sed 's/ $//'
        echo
    done <"$t/sample" >"$t/ids"
    /usr/bin/python3 - "$t/explore.json" "$t/ids" "$t/truth" >"$t/got" <<'PY'
import json, sys
ids = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
for line, (pos, idl) in zip(open(sys.argv[1]), ids):
    o = json.loads(line)
    assert " ".join(o["fen"].split()[:4]) == pos, (o["fen"], pos)
    ms = sorted(o["moves"], key=lambda m: m["uci"])
    desc = " ".join("%s:%d:%d:%d:%d" % (m["uci"], m["games"], m["white"], m["draws"], m["black"]) for m in ms)
    print("%s\t%d\t%s\t%s" % (pos, o["games"], desc, idl))
PY
    if cmp -s "$t/truth" "$t/got"; then
        ok
        echo "db: $name: explorer counts and games at $n positions equal to the scan"
    else
        bad "$name: explorer or positions differ from the scan:"
        diff "$t/truth" "$t/got" | head -5
    fi
}

# ---- TWIC 1427 + 1428: every game kept (the scan counts every game) ----
zcat "$shared/corpus/big/twic/twic1427.pgn.gz" "$shared/corpus/big/twic/twic1428.pgn.gz" >"$t/all.pgn"
games=$("$rel" convert --to csv --tags Result "$t/all.pgn" 2>/dev/null | tail -n +2 | wc -l)
"$bin" db import --quiet --keep-duplicates --db "$t/twic.db" -j 2 \
    "$shared/corpus/big/twic/twic1427.pgn.gz" "$shared/corpus/big/twic/twic1428.pgn.gz" 2>"$t/imp.err"
same "twic import status" 0 $?
same "twic games stored" "$games" "$("$bin" db stats --db "$t/twic.db" | sed -n 's/^games //p')"
against_truth twic "$t/twic.db" "$bin"

# export: each game's bytes as read, in order: the same games as fmt-free reading gives
"$bin" db export --db "$t/twic.db" >"$t/export.pgn"
same "export: games back" "$games" "$("$rel" convert --to csv --tags Result "$t/export.pgn" 2>/dev/null | tail -n +2 | wc -l)"
same "export: same export form" "$("$rel" fmt "$t/all.pgn" 2>/dev/null | md5sum)" "$("$rel" fmt "$t/export.pgn" 2>/dev/null | md5sum)"
same "export: every byte of each game" "$(tr -d '\n' <"$t/all.pgn" | md5sum)" "$(tr -d '\n' <"$t/export.pgn" | md5sum)"

# ---- duplicates: the rule of dedupe --by moves+tags; a second import adds nothing ----
"$bin" db import --quiet --db "$t/dd.db" "$t/all.pgn" "$t/all.pgn" 2>"$t/dd.err"
kept=$("$rel" dedupe --by moves+tags "$t/all.pgn" 2>/dev/null | "$rel" convert --to csv --tags Result 2>/dev/null | tail -n +2 | wc -l)
same "dedupe rule: games stored" "$kept" "$("$bin" db stats --db "$t/dd.db" | sed -n 's/^games //p')"
grep -q "$((2 * games)) games read, $kept stored (0 broken), $((2 * games - kept)) duplicates" "$t/dd.err" && ok ||
    bad "dedupe summary: $(cat "$t/dd.err")"
# --keep-duplicates stores the same (finished) line key a game has without it: the same keys as
# the deduplicated import's, and an import without the option then finds every game stored
keys() { sqlite3 "$1" "SELECT DISTINCT line_key FROM games ORDER BY line_key" | md5sum; }
same "--keep-duplicates: the line keys" "$(keys "$t/dd.db")" "$(keys "$t/twic.db")"
"$bin" db import --quiet --db "$t/twic.db" "$t/all.pgn" 2>"$t/kd.err"
grep -q "$games games read, 0 stored (0 broken), $games duplicates" "$t/kd.err" && ok ||
    bad "--keep-duplicates then without: $(cat "$t/kd.err")"

# ---- faults: a killed import, two imports at once, a read-only file ----
# SIGKILL during an import leaves the batches committed, whole (a reader sees them while it runs);
# importing the file again stores the rest: the explorer then equals the scan
"$bin" db import --quiet --batch 500 --db "$t/kill.db" "$t/all.pgn" 2>/dev/null &
pid=$!
n=0
for _ in $(seq 600); do
    n=$("$rel" db stats --db "$t/kill.db" 2>/dev/null | sed -n 's/^games //p')
    [ "${n:-0}" -gt 0 ] && break
    sleep 0.05
done
kill -9 $pid
wait $pid 2>/dev/null
n=$("$rel" db stats --db "$t/kill.db" | sed -n 's/^games //p')
[ "${n:-0}" -gt 0 ] && [ "$n" -lt "$games" ] && [ $((n % 500)) -eq 0 ] && ok ||
    bad "killed import: $n games stored, not whole batches of 500 short of $games"
"$rel" db check --db "$t/kill.db" >/dev/null 2>&1
same "killed import: integrity" 0 $?
"$rel" db import --quiet --db "$t/kill.db" "$t/all.pgn" 2>"$t/kill.err"
same "killed import: resumed" "$games games read, $((kept - n)) stored (0 broken), $n duplicates" \
    "$(sed -n 's/^pgnkit db import: \(.*\) skipped.*/\1/p' "$t/kill.err")"
[ "$kept" -eq "$games" ] && against_truth "killed and resumed" "$t/kill.db" "$rel"
# two imports of the same file at once: each waits for the other's batch (10 s at most each time,
# then gives up saying the database is locked); each game is stored once, and importing again
# after both completes the file
"$rel" db import --quiet --batch 500 --db "$t/two.db" "$t/all.pgn" 2>"$t/two1.err" &
p1=$!
"$rel" db import --quiet --batch 500 --db "$t/two.db" "$t/all.pgn" 2>"$t/two2.err"
s2=$?
wait $p1
s1=$?
for i in 1 2; do
    eval "st=\$s$i"
    if [ "$st" = 0 ] || { [ "$st" = 3 ] && grep -q "database is locked" "$t/two$i.err"; }; then ok; else
        bad "two imports: import $i: status $st: $(cat "$t/two$i.err")"
    fi
done
"$rel" db check --db "$t/two.db" >/dev/null 2>&1
same "two imports: integrity" 0 $?
"$rel" db import --quiet --db "$t/two.db" "$t/all.pgn" 2>/dev/null
same "two imports: games stored once" "$kept" "$("$rel" db stats --db "$t/two.db" | sed -n 's/^games //p')"
# a write-protected file: import refuses it (SQLite alone would open it for reading); reading works
mkdir "$t/ro"
cp "$t/dd.db" "$t/ro/ro.db"
chmod 444 "$t/ro/ro.db"
as=()
if [ "$(id -u)" = 0 ]; then # root writes anyway: run as nobody in a directory of nobody's
    chmod 755 "$t"
    chown 65534 "$t/ro"
    as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
"${as[@]}" "$bin" db import --quiet --db "$t/ro/ro.db" "$t/all.pgn" 2>"$t/e4"
same "a read-only file: import status" 3 $?
grep -q "cannot be written (read-only)" "$t/e4" && ok || bad "a read-only file: $(cat "$t/e4")"
same "a read-only file: stats" "$kept" "$("${as[@]}" "$bin" db stats --db "$t/ro/ro.db" | sed -n 's/^games //p')"

# ---- the gnuchess book (145,716 games), by the release build ----
zcat "$shared/corpus/big/gnuchess-book_1.02.pgn.gz" >"$t/all.pgn"
"$rel" db import --quiet --keep-duplicates --db "$t/book.db" "$t/all.pgn" 2>"$t/imp.err" || bad "book import: $(cat "$t/imp.err")"
against_truth book "$t/book.db" "$rel"

# ---- bad files ----
echo "not a database" >"$t/text.db"
"$bin" db stats --db "$t/text.db" >/dev/null 2>"$t/e1"
same "a text file: status" 3 $?
grep -q "not a database\|file is not a database" "$t/e1" && ok || bad "a text file: $(cat "$t/e1")"
/usr/bin/python3 -c "import sqlite3; c = sqlite3.connect('$t/other.db'); c.execute('create table x(a)'); c.commit()"
"$bin" db stats --db "$t/other.db" >/dev/null 2>"$t/e2"
same "another SQLite file: status" 3 $?
grep -q "not a pgnkit database" "$t/e2" && ok || bad "another SQLite file: $(cat "$t/e2")"
cp "$t/dd.db" "$t/new.db"
/usr/bin/python3 -c "import sqlite3; c = sqlite3.connect('$t/new.db'); c.execute(\"update meta set value = 99 where name = 'schema'\"); c.commit()"
"$bin" db stats --db "$t/new.db" >/dev/null 2>"$t/e3"
same "a newer schema: status" 3 $?
grep -q "schema 99 is newer" "$t/e3" && ok || bad "a newer schema: $(cat "$t/e3")"
cp "$t/dd.db" "$t/old.db"
/usr/bin/python3 -c "import sqlite3; c = sqlite3.connect('$t/old.db'); c.execute(\"update meta set value = 2 where name = 'schema'\"); c.commit()"
"$bin" db explore --db "$t/old.db" e4 >/dev/null 2>"$t/e5"
same "an older schema: status" 3 $?
grep -q "schema 2 is older.*import the games again" "$t/e5" && ok || bad "an older schema: $(cat "$t/e5")"
"$bin" db explore --db "$t/missing.db" >/dev/null 2>&1
same "a missing file: status" 3 $?
[ ! -e "$t/missing.db" ] && ok || bad "explore created the missing file"

echo "RESULT $pass $fail 0"
