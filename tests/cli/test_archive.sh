#!/usr/bin/env bash
# Archives as inputs (libarchive): zip (deflated and stored, read from a file and from a pipe),
# tar (plain, and inside gzip, zstd, bzip2 and xz) and 7z hold corpus files; each gives exactly
# the games, output and diagnostics of the plain files, its members named "archive(member)" with
# their own lines, at -j 1 and -j 2; only members named *.pgn are read (*.json for convert --from
# json); damaged, encrypted and pgn-less archives, a 7z from a pipe and --range get one message
# and exit 3, keeping the games of the members before. Prints "RESULT passed failed skipped".
set -u
bin=$(realpath "${PGNKIT_BIN:-build/pgnkit}")
shared=$(realpath "${PGNKIT_SHARED:-../shared}")
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
for tool in zstd bzip2 xz gzip bsdtar /usr/bin/python3; do
    if ! command -v $tool >/dev/null; then
        echo "FAIL $tool is missing (tools/deps.sh installs it)"
        echo "RESULT 0 1 0"
        exit 1
    fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
printf 'PK\005\006%018d' 0 | tr 0 '\000' >empty.zip # an empty zip: its end record alone
if "$bin" check empty.zip 2>&1 | grep -q "when built with libarchive"; then
    echo "FAIL $bin was built without libarchive (tools/deps.sh installs libarchive-dev)"
    echo "RESULT 0 1 0"
    exit 1
fi
# libarchive is opened when an archive comes, not linked: no command pays for loading it
if ldd "$bin" | grep -q libarchive; then bad "pgnkit links libarchive"; else ok; fi

# two members with diagnostics (CP437 bytes, broken games) and a clean one
zcat "$shared/corpus/big/pgnmentor-players/Capablanca.pgn.gz" >capa.pgn
cp "$shared/corpus/edge/malformed/chesslab-games-01-with-three-invalid.pgn" broken.pgn
zcat "$shared/corpus/big/tcec/TCEC_Cup_10_Final.pgn.gz" >tcec.pgn
members=(capa.pgn broken.pgn tcec.pgn)
echo "not a game" >readme.txt
mkdir -p sub && cp tcec.pgn sub/Upper.PGN

# the truth: the plain files, read one after another
"$bin" fmt "${members[@]}" >ref.fmt 2>ref.err
ref_st=$?
[ -s ref.fmt ] && grep -q "broken.pgn:" ref.err && ok || bad "no reference output"

# $1: the archive's name. Diagnostics of the plain files with each name turned into ARCHIVE(name).
expected_err() {
    sed -e "s#^capa\.pgn:#$1(capa.pgn):#" -e "s#^broken\.pgn:#$1(broken.pgn):#" \
        -e "s#^tcec\.pgn:#$1(tcec.pgn):#" ref.err
}
# name, archive, [pgnkit input argument]: fmt at -j 1 and -j 2 equals the plain files'
same_as_plain() {
    local name=$1 arc=$2 arg=${3:-$2} j
    for j in 1 2; do
        if [ "$arg" = - ]; then
            cat "$arc" | "$bin" fmt -j $j - >got.fmt 2>got.err # a pipe: no seeking
        else
            "$bin" fmt -j $j "$arg" >got.fmt 2>got.err
        fi
        local st=$?
        local label=$arc
        [ "$arg" = - ] && label="<stdin>"
        if [ $st -eq $ref_st ] && cmp -s got.fmt ref.fmt && cmp -s got.err <(expected_err "$label"); then
            ok
        else
            bad "$name -j $j: status $st/$ref_st, $(cmp got.fmt ref.fmt 2>&1 | head -1) $(diff <(expected_err "$label") got.err | head -3)"
        fi
    done
}

