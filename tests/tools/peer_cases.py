#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Replays the peers' own test assertions (../shared/corpus/peers/suites/*/cases.json, 2,371
cases from python-chess, chessops, chess.js, scalachess, pgn-extract, @mliebelt/pgn-parser and
Fairy-Stockfish; provenance in their SOURCES.md) against the pgnkit binary (issue 35).

Every case either agrees or is listed in tests/data/peer-differences.tsv with its reason; the run
fails on any other disagreement, and on a listed case that now agrees (the list stays exact).
Usage: peer_cases.py PGNKIT SUITES_DIR DIFFERENCES_TSV [-v] [ID-substring]
Prints "RESULT passed failed skipped" like the C suites (listed differences count as passed).
Only the standard library is used; no peer code is in pgnkit or here.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import sys

BIN = SUITES = None


def run(args, stdin=None):
    p = subprocess.run([BIN] + args, input=stdin, capture_output=True, timeout=600)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def variant_args(c):
    a = []
    if c.get("variant"):
        a += ["--variant", c["variant"]]
    if c.get("chess960"):
        a += ["--chess960"]
    return a


def fen_args(c):
    return ["--fen", c["fen"]] if c.get("fen") else []


VARIANT_TAG = {"racingkings": "Racing Kings", "3check": "Three-check", "antichess": "Antichess",
               "atomic": "Atomic", "horde": "Horde", "crazyhouse": "Crazyhouse",
               "kingofthehill": "King of the Hill"}


def games_json(text, extra=()):
    """The games of a PGN text as pgnkit's JSON (broken games kept), and the error count."""
    rc, out, err = run(["convert", "--to", "json", "--keep-broken", "--quiet"] + list(extra) +
                       ["-"], text.encode("utf-8"))
    m = re.search(r"(\d+) errors", err)
    errors = int(m.group(1)) if m else (1 if rc else 0)
    try:
        games = json.loads(out) if out.strip() else []
    except ValueError:
        games = []
    return games, errors, err


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def start_fen(g):
    return g.get("fen") or g.get("start_fen") or g.get("tags", {}).get("FEN") or START


def norm_pockets(fen, crazyhouse=True):
    """Crazyhouse pockets as sorted letters in brackets: chessops writes PNBRQ order, pgnkit and
    python-chess QRBNP, scalachess a ninth rank (SOURCES.md, Normalisations)."""
    if not isinstance(fen, str):
        return fen
    parts = fen.split(" ")
    board = parts[0]
    m = re.match(r"^(.*)\[([A-Za-z]*)\]$", board)
    if not crazyhouse:
        pass
    elif m:
        board = "%s[%s]" % (m.group(1), "".join(sorted(m.group(2))))
    elif board.count("/") == 8:
        head, _, pocket = board.rpartition("/")
        board = "%s[%s]" % (head, "".join(sorted(pocket)))
    elif board.count("/") == 7 and "[" not in board:
        board += "[]"
    return " ".join([board] + parts[1:])


def strip_marks(san):
    return re.sub(r"[+#!?]+$", "", san or "")


def move_at(line, path):
    """path: list like ['3', 'var', '0', '1']: moves[3].variations[0][1]."""
    node, i = None, 0
    cur = line
    while i < len(path):
        node = cur[int(path[i])]
        i += 1
        if i < len(path) and path[i] == "var":
            if i + 2 > len(path) or not path[i + 1].isdigit():
                return node, path[i:]
            if i + 2 == len(path):
                return node, path[i:]
            cur = node.get("variations", [])[int(path[i + 1])]
            i += 2
        else:
            return node, path[i:]
    return node, []


def comment_text(c):
    if not c:
        return None
    return c.get("text") if isinstance(c, dict) else c


def move_field(mv, rest, before_fen):
    f = rest[0]
    if f == "san":
        return mv.get("san")
    if f == "uci":
        return mv.get("uci")
    if f == "fen":
        return mv.get("fen")
    if f == "sanbare":
        return strip_marks(mv.get("san"))
    if f == "turn":
        return "w" if " b " in mv.get("fen", "") else "b"
    if f == "comment":
        return comment_text(mv.get("comment"))
    if f == "pre_comment":
        return comment_text(mv.get("pre_comment") or mv.get("comment_before"))
    if f == "nags":
        nags = mv.get("nags", [])
        if len(rest) > 1:
            return len(nags) if rest[1] == "len" else (nags[int(rest[1])] if int(rest[1]) < len(nags) else None)
        return nags
    if f == "cmd":
        c = mv.get("comment") or {}
        for cmd in c.get("commands", []) if isinstance(c, dict) else []:
            if cmd.get("name") == rest[1]:
                return cmd.get("args")
        return None
    if f == "var":
        vs = mv.get("variations", [])
        if rest[1] == "len":
            return len(vs)
        return len(vs[int(rest[2 - 1])]) if rest[-1] == "len" else None
    return ("?unknown", rest)


