#!/usr/bin/env bash
# Fails when the files of cli/ call each other in a circle (issue 29 point 6: driver.c, reading.c
# and where.c did): file A depends on file B when A's object uses a symbol B's object defines
# (nm: undefined in A, defined and global in B); a circle is a set of two files or more each of
# which reaches every other. The objects are read, not the sources, so every call counts, also
# one made through a macro. Each circle allowed below names its reason.
# Usage: tools/check-circles.sh OBJECT...   (the objects of one program: build/rel/cli/*.o)
#        tools/check-circles.sh --self-test   (two objects calling each other must fail)
set -u
# Allowed circles, the files' base names sorted and joined by spaces between bars ("|a b|"), each
# with its reason in a comment here:
#   (none)
allowed=""

check() {
    { # nm -A: "FILE:ADDRESS TYPE NAME" (defined), "FILE: U NAME" (undefined)
        nm -A -g --defined-only "$@" | awk 'NF >= 3 { sub(/:[^:]*$/, "", $1); print "D", $1, $3 }'
        nm -A -u "$@" | awk '{ sub(/:$/, "", $1); print "U", $1, $NF }'
    } | awk -v allowed="$allowed" '
        BEGIN { n = 0 }
        $1 == "D" { def[$3] = $2; if (!($2 in id)) { id[$2] = n; name[n++] = $2 } next }
        { use[$2 SUBSEP $3] = 1; if (!($2 in id)) { id[$2] = n; name[n++] = $2 } }
        END {
            for (k in use) {
                split(k, p, SUBSEP)
                if ((p[2] in def) && def[p[2]] != p[1]) { r[id[p[1]], id[def[p[2]]]] = 1 }
            }
            for (m = 0; m < n; m++) for (i = 0; i < n; i++) if ((i, m) in r)
                for (j = 0; j < n; j++) if ((m, j) in r) { r[i, j] = 1 }
            bad = 0
            for (i = 0; i < n; i++) {
                if (i in done) { continue }
                list = ""; count = 0
                for (j = 0; j < n; j++) {
                    if (j == i || (((i, j) in r) && ((j, i) in r))) {
                        done[j] = 1
                        b = name[j]; sub(/.*\//, "", b); sub(/\.o$/, "", b)
                        for (k = count++; k > 0 && base[k - 1] > b; k--) { base[k] = base[k - 1] }
                        base[k] = b
                        list = list " " name[j]
                    }
                }
                if (count < 2) { continue }
                key = base[0]; for (k = 1; k < count; k++) { key = key " " base[k] }
                if (index(allowed, "|" key "|") == 0) {
                    print "check-circles: these files call each other in a circle:" list; bad = 1
                }
            }
            exit bad
        }'
}

self_test() {
    local tmp
    tmp=$(mktemp -d) || return 2
    trap 'rm -rf "$tmp"' RETURN
    printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' >"$tmp/a.c"
    printf 'int a(int);\nint b(int x) { return x ? a(x - 1) : 1; }\n' >"$tmp/b.c"
    printf 'int a(int);\nint c(void) { return a(3); }\n' >"$tmp/c.c"
    for f in a b c; do
        ${CC:-cc} -c -o "$tmp/$f.o" "$tmp/$f.c" || return 2
    done
    if (check "$tmp/a.o" "$tmp/c.o" >/dev/null) &&
        ! (check "$tmp/a.o" "$tmp/b.o" "$tmp/c.o" >/dev/null); then
        echo "check-circles self-test: a circle caught, a line of calls passed"
        return 0
    fi
    echo "check-circles self-test: failed"
    return 1
}

if [ "${1:-}" = --self-test ]; then
    self_test
else
    check "$@"
fi
