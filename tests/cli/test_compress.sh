#!/usr/bin/env bash
# Compressed inputs and outputs (issue 16): files of the corpus (gzip -9 as published), recompressed
# here with the real tools (zstd, a multi-frame zstd with a leading skippable frame as pzstd and the
# lichess files have, bzip2, xz), must give the same games, the same diagnostics (naming the file
# as given) and the same output as their plain text; truncated and corrupted copies give the
# documented message (file, format, byte offset), keep the games before, exit 3 and never crash.
# A few files in make check, every file of corpus/big in make check-slow (PGNKIT_SLOW=1).
# Prints "RESULT passed failed skipped".
set -u
bin=$(realpath "${PGNKIT_BIN:-build/pgnkit}")
shared=$(realpath "${PGNKIT_SHARED:-../shared}")
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
for tool in zstd bzip2 xz gzip; do
    if ! command -v $tool >/dev/null; then
        echo "FAIL $tool is missing (tools/deps.sh installs it)"
        echo "RESULT 0 1 0"
        exit 1
    fi
done
if [ ! -d "$shared/corpus/big" ]; then
    echo "FAIL no corpus at $shared/corpus/big (PGNKIT_SHARED)"
    echo "RESULT 0 1 0"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

if [ "${PGNKIT_SLOW:-0}" = 1 ]; then
    mapfile -t files < <(find "$shared/corpus/big" -name '*.pgn.gz' | sort)
else
    # small ones of different kinds: CRLF, CP437/Latin-1 bytes, engine comments, Chess960
    files=("$shared/corpus/big/fics/fics_01_standard_humans_2000_2199.pgn.gz"
        "$shared/corpus/big/pgnmentor-players/Capablanca.pgn.gz"
        "$shared/corpus/big/tcec/TCEC_Cup_10_Final.pgn.gz"
        "$shared/corpus/big/tcec-frc/TCEC_Season_16_-_Frc_Sufi.pgn.gz")
fi

# The multi-frame zstd of plain file $1: a skippable frame, then one frame per 64 kB piece (the
# pieces cut games anywhere, as pzstd does).
multiframe() {
    printf 'P*M\030\010\000\000\000skipme!!'
    split -b 65536 "$1" piece.
    for p in piece.*; do zstd -q -c "$p"; done
    rm -f piece.*
}
# Flips 64 bytes in the middle of $1 into $2; prints the offset of the first one.
corrupt() {
    local n; n=$(stat -c %s "$1")
    local mid=$((n / 2))
    cp "$1" "$2"
    head -c 64 /dev/zero | tr '\0' '\125' | dd of="$2" bs=1 seek=$mid conv=notrunc status=none
    printf '%s' "$mid"
}
# Status of a run: 3 expected; 1 or 0 (a silent success) and anything else (a crash) are not.
for f in "${files[@]}"; do
    base=$(basename "$f" .pgn.gz)
    zcat "$f" >"$base.pgn"
    "$bin" check "$base.pgn" >/dev/null 2>ref.check
    ref_status=$?
    "$bin" fmt "$base.pgn" >ref.fmt 2>/dev/null
    "$bin" convert --to uci "$base.pgn" >ref.uci 2>/dev/null
    games=$(tail -n 1 ref.check | cut -d' ' -f1)
    cp "$f" "$base.gz"
    zstd -q -c "$base.pgn" >"$base.zst"
    multiframe "$base.pgn" >"$base.mf.zst"
    bzip2 -c "$base.pgn" >"$base.bz2"
    xz -T1 -c "$base.pgn" >"$base.xz"
    for v in "$base.gz" "$base.zst" "$base.mf.zst" "$base.bz2" "$base.xz"; do
        fmtname=${v##*.}
        case $fmtname in gz) fmtname=gzip ;; zst) fmtname=zstd ;; bz2) fmtname=bzip2 ;; esac
        # bzip2 decodes 900 kB blocks whole, and zstd blocks of a frame of known size can be
        # large too: a small file cut there may give no game at all (the zstd program gives no byte)
        min_games=1
        case $v in *.bz2 | *[^f].zst) min_games=0 ;; esac
        # same diagnostics, naming the compressed file; same exit status
        "$bin" check "$v" >/dev/null 2>got.check
        st=$?
        if [ $st -eq $ref_status ] && diff -q <(sed "s|^$base\.pgn:|$v:|" ref.check) got.check >/dev/null; then ok; else
            bad "check $v: status $st (want $ref_status)"; diff <(sed "s|^$base\.pgn:|$v:|" ref.check) got.check | head -n 5
        fi
        # same output, from a file and from stdin
        if "$bin" fmt "$v" 2>/dev/null | cmp -s - ref.fmt; then ok; else bad "fmt $v differs from fmt $base.pgn"; fi
        if "$bin" convert --to uci - <"$v" 2>/dev/null | cmp -s - ref.uci; then ok; else bad "convert --to uci < $v differs"; fi
        # truncated: the documented message with the file's length, the games before, exit 3
        n=$(stat -c %s "$v")
        cut=$((n * 2 / 3 + 7))
        head -c $cut "$v" >"cut.$v"
        "$bin" check "cut.$v" >/dev/null 2>got.cut
        st=$?
        want="pgnkit check: cut.$v: truncated $fmtname data: the file ends at byte $cut"
        got_games=$(tail -n 1 got.cut | cut -d' ' -f1)
        if [ $st -eq 3 ] && grep -qxF "$want" got.cut && [ "$got_games" -ge $min_games ] && [ "$got_games" -lt "$games" ]; then ok; else
            bad "truncated $v: status $st, games $got_games of $games, want '$want'"; tail -n 3 got.cut
        fi
        # the games read before the cut are the first ones of the whole file, written unchanged
        "$bin" fmt "cut.$v" >got.fmt 2>/dev/null
        if cmp -s got.fmt <(head -c "$(stat -c %s got.fmt)" ref.fmt) && { [ -s got.fmt ] || [ $min_games = 0 ]; }; then ok; else bad "fmt of truncated $v is not a prefix of the whole"; fi
        # corrupted: "corrupt FORMAT data at byte N" with N after the damage, exit 3
        at=$(corrupt "$v" "bad.$v")
        "$bin" check "bad.$v" >/dev/null 2>got.bad
        st=$?
        off=$(sed -n "s/^pgnkit check: bad\.$v: corrupt $fmtname data at byte \([0-9]*\): .*/\1/p" got.bad)
        if [ $st -eq 3 ] && [ -n "$off" ] && [ "$off" -ge "$at" ] && [ "$off" -le "$n" ]; then ok; else
            bad "corrupted $v (from byte $at): status $st, offset '$off'"; grep -v ': warning: \|: error: ' got.bad | tail -n 3
        fi
    done
    rm -f "$base".* cut.* bad.*
