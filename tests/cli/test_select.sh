#!/usr/bin/env bash
# CLI tests of `pgnkit select` (issue 13): every example of docs/query.md compiles, a bad expression
# gets its column and caret (exit 2), and each option does what its --help says, checked against
# the input's own bytes and game counts. Prints "RESULT passed failed skipped".
set -u
bin=${PGNKIT_BIN:-build/pgnkit}
shared=${PGNKIT_SHARED:-../shared}
in=$shared/corpus/expected/pgn-extract/infiles
tmp=${TMPDIR:-/tmp}/pgnkit-select.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # name, command that must succeed
    local name=$1; shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name"; fi
}
eq() { # name, expected, actual
    if [ "$2" == "$3" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: expected [$2], got [$3]"; fi
}
games() { grep -c '^\[Event ' "$@" || true; }

# the documentation's examples (indented lines outside code fences)
awk '/^```/{f=!f; next} !f && /^    / && !/^    pgnkit/{sub(/^    /,""); print}' docs/query.md > "$tmp/examples"
n=0
while IFS= read -r x; do
    n=$((n + 1))
    if ! "$bin" select --count "$x" /dev/null > /dev/null 2> "$tmp/err"; then
        fail=$((fail + 1)); echo "FAIL docs/query.md example does not compile: $x"; cat "$tmp/err"
    else
        pass=$((pass + 1))
    fi
done < "$tmp/examples"
check "docs/query.md has over 70 examples ($n)" test "$n" -gt 70

# errors: column, caret under the token, what was expected; exit status 2
"$bin" select 'white ~ "Carlsen" and Qz9' "$in/fischer.pgn" > "$tmp/out" 2> "$tmp/err"
eq "bad expression exit status" 2 $?
eq "bad expression message" "pgnkit select: error in the expression, column 23: unknown atom 'Qz9'" "$(sed -n 1p "$tmp/err")"
eq "caret under the token" "                        ^~~" "$(sed -n 3p "$tmp/err")"
check "what was expected" grep -q "^  expected: .*'not'" "$tmp/err"
check "nothing written on an error" test ! -s "$tmp/out"

f=$in/fischer.pgn
total=$(games "$f")
eq "--count" 5 "$("$bin" select --count 'player ~ "^Petrosian"' "$f")"
eq "--invert --count" $((total - 5)) "$("$bin" select --invert --count 'player ~ "^Petrosian"' "$f")"
eq "--limit" 2 "$("$bin" select --limit 2 'player ~ "^Petrosian"' "$f" | games)"
eq "--games" 2 "$("$bin" select --games 1-11,18 --count 'player ~ "^Petrosian"' "$f")"
"$bin" select 'plies >= 0' "$f" > "$tmp/all"
check "original bytes by default (the whole file back)" cmp -s "$f" "$tmp/all"
"$bin" select --rejects "$tmp/rej" 'player ~ "^Petrosian"' "$f" > "$tmp/sel"
eq "--rejects and the matches make the whole file" "$total" $(($(games "$tmp/sel") + $(games "$tmp/rej")))
"$bin" select --fmt 'player ~ "^Petrosian"' "$f" > "$tmp/fmt"
"$bin" fmt "$tmp/sel" > "$tmp/fmt2" 2> /dev/null
check "--fmt writes the export format of the matches" cmp -s "$tmp/fmt2" "$tmp/fmt"
# --offsets: each line names the game's bytes in the file
"$bin" select --offsets mate "$in/test-checkmate.pgn" > "$tmp/off"
eq "--offsets lines" 1 "$(wc -l < "$tmp/off")"
off=$(sed 's/.*"offset":\([0-9]*\).*/\1/' "$tmp/off")
len=$(sed 's/.*"length":\([0-9]*\).*/\1/' "$tmp/off")
"$bin" select 'ends = checkmate' "$in/test-checkmate.pgn" > "$tmp/mate"
tail -c +$((off + 1)) "$in/test-checkmate.pgn" | head -c "$len" > "$tmp/slice"
check "--offsets offset and length are the game's bytes" cmp -s "$tmp/mate" "$tmp/slice"
check "--offsets names the mating ply" grep -q '"ply":[1-9]' "$tmp/off"
# with two inputs, each line names its file, whose bytes its offset and length are
"$bin" select --offsets mate "$f" "$in/test-checkmate.pgn" > "$tmp/off2"
check "--offsets names the file of each match" grep -qF "\"file\":\"$in/test-checkmate.pgn\",\"offset\":$off,\"length\":$len," "$tmp/off2"
# --mark: the comment after the first matching move
"$bin" select --mark 'at (mate and move Qh4)' "$in/test-checkmate.pgn" > "$tmp/mark"
check "--mark adds {select: matched} after the mating move" grep -q 'Qh4# { select: matched } 0-1' "$tmp/mark"
"$bin" select --mark-nag 1 'at (mate and move Qh4)' "$in/test-checkmate.pgn" > "$tmp/marknag"
check "--mark-nag adds the NAG after the mating move" grep -q 'Qh4# \$1 0-1' "$tmp/marknag"
# -f: an expression file with comments
printf '# games of Petrosian\nplayer ~ "^Petrosian"  # either colour\n  and result = "0-1"\n' > "$tmp/q"
eq "-f FILE" "$("$bin" select --count 'player ~ "^Petrosian" and result = "0-1"' "$f")" "$("$bin" select -f "$tmp/q" --count "$f")"
# stdin, and several files: ordinals run on across files
eq "stdin" 5 "$("$bin" select --count 'player ~ "^Petrosian"' < "$f")"
eq "two files" 10 "$("$bin" select --count 'player ~ "^Petrosian"' "$f" "$f")"
eq "--games across files" 1 "$("$bin" select --games $((total + 11)) --count 'player ~ "^Petrosian"' "$f" "$f")"
# glob (issue 31): each pattern counts the games Python's fnmatch.fnmatchcase counts on the tag
# values of TWIC 1427 (read here with re; "..."i against both sides lowered); an absent tag is no
# match; player is White or Black; a glob applies to tags, player and eco only
twic=$shared/corpus/big/twic/twic1427.pgn.gz
zcat "$twic" > "$tmp/twic.pgn"
printf '\n[Event "x"]\n[White "M\303\274ller"]\n[Black "b"]\n[Result "*"]\n\n*\n' >> "$tmp/twic.pgn" # ? is one UTF-8 character
while IFS='|' read -r name pat icase; do
    q="$name glob \"$pat\"$icase"
    want=$(/usr/bin/python3 - "$tmp/twic.pgn" "$name" "$pat" "$icase" <<'PY'
import fnmatch, re, sys
path, name, pat, icase = sys.argv[1:]
text = open(path, encoding="utf-8", errors="replace").read()
n = 0
for g in re.split(r"(?m)^(?=\[Event )", text):
    tags = {k.lower(): v for k, v in re.findall(r'(?m)^\[(\w+) "(.*)"\]\s*$', g)}
    if not tags:
        continue
    vals = [tags.get("white"), tags.get("black")] if name == "player" else [tags.get(name.lower())]
    f = (lambda v: fnmatch.fnmatchcase(v.lower(), pat.lower())) if icase else (lambda v: fnmatch.fnmatchcase(v, pat))
    n += any(v is not None and f(v) for v in vals)
print(n)
PY
)
    eq "glob: $q" "$want" "$("$bin" select -j 1 --count "$q" "$tmp/twic.pgn" 2>/dev/null)"
    [ "$want" -gt 0 ] || { fail=$((fail + 1)); echo "FAIL glob: $q matches nothing, a weak test"; }
done <<'GLOBS'
ECO|B9?|
eco|C4[0-5]|
ECO|[!AB]*|
Event|*Open*|
Event|*open*|i
player|Giri*|
player|*,[A-M]|
Round|?|
Round|?.1?|
Date|2022.0[23].*|
White|M?ller|
GLOBS
# glob against Python's fnmatch.fnmatchcase on random patterns (classes, ranges, negation, ] first,
# an unclosed [, * and ?) over random values with a two-byte UTF-8 character
seed=${PGNKIT_GLOB_SEED:-$(date +%s)}
echo "glob seed $seed (PGNKIT_GLOB_SEED=$seed repeats it)"
/usr/bin/python3 - "$seed" "$tmp" <<'PY'
import fnmatch, random, sys
random.seed(int(sys.argv[1]))
d = sys.argv[2]
vals = ["".join(random.choice("ab-]!\u00e9") for _ in range(random.randint(0, 6))) for _ in range(300)]
with open(d + "/gv.pgn", "w", encoding="utf-8") as f:
    for i, v in enumerate(vals):
        f.write('[Event "%s"]\n[Site "%d"]\n\n*\n\n' % (v, i))
atoms = ["a", "b", "-", "!", "\u00e9", "*", "?", "[ab]", "[!a]", "[a-b]", "[]a]", "[!]]", "[-a]", "[", "[\u00e9]"]
with open(d + "/gp.txt", "w", encoding="utf-8") as f:
    for _ in range(120):
        p = "".join(random.choice(atoms) for _ in range(random.randint(1, 5)))
        f.write("%s\t%d\n" % (p, sum(fnmatch.fnmatchcase(v, p) for v in vals)))
PY
bad=0
while IFS=$'\t' read -r p want; do
    got=$("$bin" select -j 1 --count "Event glob \"$p\"" "$tmp/gv.pgn" 2>&1)
    [ "$got" = "$want" ] || { bad=$((bad + 1)); echo "glob \"$p\": fnmatch $want, pgnkit $got"; }
done < "$tmp/gp.txt"
eq "glob: 120 random patterns as fnmatch.fnmatchcase" 0 "$bad"
eq "glob: a tag that is absent" 0 "$("$bin" select --count 'NoSuchTag glob "*"' "$tmp/twic.pgn" 2>/dev/null)"
eq "glob: same as the regular expression" "$("$bin" select --count 'ECO ~ "^B9.$"' "$tmp/twic.pgn")" \
    "$("$bin" select --count 'ECO glob "B9?"' "$tmp/twic.pgn")"
"$bin" select --count 'elo glob "2*"' /dev/null > /dev/null 2> "$tmp/err"
eq "glob: not for a number (exit 2)" "2 1" "$? $(grep -c "'glob' does not apply here" "$tmp/err")"
eq "glob: move glob stays a move atom's error" 2 "$("$bin" select --count 'move glob' /dev/null > /dev/null 2>&1; echo $?)"
# a movetext the query skips (decided by the tags, or at its first point) ends as a full read ends
# it: cut inside a move or after a move number (E_TRUNCATED), short of the Result tag's result
# unless a mate ended it, a long last symbol; the diagnostics are check's, which reads every move
printf '[Event "a"]\n[Result "1-0"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#\n\n[Event "b"]\n[Result "*"]\n\n1. d4 d5 2. Nf3 Nf\n\n[Event "c"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3\n\n[Event "d"]\n[Result "*"]\n\n1. c4 e5 2.\n\n[Event "e"]\n[Result "*"]\n\n1. c4 e5 2. Nc3 Nf6 3. Nxe5 Nxe4xd2xc3xb4xa5\n\n[Event "f"]\n[Result "*"]\n\n1. e4 c5 2. Nf3 d6 1/2-\n' > "$tmp/tail.pgn"
ends() { grep -oE '(E_TRUNCATED|W_MISSING_RESULT)\] \(game [0-9]+' "$@" | tr '\n' ' '; }
"$bin" check -j 1 "$tmp/tail.pgn" 2> "$tmp/tail.check" > /dev/null
eq "skipped tails: check finds the cut games" "2 3 4 6" \
    "$(grep -o 'E_TRUNCATED.*game [0-9]' "$tmp/tail.check" | grep -o '[0-9]$' | tr '\n' ' ' | sed 's/ $//')"
for expr in 'Event ~ "."' 'pattern "*/*/*/*/*/*/*/*"' 'plies >= 0 and Event = "a"'; do
    "$bin" select -j 1 "$expr" "$tmp/tail.pgn" 2> "$tmp/tail.err" > /dev/null
    eq "skipped tails: select '$expr' ends the games as check does" "$(ends "$tmp/tail.check")" \
        "$(ends "$tmp/tail.err")"
done
echo "RESULT $pass $fail 0"
[ "$fail" -eq 0 ]
