#!/usr/bin/env bash
# Fails when the project's text names a work label instead of a commit, date, version or issue
# (issue 31 point 5): "stop N" (or "stop-N"), a branch name used as a label ("branch `x`", "integrate <hash>").
# Checks every file git tracks (every file of DIR outside a git tree: an unpacked archive), but this
# one (which spells the patterns).
# Usage: tools/check-labels.sh [DIR]   (DIR: a tree to check, default the repository)
#        tools/check-labels.sh --self-test   (the check must fail on a planted label)
set -u
pattern='stop[ -][0-9]+|branch `[A-Za-z0-9_-]+`|integrate [0-9a-f]{7}'
scan() { # dir: prints the hits, returns 0 when there is none
    local hits
    if git -C "$1" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        hits=$(cd "$1" && git ls-files -z | grep -zv '^tools/check-labels.sh$' |
            xargs -0 grep -InHiE "$pattern" -- 2>/dev/null)
    else
        hits=$(grep -rInHiE --exclude=check-labels.sh "$pattern" "$1" 2>/dev/null)
    fi
    [ -z "$hits" ] && return 0
    printf 'check-labels: cite a commit, date, version or issue instead:\n%s\n' "$hits"
    return 1
}
if [ "${1:-}" = --self-test ]; then
    d=$(mktemp -d) || exit 2
    trap 'rm -rf "$d"' EXIT
    printf 'clean text, commit a9209a3 (2026-12-02), issue 31\n' >"$d/ok.md"
    scan "$d" >/dev/null || { echo "check-labels self-test: clean text refused"; exit 1; }
    for bad in 'as at Stop 27' 'the stop-23 entry' 'on branch `lexer`' 'after integrate a6b804e'; do
        printf 'text %s here\n' "$bad" >"$d/bad.md"
        scan "$d" >/dev/null && { echo "check-labels self-test: missed '$bad'"; exit 1; }
    done
    echo "check-labels self-test: ok"
    exit 0
fi
scan "${1:-.}"