done

# compressed outputs by the extension of -o: each reads back (with the format's own tool too)
f=${files[0]}
zcat "$f" >in.pgn
"$bin" fmt in.pgn >ref.fmt 2>/dev/null
for ext in gz zst bz2 xz; do
    "$bin" fmt -o "out.pgn.$ext" in.pgn 2>/dev/null
    case $ext in gz) cat=zcat ;; zst) cat=zstdcat ;; bz2) cat=bzcat ;; xz) cat=xzcat ;; esac
    if $cat "out.pgn.$ext" | cmp -s - ref.fmt && "$bin" fmt "out.pgn.$ext" 2>/dev/null | cmp -s - ref.fmt; then ok; else bad "fmt -o out.pgn.$ext"; fi
done
"$bin" convert --to json -o out.json.zst in.pgn 2>/dev/null
if "$bin" convert --from json out.json.zst 2>/dev/null | cmp -s - ref.fmt; then ok; else bad "convert --to json -o x.zst, read back"; fi

# concatenated gzip members and bzip2 streams read as one text
gzip -c in.pgn >a.gz
cat a.gz a.gz >two.gz
if "$bin" fmt two.gz 2>/dev/null | cmp -s - <(cat ref.fmt ref.fmt); then ok; else bad "two gzip members"; fi
bzip2 -c in.pgn >a.bz2
cat a.bz2 a.bz2 >two.bz2
if "$bin" fmt two.bz2 2>/dev/null | cmp -s - <(cat ref.fmt ref.fmt); then ok; else bad "two bzip2 streams"; fi
# a long zstd window (zstd --long=30)
zstd -q --long=30 -c in.pgn >long.zst
if "$bin" fmt long.zst 2>/dev/null | cmp -s - ref.fmt; then ok; else bad "zstd --long=30"; fi
# data after the end of a gzip stream that is not another member
(cat a.gz; printf 'junk') >trail.gz
"$bin" check trail.gz >/dev/null 2>got.err
st=$?
if [ $st -eq 3 ] && grep -q "^pgnkit check: trail.gz: data that is not gzip after the gzip stream, at byte $(stat -c %s a.gz)\$" got.err; then ok; else bad "trailing junk: status $st: $(cat got.err)"; fi

# refused inputs: one clear line, exit 3, nothing read
expect_refused() { # name, regex, file
    "$bin" check "$3" >/dev/null 2>got.err
    local st=$?
    if [ $st -eq 3 ] && grep -qE "$2" got.err; then ok; else bad "$1: status $st: $(cat got.err)"; fi
}
# (archives: zip, tar, a compressed tar and 7z are read, test_archive.sh; lz4 is refused there)
gzip -c a.gz >twice.gz
expect_refused "gzip twice" "^pgnkit check: twice.gz: gzip data inside gzip data \(compressed twice\)" twice.gz
zstd -q -c a.gz >gz.zst
expect_refused "gzip in zstd" "^pgnkit check: gz.zst: gzip data inside zstd data \(compressed twice\)" gz.zst
# the format comes from the bytes, never the name
cp a.gz plain-named.pgn
if "$bin" fmt plain-named.pgn 2>/dev/null | cmp -s - ref.fmt; then ok; else bad "gzip named .pgn"; fi
cp in.pgn text-named.gz
if "$bin" fmt text-named.gz 2>/dev/null | cmp -s - ref.fmt; then ok; else bad "text named .gz"; fi

echo "RESULT $pass $fail $skip"
[ $fail -eq 0 ]
