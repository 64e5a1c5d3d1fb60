#!/usr/bin/env bash
# The documentation cannot drift from the program (issue 11): the README's command synopsis equals
# what tools/synopsis.sh makes from every command's --help, and every long option that a
# command's --help names is described in the man page source (man/pgnkit.1.scd). Prints
# "RESULT passed failed skipped" like the C suites.
set -u
bin=${PGNKIT_BIN:-build/pgnkit}
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
want=$(tools/synopsis.sh "$bin")
got=$(awk '/<!-- synopsis: begin/{on=1; next} /<!-- synopsis: end/{on=0} on' README.md | sed '/^```/d')
if [ -n "$want" ] && [ "$want" == "$got" ]; then ok; else
    bad "README synopsis differs from the --help texts (make readme rewrites it):"
    diff <(echo "$want") <(echo "$got") | head -n 20
fi
cmds=$("$bin" help | awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{exit}')
[ -n "$cmds" ] && ok || bad "pgnkit help lists no command"
for c in $cmds; do
    [ "$c" = help ] && continue
    grep -q "^\*$c\*" man/pgnkit.1.scd && ok || bad "man page: no entry for the command $c"
    for o in $("$bin" "$c" --help | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u); do
        [ "$o" = --help ] && continue
        if grep -qF -- "*$o*" man/pgnkit.1.scd; then ok; else bad "man page: $c's option $o is not described"; fi
    done
done
# every exit status the program documents has its entry
for s in 0 1 2 3; do grep -q "^\*$s\*$" man/pgnkit.1.scd && ok || bad "man page: exit status $s"; done
echo "RESULT $pass $fail 0"