/usr/bin/python3 - <<'EOF'
import zipfile
with zipfile.ZipFile('deflated.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    for n in ('capa.pgn', 'readme.txt', 'broken.pgn', 'tcec.pgn'):
        z.write(n)
with zipfile.ZipFile('stored.zip', 'w', zipfile.ZIP_STORED) as z:
    for n in ('capa.pgn', 'broken.pgn', 'tcec.pgn'):
        z.write(n)
# written to a pipe: no sizes in the local headers (data descriptors), as zip - or a web server
# streaming a zip writes them
class Pipe:
    def __init__(self, f): self.f = f
    def write(self, b): return self.f.write(b)
    def flush(self): self.f.flush()
with open('streamed.zip', 'wb') as raw:
    with zipfile.ZipFile(Pipe(raw), 'w', zipfile.ZIP_DEFLATED) as z:
        for n in ('capa.pgn', 'broken.pgn', 'tcec.pgn'):
            with open(n, 'rb') as src, z.open(n, 'w') as dst:
                dst.write(src.read())
EOF
same_as_plain "zip (deflated), readme.txt skipped" deflated.zip
same_as_plain "zip (stored)" stored.zip
same_as_plain "zip from a pipe" deflated.zip -
same_as_plain "zip with data descriptors" streamed.zip
same_as_plain "zip with data descriptors, from a pipe" streamed.zip -
tar cf plain.tar "${members[@]}" readme.txt
same_as_plain "tar" plain.tar
same_as_plain "tar from a pipe" plain.tar -
tar czf t.tgz "${members[@]}"
same_as_plain "tar.gz" t.tgz
same_as_plain "tar.gz from a pipe" t.tgz -
tar cf - "${members[@]}" | zstd -q >t.tar.zst
same_as_plain "tar.zst" t.tar.zst
tar cjf t.tbz "${members[@]}"
same_as_plain "tar.bz2" t.tbz
tar cJf t.txz "${members[@]}"
same_as_plain "tar.xz" t.txz
bsdtar --format 7zip -cf t.7z "${members[@]}"
same_as_plain "7z" t.7z

# check counts every member's games once; other commands read archives through the same driver
n_plain=$("$bin" check "${members[@]}" 2>&1 | tail -1)
n_zip=$("$bin" check deflated.zip 2>&1 | tail -1)
[ "$n_plain" = "$n_zip" ] && ok || bad "check: '$n_zip' against '$n_plain'"
a=$("$bin" select --where 'White ~ "Capablanca"' "${members[@]}" 2>/dev/null | md5sum)
b=$("$bin" select --where 'White ~ "Capablanca"' deflated.zip 2>/dev/null | md5sum)
[ "$a" = "$b" ] && ok || bad "select --where on a zip"
# select --offsets names the member, whose bytes its offset and length are
"$bin" select --offsets 'White ~ "Capablanca"' deflated.zip >off.json 2>/dev/null
o=$(head -1 off.json | sed 's/.*"offset":\([0-9]*\).*/\1/')
l=$(head -1 off.json | sed 's/.*"length":\([0-9]*\).*/\1/')
first=$("$bin" select 'White ~ "Capablanca"' capa.pgn 2>/dev/null | awk 'NR > 1 && /^\[Event /{exit} {print}' | md5sum)
if grep -q '"file":"deflated.zip(capa.pgn)"' off.json &&
    [ "$(tail -c +$((o + 1)) capa.pgn | head -c "$l" | md5sum)" = "$first" ]; then
    ok
else
    bad "select --offsets on a zip: $(head -1 off.json)"
fi

# a member's name in any case, in a folder; a folder entry is not a member to read
/usr/bin/python3 -c "
import zipfile
with zipfile.ZipFile('upper.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('sub/', '')
    z.write('sub/Upper.PGN')
"
"$bin" fmt upper.zip >got.fmt 2>got.err
st=$?
"$bin" fmt tcec.pgn >tcec.fmt 2>/dev/null
if [ $st -eq 0 ] && cmp -s got.fmt tcec.fmt && ! grep -q "sub/:" got.err; then ok; else bad "upper-case .PGN in a folder: $st $(head -2 got.err)"; fi

# JSON in an archive, for convert --from json
"$bin" convert --to json tcec.pgn >games.json 2>/dev/null
/usr/bin/python3 -c "
import zipfile
with zipfile.ZipFile('json.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    z.write('games.json'); z.write('tcec.pgn')
"
"$bin" convert --from json games.json >a.pgn 2>/dev/null
"$bin" convert --from json json.zip >b.pgn 2>/dev/null
st=$?
[ $st -eq 0 ] && [ -s a.pgn ] && cmp -s a.pgn b.pgn && ok || bad "convert --from json on a zip: status $st"

# failures: one line naming the archive (or member), exit 3, the members before kept
expect_fail() { # name, regex, [games expected in the summary], pgnkit arguments...
    local name=$1 re=$2 games=$3
    shift 3
    "$bin" check "$@" >/dev/null 2>got.err
    local st=$?
    if [ $st -eq 3 ] && grep -qE "$re" got.err && tail -1 got.err | grep -q "^$games games"; then
        ok
    else
        bad "$name: status $st: $(grep -v '^[^ ]*:[0-9]*:[0-9]*: ' got.err | head -3)"
    fi
}
/usr/bin/python3 -c "
import zipfile
with zipfile.ZipFile('nopgn.zip', 'w') as z:
    z.write('readme.txt'); z.writestr('notes.md', 'x')
"
expect_fail "no .pgn member" "^pgnkit check: nopgn\.zip: no member named \*\.pgn in a zip archive \(it holds readme\.txt, notes\.md\)$" 0 nopgn.zip
# an encrypted member (zip's traditional encryption, written by hand: python writes none)
cap_games=$("$bin" check capa.pgn 2>&1 | tail -1 | cut -d' ' -f1)
cp deflated.zip enc.zip
/usr/bin/python3 - <<'EOF'
import struct
data = bytearray(open('enc.zip', 'rb').read())
# set bit 0 (encrypted) of the general purpose flags of the second .pgn's local and central headers
name = b'broken.pgn'
for sig, off in ((b'PK\x03\x04', 6), (b'PK\x01\x02', 8)):
    i = 0
    while (i := data.find(sig, i)) >= 0:
        nlen = struct.unpack_from('<H', data, i + (26 if sig == b'PK\x03\x04' else 28))[0]
        start = i + (30 if sig == b'PK\x03\x04' else 46)
        if bytes(data[start:start + nlen]) == name:
            data[i + off] |= 1
        i += 4
open('enc.zip', 'wb').write(data)
EOF
expect_fail "encrypted member" "^pgnkit check: enc\.zip\(broken\.pgn\): .*([Pp]assphrase|[Ee]ncrypt)" "[0-9]*" enc.zip
grep -q "games" got.err && [ "$(tail -1 got.err | cut -d' ' -f1)" -ge "$cap_games" ] && ok || bad "encrypted member: the games before are lost"
# cut short: from a file, the central directory is missing; from a pipe, the last member is cut
head -c $(($(stat -c %s stored.zip) * 2 / 3)) stored.zip >cut.zip
expect_fail "cut zip" "^pgnkit check: cut\.zip" "[0-9]*" cut.zip
cat cut.zip | "$bin" check - >/dev/null 2>got.err
st=$?
n=$(tail -1 got.err | cut -d' ' -f1)
[ $st -eq 3 ] && [ "$n" -ge "$cap_games" ] && grep -q "^pgnkit check: <stdin>" got.err && ok || bad "cut zip from a pipe: status $st, $n games"
cat t.7z | "$bin" check - >/dev/null 2>got.err
st=$?
if [ $st -eq 3 ] && grep -q "^pgnkit check: <stdin>: .*give the archive itself" got.err; then ok; else bad "7z from a pipe: $st $(head -1 got.err)"; fi
"$bin" check - <t.7z >/dev/null 2>got.err # stdin that is a file can seek
[ $? -eq "$ref_st" ] && [ "$(tail -1 got.err)" = "$n_plain" ] && ok || bad "7z on stdin from a file: $(tail -1 got.err)"
head -c 2000 t.7z >cut.7z
expect_fail "cut 7z" "^pgnkit check: cut\.7z: " 0 cut.7z
expect_fail "an empty zip" "^pgnkit check: empty\.zip: no member named \*\.pgn in a zip archive$" 0 empty.zip
expect_fail "--range on a zip" "^pgnkit check: deflated\.zip: --range reads plain files .*not a zip archive" 0 --range 0:1000 deflated.zip
# fmt -i would replace the archive by the text of its members: refused, the archive unchanged
cp deflated.zip inplace.zip
"$bin" fmt -i inplace.zip >/dev/null 2>got.err
st=$?
if [ $st -eq 3 ] && cmp -s inplace.zip deflated.zip && [ "$(ls | grep -c inplace)" = 1 ] &&
    grep -q "^pgnkit fmt: inplace\.zip: -i rewrites a file of games, and this one is a zip archive$" got.err; then
    ok
else
    bad "fmt -i on a zip: status $st $(head -1 got.err)"
fi
# lz4 stays refused (not an archive), and so does an archive inside an archive's compression twice
printf '\004\042\115\030\144\100\247\000\000\000\000' >a.lz4
expect_fail "lz4" "^pgnkit check: a\.lz4: lz4 data: .*lz4cat" 0 a.lz4

echo "RESULT $pass $fail $skip"
[ $fail -eq 0 ]
