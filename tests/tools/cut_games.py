#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Random cuts of TWIC files (issue 34): each cut must leave the cut game broken.

Usage: cut_games.py PGNKIT SEED N FILE...  (FILE: plain PGN text whose games each start with
[Event ). For N random byte offsets over the files (seeded: the same cuts for the same seed), the
text from three games before the cut up to the cut is one input of `pgnkit check` and of `pgnkit
fmt --rejects`. Where the cut falls inside a game:
  - check reports it (an error on the cut game of that input) and fmt rejects it: the rejects hold
    its bytes up to the cut, the output holds the games before it written whole, as fmt writes
    them from the whole file;
  - except two cuts that leave a whole text, counted apart: a game of tags alone ending at the
    end of a tag pair (lichess exports such games, the last one of a file without a line break
    after it: corpus edge/lichess-export/scalachess-uzchesscup.pgn), and a movetext whole but for
    its marker after a mate (the game is whole: fmt writes it as from the whole file).
Where the cut falls between games, nothing is rejected.
The cuts are given to one check and one fmt run as many inputs (each input is read by a reader
of its own, to its own end): the rejects and the output must be the concatenations of what each
cut must give. Should they differ, each cut is run alone, with check's exit status too, to name
the ones that fail. (A game of tags alone has no known export: those cuts run alone.) Prints one
line per failure and "cuts N: inside movetext M, inside tags T, tags only K, after mate A,
between games B, failed F". Exit status 0 when none failed."""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile


def games_of(text):
    starts = [m.start() for m in re.finditer(rb"(?m)^\[Event ", text)]
    return starts + [len(text)]


def run(args, data=None):
    p = subprocess.run(args, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr


def classify(text, starts, cut):
    """The cut: (k, first, data, game, kind, want_rejected)."""
    k = max(j for j in range(len(starts) - 1) if starts[j] < cut)  # the game cut
    first = max(0, k - 3)
    game = text[starts[k]:cut]
    body = text[starts[k]:starts[k + 1]].rstrip()
    head, _, moves = game.partition(b"\n\n")
    if cut >= starts[k] + len(body):
        kind, want = "between", False
    elif not moves.strip() and game.rstrip().endswith(b"]"):
        kind, want = "tags_only", False
    elif re.search(rb"#\s*$", game) and not re.search(rb"[{(;]", moves):
        kind, want = "mate", False
    else:
        kind, want = ("movetext" if moves.strip() else "tags"), True
    return k, first, text[starts[first]:cut], game, kind, want


def expected(c, whole):
    """What fmt must write for cut c (None: not known, a game of tags alone) and reject."""
    w = whole[c["file"]]
    if c["want"]:
        return b"".join(w[c["first"]:c["k"]]), c["game"]
    if c["kind"] in ("between", "mate"):
        return b"".join(w[c["first"]:c["k"] + 1]), b""
    return None, b""


def alone(pgnkit, c, whole, tmp):
    """The old way: cut c through check and fmt alone. A list of problems."""
    rej = os.path.join(tmp, "alone-rejects.pgn")
    if os.path.exists(rej):
        os.remove(rej)
    st_check, _, err = run([pgnkit, "check", "-"], c["data"])
    st_fmt, out, _ = run([pgnkit, "fmt", "--rejects", rej, "-"], c["data"])
    rejected = open(rej, "rb").read() if os.path.exists(rej) else b""
    want_out, _ = expected(c, whole)
    problems = []
    if c["want"]:
        if st_check != 1 or b"(game %d)" % (c["k"] - c["first"] + 1) not in err or \
                b"error" not in err:
            problems.append("check exit %d without an error on the cut game" % st_check)
        if st_fmt != 1 or rejected != c["game"]:
            problems.append("fmt exit %d, rejects %d bytes, not the cut game's %d" %
                            (st_fmt, len(rejected), len(c["game"])))
        if out != want_out:
            problems.append("fmt output is not the %d games before the cut" %
                            (c["k"] - c["first"]))
    else:
        if rejected:
            problems.append("a whole text (%s) rejected" % c["kind"])
        if want_out is not None and out != want_out:
            problems.append("fmt output is not the games as from the whole file")
    return problems


def batch(pgnkit, cuts, whole, tmp):
    """All the cuts of known output through one check and one fmt: True when all hold."""
    paths = [c["path"] for c in cuts]
    _, _, err = run([pgnkit, "check", "--diag", "json"] + paths)
    errors = set()
    for line in err.splitlines():
        d = json.loads(line)
        if d.get("severity") == "error":
            errors.add((d["file"], d["game"]))
    if any(c["want"] and (c["path"], c["k"] - c["first"] + 1) not in errors for c in cuts):
        return False
    rej = os.path.join(tmp, "rejects.pgn")
    st, out, _ = run([pgnkit, "fmt", "--rejects", rej] + paths)
    rejected = open(rej, "rb").read() if os.path.exists(rej) else b""
    want_out = b"".join(expected(c, whole)[0] for c in cuts)
    want_rej = b"".join(expected(c, whole)[1] for c in cuts)
    want_st = 1 if any(c["want"] for c in cuts) else 0
    return st == want_st and out == want_out and rejected == want_rej


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
    cuts = []
    for i in range(n):
        fi = rnd.randrange(len(texts))
        text, starts = texts[fi], games_of(texts[fi])
        cut = rnd.randrange(1, len(text))
        k, first, data, game, kind, want = classify(text, starts, cut)
        counts[kind] += 1
        path = os.path.join(tmp, "cut%03d.pgn" % i)
        with open(path, "wb") as f:
            f.write(data)
        cuts.append(dict(file=fi, k=k, first=first, data=data, game=game, kind=kind, want=want,
                         path=path, name="%s@%d (game %d)" % (os.path.basename(files[fi]), cut,
                                                              k + 1)))
    known = [c for c in cuts if expected(c, whole)[0] is not None]
    suspects = [c for c in cuts if c not in known]
    if known and not batch(pgnkit, known, whole, tmp):
        suspects = cuts  # name the ones that fail: each alone
    for c in suspects:
        problems = alone(pgnkit, c, whole, tmp)
        if problems:
            counts["failed"] += 1
            print("FAIL cut %s: %s" % (c["name"], "; ".join(problems)))
            print("     ends: %r" % c["game"][-60:])
    shutil.rmtree(tmp)
    print("cuts %d: inside movetext %d, inside tags %d, tags only %d, after mate %d, "
          "between games %d, failed %d, run alone %d" % (
              n, counts["movetext"], counts["tags"], counts["tags_only"], counts["mate"],
              counts["between"], counts["failed"], len(suspects)))
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
