#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Random cuts of TWIC files (issue 34): each cut must leave the cut game broken.

Usage: cut_games.py PGNKIT SEED N FILE...  (FILE: plain PGN text whose games each start with
[Event ). For N random byte offsets over the files (seeded: the same cuts for the same seed), the
text from three games before the cut up to the cut is given to `pgnkit check` and to `pgnkit fmt
--rejects`. Where the cut falls inside a game:
  - check reports it (exit 1, an error on the cut game) and fmt rejects it: the rejects hold its
    bytes up to the cut, the output holds the games before it written whole, as fmt writes them
    from the whole file;
  - except two cuts that leave a whole text, counted apart: a game of tags alone ending at the
    end of a tag pair (lichess exports such games, the last one of a file without a line break
    after it: corpus edge/lichess-export/scalachess-uzchesscup.pgn), and a movetext whole but for
    its marker after a mate (the game is whole: fmt writes it as from the whole file).
Where the cut falls between games, nothing is rejected. Prints one line per failure and
"cuts N: inside movetext M, inside tags T, tags only K, after mate A, between games B, failed F".
Exit status 0 when none failed."""
import random
import re
import subprocess
import sys
import tempfile
import os


def games_of(text):
    starts = [m.start() for m in re.finditer(rb"(?m)^\[Event ", text)]
    return starts + [len(text)]


def run(args, data):
    p = subprocess.run(args, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr


def main():
    pgnkit, seed, n, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    rnd = random.Random(seed)
    texts = [open(f, "rb").read() for f in files]
    whole = []  # per file, fmt's export of each game from the whole file
    for t in texts:
        st, out, _ = run([pgnkit, "fmt", "-"], t)
        whole.append([g for g in re.split(rb"(?m)^(?=\[Event )", out) if g])
    counts = dict(movetext=0, tags=0, tags_only=0, mate=0, between=0, failed=0)
    tmp = tempfile.mkdtemp()
    rej = os.path.join(tmp, "rejects.pgn")
    for i in range(n):
        fi = rnd.randrange(len(texts))
        text, starts = texts[fi], games_of(texts[fi])
        cut = rnd.randrange(1, len(text))
        k = max(j for j in range(len(starts) - 1) if starts[j] < cut)  # the game cut
        first = max(0, k - 3)
        data = text[starts[first]:cut]
        game = text[starts[k]:cut]
        body = text[starts[k]:starts[k + 1]].rstrip()
        name = "%s@%d (game %d)" % (os.path.basename(files[fi]), cut, k + 1)
        st_check, _, err = run([pgnkit, "check", "-"], data)
        st_fmt, out, _ = run([pgnkit, "fmt", "--rejects", rej, "-"], data)
        rejected = open(rej, "rb").read() if os.path.exists(rej) else b""
        before = b"".join(whole[fi][first:k])
        head, _, moves = game.partition(b"\n\n")
        if cut >= starts[k] + len(body):
            kind, want_rejected = "between", False
        elif not moves.strip() and game.rstrip().endswith(b"]"):
            kind, want_rejected = "tags_only", False
        elif re.search(rb"#\s*$", game) and not re.search(rb"[{(;]", moves):
            kind, want_rejected = "mate", False
        else:
            kind, want_rejected = ("movetext" if moves.strip() else "tags"), True
        counts[kind] += 1
        problems = []
        if want_rejected:
            if st_check != 1 or b"(game %d)" % (k - first + 1) not in err or b"error" not in err:
                problems.append("check exit %d without an error on the cut game" % st_check)
            if st_fmt != 1 or rejected != game:
                problems.append("fmt exit %d, rejects %d bytes, not the cut game's %d" %
                                (st_fmt, len(rejected), len(game)))
            if out != before:
                problems.append("fmt output is not the %d games before the cut" % (k - first))
        else:
            if rejected:
                problems.append("a whole text (%s) rejected" % kind)
            if kind in ("between", "mate") and out != b"".join(whole[fi][first:k + 1]):
                problems.append("fmt output is not the games as from the whole file")
        if problems:
            counts["failed"] += 1
            print("FAIL cut %s: %s" % (name, "; ".join(problems)))
            print("     ends: %r" % game[-60:])
        if os.path.exists(rej):
            os.remove(rej)
    os.rmdir(tmp)
    print("cuts %d: inside movetext %d, inside tags %d, tags only %d, after mate %d, "
          "between games %d, failed %d" % (n, counts["movetext"], counts["tags"],
                                           counts["tags_only"], counts["mate"], counts["between"],
                                           counts["failed"]))
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