def mainline(g):
    return g.get("moves", [])


def game_value(g, key):
    parts = key.split(".")
    f = parts[0]
    if f == "tags":
        return g.get("tags", {}).get(".".join(parts[1:]))
    if f == "final_fen":
        ml = mainline(g)
        return ml[-1]["fen"] if ml else start_fen(g)
    if f == "start_fen":
        return g.get("fen") or g.get("start_fen") or g.get("tags", {}).get("FEN")
    if f == "san":
        return " ".join(m["san"] for m in mainline(g))
    if f == "uci":
        return " ".join(m["uci"] for m in mainline(g))
    if f == "plies":
        return len(mainline(g))
    if f == "result":
        return g.get("result")
    if f == "comment":
        return comment_text(g.get("comment"))
    if f == "chess960":
        return bool(g.get("chess960"))
    if f == "main":
        path = parts[1:]
        # main.I.var.J.K.field / main.I.var.J.len / main.I.field
        line = mainline(g)
        try:
            while True:
                mv = line[int(path[0])]
                if len(path) > 4 and path[1] == "var" and path[3].isdigit():
                    line = mv.get("variations", [])[int(path[2])]
                    path = path[3:]
                    continue
                if len(path) == 4 and path[1] == "var" and path[3] == "len":
                    return len(mv.get("variations", [])[int(path[2])])
                return move_field(mv, path[1:], None)
        except (IndexError, ValueError, KeyError):
            return None
    return ("?unknown", key)


def norm_ws(s):
    return re.sub(r"\s+", " ", s).strip() if isinstance(s, str) else s


def norm_comment(t, c):
    """Comments compared with white-space runs as one space and no space at either end
    (python-chess strips them too); pgn-parser's without their [%...] commands, which it moves
    out of the text while pgnkit keeps them in it (SOURCES.md, Normalisations)."""
    if isinstance(t, dict):
        t = t.get("text")
    if not isinstance(t, str):
        return t
    if c["_suite"] == "pgn-parser":
        t = re.sub(r"\[%[^\]]*\]", " ", t)
    return norm_ws(t)


def chessjs_comments(g):
    """chess.js getComments(): [fen, comment, suffix] for main-line positions with either."""
    out = []
    if g.get("comment"):  # a comment before the first move belongs to the start position
        out.append([start_fen(g), norm_ws(comment_text(g["comment"])), None])
    suffix = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}
    for m in mainline(g):
        c = norm_ws(comment_text(m.get("comment")))
        nags = [suffix[n] for n in m.get("nags", []) if n in suffix]
        s = nags[0] if nags else None
        if c or s:
            out.append([m["fen"], c or None, s])
    return out


