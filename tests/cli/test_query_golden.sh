#!/usr/bin/env bash
# Golden comparisons of `pgnkit select` (issue 13, docs/query.md "Against pgn-extract"): each
# pgn-extract selection criterion beside its pgnkit expression, run by both tools on the
# pgn-extract test suite's infiles and on corpus files; the selected games' ordinals must be
# equal. Where Debian's pgn-extract 19.04 lacks a criterion or errs, the test suite's own outfiles
# (a newer pgn-extract) are the oracle. Prints "RESULT passed failed skipped".
set -u
bin=${PGNKIT_BIN:-build/pgnkit}
shared=${PGNKIT_SHARED:-../shared}
pe=/usr/games/pgn-extract
in=$shared/corpus/expected/pgn-extract/infiles
outf=$shared/corpus/expected/pgn-extract/outfiles
tmp=${TMPDIR:-/tmp}/pgnkit-qgold.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
if [ ! -x "$pe" ]; then
    echo "pgn-extract is missing at $pe (apt-get install pgn-extract): the suite cannot run"
    echo "RESULT 0 1 0"
    exit 1
fi
# A copy of the file in export format with an [Ord "N"] tag in each game, so that both tools'
# outputs name the games by their ordinals.
number() {
    case $1 in *.gz) zcat "$1" ;; *) cat "$1" ;; esac | "$bin" fmt 2>/dev/null |
        awk '/^\[Event /{n++; print; print "[Ord \"" n "\"]"; next} {print}' > "$2"
}
ords() { grep -o '^\[Ord "[0-9]*"' | grep -o '[0-9]*' | tr '\n' ' '; }
verdict() { # name, expected ordinals, actual ordinals
    if [ "$2" == "$3" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $1"
        echo "  pgn-extract: [$2]"
        echo "  pgnkit:      [$3]"
    fi
}
live() { # file, pgnkit expression, pgn-extract arguments...
    local file=$1 expr=$2
    shift 2
    number "$file" "$tmp/n.pgn"
    local a b
    a=$("$pe" --quiet "$@" "$tmp/n.pgn" 2>/dev/null | ords)
    b=$("$bin" select -q "$expr" "$tmp/n.pgn" 2>/dev/null | ords)
    [ -n "$a$b" ] || echo "note: no game selected by $* on $(basename "$file")"
    verdict "$(basename "$file"): pgn-extract $* = select '$expr'" "$a" "$b"
}
# The games of a pgn-extract outfile, by White|Black|Date|Round, against pgnkit's selection.
keys() { awk -F'"' '/^\[White /{w=$2} /^\[Black /{b=$2} /^\[Date /{d=$2} /^\[Round /{r=$2}
                    /^$/{if (w != "") print w "|" b "|" d "|" r; w=""} END{if (w != "") print w "|" b "|" d "|" r}' | sort; }
oracle() { # infile, outfile, pgnkit expression
    local a b
    a=$(keys < "$outf/$2" | tr '\n' ';')
    b=$("$bin" select -q "$3" "$in/$1" 2>/dev/null | keys | tr '\n' ';')
    verdict "$1: pgn-extract outfile $2 = select '$3'" "$a" "$b"
}

fischer=$in/fischer.pgn
live "$fischer" 'player ~ "^Petrosian"' -TpPetrosian
live "$fischer" 'white ~ "^Fischer"' -TwFischer
live "$fischer" 'black ~ "^Petrosian"' -TbPetrosian
live "$fischer" 'Date = 1970' -Td1970
live "$fischer" 'Date = 1960 or Date = 1962' -Td1960 -Td1962
live "$fischer" 'result = "0-1"' -Tr0-1
live "$fischer" 'moves >= 45' -bl45
live "$fischer" 'moves <= 45' -bu45
live "$fischer" 'moves = 30' -b30
live "$fischer" 'plies >= 90' -pl90
live "$fischer" 'plies <= 90' -pu90
live "$fischer" 'plies = 60' -p60
live "$in/test-t.pgn" 'white ~ "^Fischer" and black ~ "^Petrosian" and Date = 1970' "-t$in/taglist.txt"
live "$fischer" "$(sed -n 's/^FEN \(".*"\)$/fen \1/p' "$in/test-tFEN.txt" | paste -sd'|' | sed 's/|/ or /g')" "-t$in/test-tFEN.txt"
live "$in/test-checkmate.pgn" 'ends = checkmate' --checkmate
live "$in/test-stalemate.pgn" 'ends = stalemate' --stalemate
live "$in/test-fifty.pgn" 'fifty' --fifty
live "$in/najdorf.pgn" "opening \"$(cat "$in/xvars.txt")\"" "-x$in/xvars.txt"
live "$in/test-matchplylimit.pgn" 'hash 0xdb55d4fcaadc775e' -Hdb55d4fcaadc775e
live "$in/test-promotion-in.pgn" 'underpromotion' --underpromotion
live "$in/bots.pgn" 'TimeControl >= 180 and WhiteElo >= 800 and WhiteElo <= 899 and BlackElo >= 800 and BlackElo <= 899 and BlackTitle != BOT and WhiteTitle != BOT' "-t$in/reltags.txt"
# the same criteria on real collections
players=$shared/corpus/big/pgnmentor-players
echo "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6" > "$tmp/x.txt"
live "$players/Fischer.pgn.gz" 'player ~ "^Spassky"' -TpSpassky
live "$players/Fischer.pgn.gz" 'plies <= 40' -pu40
live "$players/Fischer.pgn.gz" 'ends = checkmate' --checkmate
live "$players/Fischer.pgn.gz" 'eco ~ "^B9"' -TeB9
live "$players/Fischer.pgn.gz" 'pattern "*/*/*/*/3pP3/*/*/*"' '-Tf*/*/*/*/3pP3/*/*/*'
live "$players/Fischer.pgn.gz" 'pattern "*/*/*/???pN???/*/*/*/*"' '-Tf*/*/*/???pN???/*/*/*/*'
live "$players/Fischer.pgn.gz" 'pattern "r1bqkb1r/pppp1ppp/2n2n2/*/*/*/*/*"' '-Tfr1bqkb1r/pppp1ppp/2n2n2/*/*/*/*/*'
live "$players/Fischer.pgn.gz" 'opening "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"' "-x$tmp/x.txt"

live "$players/Capablanca.pgn.gz" 'fifty' --fifty
live "$players/Capablanca.pgn.gz" 'ends = checkmate' --checkmate
# Debian's 19.04 lacks EloDiff and misses repetitions after a double step (docs/query.md):
# the suite's outfiles, from a newer pgn-extract, are the oracle there.
oracle test-seventyfive.pgn test-elodiff-out.pgn 'elo.diff <= 50'
oracle test-repetition.pgn test-repetition-out.pgn 'repetition'
oracle test-checkmate.pgn test-checkmate-out.pgn 'ends = checkmate'
oracle test-stalemate.pgn test-stalemate-out.pgn 'ends = stalemate'
oracle test-fifty.pgn test-fifty-out.pgn 'fifty'
# Material balances, -y and -z (docs/query.md "Material balances"): pgn-extract's stability S
# (default 2) is S + 1 consecutive positions, `persist S+1`; -z tries each colour on its own,
# `persist S+1 (X) or persist S+1 flip (X)`. The test suite's outfiles (a newer pgn-extract)
# are the oracle on fischer.pgn.
bbnn='count(B) = 2 and count(n) = 2 and count(n) - count(N) >= 2 and count(q) = count(Q) and count(r) = count(R) and count(p) = count(P) and count(B) - count(b) >= 2'
oracle fischer.pgn test-y-out.pgn "persist 3 ($bbnn)"
oracle fischer.pgn test-z-out.pgn "persist 3 ($bbnn) or persist 3 flip ($bbnn)"
# Live against 19.04 on promotion-free games, pgnkit reading each game without its last move:
# 19.04 never tests the final position and counts a promotion for the wrong side (both fixed
# upstream in 2022: "Bug fix for material matches where games involve promotion", "failure to
# match the final position"; docs/query.md shows a game of each).
droplast() { # export format without comments, NAGs or variations: each game's last move dropped
    awk 'function flush(   n, t, i, last, out) {
             if (mt == "") return
             n = split(mt, t, /[ \n]+/); last = n - 1
             if (last >= 1 && t[last] !~ /^[0-9]+\.+$/) last--
             if (last >= 1 && t[last] ~ /^[0-9]+\.$/) last--
             out = ""; for (i = 1; i <= last; i++) if (t[i] != "") out = out (out == "" ? "" : " ") t[i]
             print (out == "" ? "" : out " ") t[n]; mt = "" }
         /^\[/ { flush(); print; next }
         /^$/ { if (mt != "") { flush(); print "" } else print; next }
         { mt = mt (mt == "" ? "" : " ") $0 }
         END { flush() }'
}
material() { # file, -y|-z, balance line, pgnkit position group X, persist count
    local base a b e
    base=$(basename "$1" .pgn.gz)
    number "$1" "$tmp/m-all.pgn"
    "$bin" select -q 'not promotion' "$tmp/m-all.pgn" > "$tmp/m-np.pgn" 2>/dev/null
    "$bin" fmt --no-comments --no-variations --no-nags "$tmp/m-np.pgn" 2>/dev/null | droplast > "$tmp/m-cut.pgn"
    echo "$3" > "$tmp/m.txt"
    a=$("$pe" --quiet "$2$tmp/m.txt" "$tmp/m-np.pgn" 2>/dev/null | ords)
    e="persist $5 ($4)"
    [ "$2" = -z ] && e="$e or persist $5 flip ($4)"
    b=$("$bin" select -q "$e" "$tmp/m-cut.pgn" 2>/dev/null | ords)
    [ -n "$a$b" ] || echo "note: no game selected by $2 '$3' on $base"
    verdict "$base: pgn-extract $2 '$3' = select '$e'" "$a" "$b"
}
rp='count(R) >= 1 and count(P) >= 1 and count(r) = count(R) and count(p) != count(P) and count(QBNqbn) = 0'
for f in "$players/Fischer.pgn.gz" "$players/Capablanca.pgn.gz"; do
    material "$f" -z 'R+P+ R=P#' "$rp" 3
    material "$f" -y 'R+P+ R=P#' "$rp" 3
    material "$f" -z 'r2p* r=p1>=' 'count(R) = 2 and count(r) = count(R) and count(p) - count(P) = 1 and count(QBNqbn) = 0' 3
    material "$f" -z 'q*r+n*b*p+ q=r<n>b>p1<' 'count(R) >= 1 and count(P) >= 1 and count(q) = count(Q) and count(R) - count(r) >= 1 and count(n) - count(N) >= 1 and count(b) - count(B) >= 1 and count(P) - count(p) >= 1' 3
    material "$f" -z 'q*r+l*p+ q=r1<=l2>=p1<' 'count(R) >= 1 and count(P) >= 1 and count(q) = count(Q) and count(R) - count(r) = 1 and count(bn) - count(BN) = 2 and count(P) - count(p) >= 1' 3
    material "$f" -z '10 R2P+ R=P*' 'count(R) = 2 and count(P) >= 1 and count(r) = count(R) and count(QBNqbn) = 0' 11
    material "$f" -z '0 R RP' 'count(R) = 1 and count(QBNP) = 0 and count(r) = 1 and count(p) = 1 and count(qbn) = 0' 1
done
echo "RESULT $pass $fail 0"
[ "$fail" -eq 0 ]
