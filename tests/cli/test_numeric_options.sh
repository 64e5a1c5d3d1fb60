#!/usr/bin/env bash
# Every numeric option of every command refuses a bad value as a usage error (issue 33 item 2):
# exit 2 and a message naming the option, never a run with the value read as 0 or as its leading
# digits ("3x" as 3). The list of options is taken from the commands' usage texts (pgnkit --help
# for the commands, pgnkit CMD --help for their options: every option whose value is written N,
# K, MS, PX, S, T, MB, BYTES, JOBS, SIZE, LIST or START:END), so that a new option cannot be left
# out. Prints "RESULT passed failed skipped".
set -u
bin=$(realpath "${PGNKIT_BIN:-build/pgnkit}")
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One bad value: exit 2 and the option named on stderr.
try() { # cmd option value [operands...]
    local cmd=$1 opt=$2 val=$3
    shift 3
    local sub=()
    # db's numeric options are import's, but --limit, select's
    if [ "$cmd" = db ]; then
        case $opt in --limit) sub=(select) ;; *) sub=(import) ;; esac
    fi
    timeout 20 "$bin" "$cmd" "${sub[@]}" "$opt" "$val" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
    local st=$?
    if [ "$st" -ne 2 ]; then
        bad "$cmd $opt '$val': exit $st, not 2: $(head -c 300 "$tmp/err")"
    elif ! grep -qF -- "$opt" "$tmp/err"; then
        bad "$cmd $opt '$val': the message does not name $opt: $(head -c 300 "$tmp/err")"
    elif grep -q "unrecognized option" "$tmp/err"; then
        bad "$cmd $opt: listed in the usage but not an option of $cmd"
    else
        ok
    fi
}

commands=$("$bin" --help | awk '/^commands:/ {f = 1; next} f && /^  [a-z]/ {print $1}')
[ -n "$commands" ] || bad "no command list in pgnkit --help"
numeric='N|K|MS|PX|S|T|MB|BYTES|JOBS|SIZE|LIST|START:END'
total=0
for cmd in $commands; do
    [ "$cmd" = help ] && continue
    # frames's usage names other commands' --range and --line-base; it takes only FILE
    [ "$cmd" = frames ] && continue
    opts=$("$bin" "$cmd" --help | grep -oE -- "(--[a-z][a-z-]*|-j)[ =]($numeric)([^A-Za-z]|\$)" |
        sed -E 's/[ =].*//' | sort -u)
    for opt in $opts; do
        total=$((total + 1))
        kind=$("$bin" "$cmd" --help | grep -oE -- "$opt[ =]($numeric)([^A-Za-z]|\$)" | head -n 1 |
            sed -E "s/^$opt[ =]//; s/[^A-Z:]+\$//")
        case $kind in
        START:END) vals=("abc" "5x:" ":" "-1:5" "9:3" "1:2x") ;;
        LIST) vals=("abc" "3x" "0" "-1" "" "2-1") ;;
        *) vals=("abc" "3x" "-1" "" "+7" "99999999999999999999999") ;;
        esac
        for v in "${vals[@]}"; do
            if [ "$cmd" = select ]; then
                try "$cmd" "$opt" "$v" 'plies >= 1'
            elif [ "$cmd" = perft ]; then
                try "$cmd" "$opt" "$v" 1
            else
                try "$cmd" "$opt" "$v"
            fi
        done
    done
done
# the number operands: perft DEPTH
for v in abc 3x -1 "" 31 " 2"; do
    timeout 20 "$bin" perft -- "$v" >/dev/null 2>"$tmp/err"
    st=$?
    [ "$st" -eq 2 ] && grep -q DEPTH "$tmp/err" && ok || bad "perft '$v': exit $st: $(cat "$tmp/err")"
done
# a good value is still read (the test could not tell a refused option from a parser that refuses
# everything otherwise)
printf '[Result "*"]\n\n1. e4 e5 2. Nf3 *\n\n[Result "*"]\n\n1. d4 *\n' >"$tmp/two.pgn"
[ "$("$bin" select 'plies >= 1' --limit 1 "$tmp/two.pgn" 2>/dev/null | grep -c '^\[Result')" = 1 ] && ok ||
    bad "select --limit 1 did not write one game"
[ "$("$bin" perft 2 2>/dev/null)" = 400 ] && ok || bad "perft 2 is not 400"
"$bin" stats --top 0 --max-errors 5 -j 1 "$tmp/two.pgn" >/dev/null 2>&1 && ok ||
    bad "stats --top 0 --max-errors 5 -j 1 refused"
echo "$total numeric options"
[ "$total" -ge 40 ] && ok || bad "only $total numeric options found in the usage texts"
echo "RESULT $pass $fail 0"