def check_pgn(c):
    text = c.get("pgn")
    if text is None:
        with open(os.path.join(c["_dir"], c["file"]), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    games, errors, err = games_json(text, c.get("args", []))
    got = {}
    for k, want in c["expect"].items():
        if k == "games":
            got[k] = len(games)
        elif k == "errors":
            got[k] = errors > 0
        elif k == "error_in":
            got[k] = [i for i, g in enumerate(games) if g.get("broken") or g.get("errors")]
        elif k == "comments":
            got[k] = chessjs_comments(games[0]) if games else []
            want = [[f, norm_ws(t), s] for f, t, s in want]
            c["expect"][k] = want
        elif k == "mainline_fens5":
            g = games[0] if games else {}
            fens = [start_fen(g)] + [m["fen"] for m in mainline(g)]
            zh = any("[" in f or f.split()[0].count("/") == 8 for f in want + fens)
            got[k] = [norm_pockets(" ".join(f.split()[:5]), zh) for f in fens]
            want = [norm_pockets(" ".join(f.split()[:5]), zh) for f in want]
            # the snapshot writes the final position twice
            while len(want) > len(got[k]) and want[-1] == want[-2]:
                want = want[:-1]
            c["expect"][k] = want
        else:
            m = re.match(r"(\d+)\.(.*)", k)
            if not m:
                got[k] = ("?unknown", k)
                continue
            gi = int(m.group(1))
            got[k] = game_value(games[gi], m.group(2)) if gi < len(games) else None
            if k.endswith("comment"):
                got[k] = norm_comment(got[k], c)
                c["expect"][k] = norm_comment(want, c)
    return got


def check_perft(c):
    rc, out, err = run(["perft"] + variant_args(c) + fen_args(c) + [str(c["depth"])])
    last = out.strip().splitlines()[-1] if out.strip() else err.strip()
    return {"nodes": int(last) if last.isdigit() else last}, {"nodes": c["nodes"]}


def legal_moves(c):
    rc, out, err = run(["moves"] + variant_args(c) + fen_args(c))
    if rc != 0:
        return None
    return [ln.split() for ln in out.splitlines() if ln.strip()]


def check_moves(c):
    mv = legal_moves(c)
    got = {}
    for k, want in c["expect"].items():
        if k == "invalid":
            got[k] = mv is None
            continue
        if mv is None:
            got[k] = "invalid position"
            continue
        sans = {s for s, u in mv}
        ucis = {u for s, u in mv}
        if k == "count":
            got[k] = len(mv)
        elif k in ("has_san", "lacks_san", "has_uci", "lacks_uci"):
            pool = sans if k.endswith("san") else ucis
            inside = k.startswith("has")
            got[k] = [x for x in want if (x in pool) == inside]
            c["expect"][k] = list(want)
        elif k == "san_of":
            by = {u: s for s, u in mv}
            got[k] = {u: by.get(u) for u in want}
        elif k == "uci_set":
            s = set()
            for san, u in mv:
                if c.get("no_drops") and "@" in u:
                    continue
                if c.get("castle_tokens") and san.rstrip("+#").startswith("O-O"):
                    s.add(san.rstrip("+#"))
                else:
                    s.add(u)
            got[k] = sorted(s)
            c["expect"][k] = sorted(set(want))
        else:
            got[k] = ("?unknown", k)
    return got


def check_play(c):
    # "--" ends the options first: a null move "--" is then a move
    rc, out, err = run(["fen"] + variant_args(c) + fen_args(c) + c.get("args", []) + ["--"] +
                       c["moves"])
    got = {}
    ex = c["expect"]
    if "illegal" in ex:
        got["illegal"] = rc != 0
    if "fen" in ex:
        got["fen"] = norm_pockets(out.strip()) if rc == 0 else "error: " + err.strip()
        ex["fen"] = norm_pockets(ex["fen"])
    if "fen4" in ex:
        got["fen4"] = " ".join(out.split()[:4]) if rc == 0 else "error: " + err.strip()
    if "san" in ex or "uci" in ex:
        tags = ""
        if c.get("variant"):
            tags += '[Variant "%s"]\n' % VARIANT_TAG.get(c["variant"], c["variant"])
        if c.get("fen"):
            tags += '[FEN "%s"]\n[SetUp "1"]\n' % c["fen"]
        games, errors, _ = games_json(tags + "\n" + " ".join(c["moves"]) + " *\n")
        ml = mainline(games[0]) if games else []
        if "san" in ex:
            got["san"] = [m["san"] for m in ml]
        if "uci" in ex:
            got["uci"] = [m["uci"] for m in ml]
    return got


def input_file(c):
    if c.get("pgn") is not None:
        return None, c["pgn"].encode("utf-8")
    return os.path.join(c["_dir"], c["file"]), None


def check_select(c):
    path, data = input_file(c)
    src = [path] if path else ["-"]
    ex = c["expect"]
    got = {}
    if "count" in ex:
        rc, out, err = run(["select", c["expr"], "--count", "--quiet"] + c.get("args", []) + src,
                           data)
        got["count"] = int(out.strip()) if out.strip().isdigit() else out + err
    if "games" in ex:
        rc, out, err = run(["select", c["expr"], "--offsets", "--quiet"] + c.get("args", []) + src,
                           data)
        got["games"] = [json.loads(ln)["game"] for ln in out.splitlines() if ln.strip()]
    return got


def project(g, p):
    if p.startswith("tag:"):
        return g.get("tags", {}).get(p[4:], None)
    if p == "tagnames":
        return list(g.get("tags", {}).keys())
    if p == "uci":
        return " ".join(m["uci"] for m in mainline(g))
    if p == "san":
        return " ".join(m["san"] for m in mainline(g))
    if p == "plies":
        return len(mainline(g))
    if p == "result":
        return g.get("result")
    if p == "mcomments":
        return [norm_ws(comment_text(m.get("comment"))) for m in mainline(g)]
    counts = {"ncomments": 0, "nnags": 0, "nvars": 0, "mcomments": 0}
    stack = [(mainline(g), True)]
    while stack:
        line, main = stack.pop()
        for m in line:
            if m.get("comment") or m.get("pre_comment"):
                counts["ncomments"] += 1
                counts["mcomments"] += main
            counts["nnags"] += len(m.get("nags", []))
            for v in m.get("variations", []):
                counts["nvars"] += 1
                stack.append((v, False))
    if g.get("comment"):
        counts["ncomments"] += 1
        counts["mcomments"] += 1
    return counts.get(p, ("?unknown", p))


def check_cmd(c):
    tmp = tempfile.mkdtemp(prefix="peers.")
    outfile = os.path.join(tmp, "out.pgn")
    args = [re.sub(r"\{f:([^}]*)\}", lambda m: os.path.join(c["_dir"], m.group(1)), a)
            .replace("{out}", outfile).replace("{tmp}", tmp) for a in c["args"]]
    rc, out, err = run(args)
    if "{out}" in c["args"]:
        with open(outfile, encoding="utf-8", errors="replace") as fh:
            out = fh.read()
    shutil.rmtree(tmp)
    ex = c["expect"]
    got = {}
    if c.get("stdout_is") == "text":
        lines = [ln for ln in out.splitlines() if ln.strip()]
        for k in ex:
            if k == "lines":
                got[k] = lines
            elif k == "lines4":
                got[k] = [" ".join(ln.split()[:4]) for ln in lines]
            elif k == "tokens":
                got[k] = out.split()
        return got
    games, errors, _ = games_json(out)
    for k in ex:
        if k == "games":
            got[k] = [[project(g, p) for p in c["project"]] for g in games]
        else:
            m = re.match(r"(\d+)\.(.*)", k)
            gi = int(m.group(1))
            got[k] = game_value(games[gi], m.group(2)) if gi < len(games) else None
    return got


def describe(want, got):
    """The keys that differ; for two lists, the first element that differs."""
    if not isinstance(want, dict) or not isinstance(got, dict):
        print("  want %s\n  got  %s" % (json.dumps(want)[:600], json.dumps(got)[:600]))
        return
    for k in sorted(set(want) | set(got)):
        w, g = want.get(k), got.get(k)
        if w == g:
            continue
        if isinstance(w, list) and isinstance(g, list):
            i = next((i for i, (a, b) in enumerate(zip(w, g)) if a != b), min(len(w), len(g)))
            print("  %s: %d vs %d items, first difference at %d:\n    want %s\n    got  %s" % (
                k, len(w), len(g), i, json.dumps(w[i:i + 1])[:400], json.dumps(g[i:i + 1])[:400]))
        else:
            print("  %s:\n    want %s\n    got  %s" % (k, json.dumps(w)[:400], json.dumps(g)[:400]))


def check(c):
    kind = c["kind"]
    if kind == "perft":
        return check_perft(c)
    fn = {"pgn": check_pgn, "moves": check_moves, "play": check_play, "select": check_select,
          "cmd": check_cmd}[kind]
    return fn(c), c["expect"]


def main():
    global BIN, SUITES
    BIN, SUITES, listed_path = sys.argv[1:4]
    verbose = "-v" in sys.argv[4:]
    only = [a for a in sys.argv[4:] if a != "-v"]
    listed = {}
    with open(listed_path, encoding="utf-8") as fh:
        for ln in fh:
            if ln.strip() and not ln.startswith("#"):
                suite, cid, why = ln.rstrip("\n").split("\t", 2)
                listed[(suite, cid)] = why
    passed = failed = agree = kept = 0
    seen = set()
    for suite in sorted(os.listdir(SUITES)):
        path = os.path.join(SUITES, suite, "cases.json")
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as fh:
            cases = json.load(fh)
        for c in cases:
            if only and not any(o in c["id"] for o in only):
                continue
            c["_dir"] = os.path.join(SUITES, suite)
            c["_suite"] = suite
            key = (suite, c["id"])
            seen.add(key)
            try:
                got, want = check(c)
            except Exception as e:  # a crash of the runner on a case is a failure, not a skip
                got, want = {"runner": repr(e)}, c.get("expect")
            same = got == want
            if same and key not in listed:
                passed += 1
                agree += 1
            elif not same and key in listed:
                passed += 1
                kept += 1
                if verbose:
                    print("LISTED %s/%s: %s" % (suite, c["id"], listed[key]))
            elif same:
                failed += 1
                print("FAIL %s/%s agrees now: take it off %s" % (suite, c["id"], listed_path))
            else:
                failed += 1
                print("FAIL %s/%s" % (suite, c["id"]))
                describe(want, got)
    if not only:
        for key in sorted(set(listed) - seen):
            failed += 1
            print("FAIL listed case %s/%s is not in the suites" % key)
    print("peers: %d cases agree, %d differ as listed, %d fail" % (agree, kept, failed))
    print("RESULT %d %d 0" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
