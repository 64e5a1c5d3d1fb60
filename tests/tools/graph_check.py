#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checks an evaluation graph drawn by `pgnkit graph` against the game's evaluations, computed
# here independently from `pgnkit convert --to csv --per-ply` (one game): every ply with an
# [%eval] (or a checkmating move) is a point of the curve at x = (ply - 0.5) * width / plies and
# y = mid - wc * (mid - 2), wc being lichess's winning chances 2 / (1 + exp(-0.00368208 * cp)) - 1
# (mates +-1); the dots of judged moves have lichess's colours, judged by the rules of
# docs/analysis.md (written again here from the text); every ply has its column "ply-N".
# Prints what differs and exits 1. Usage: graph_check.py SVG CSV WIDTH HEIGHT [NAGS]
# NAGS: "ply:nag,ply:nag" the judgements another tool wrote (pgnkit analyze), checked against
# the dots too.
import csv
import math
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
COLOURS = {6: "#56b4e9", 2: "#e69f00", 4: "#db3031"}


def wc(ev):
    kind, v = ev
    if kind == "mate":
        return 1.0 if v > 0 else -1.0
    return 2 / (1 + math.exp(-0.00368208 * v)) - 1


def parse_eval(text, san):
    if text == "":
        if san.endswith("#"):
            return None  # filled in by the caller: the mover won
        return None
    if text.startswith("#"):
        return ("mate", int(text[1:]))
    return ("cp", round(float(text) * 100))


def judge(before, after, white_moved):
    """docs/analysis.md: cp->cp by loss of winning chances; mate created; mate lost."""
    sign = 1 if white_moved else -1
    if before[0] == "cp" and after[0] == "cp":
        d = sign * (wc(before) - wc(after))
        return 4 if d >= 0.3 else 2 if d >= 0.2 else 6 if d >= 0.1 else 0
    b = (before[0], sign * before[1])
    a = (after[0], sign * after[1])
    if a[0] == "mate" and a[1] < 0 and not (b[0] == "mate" and b[1] < 0):
        if b[0] == "cp":
            return 6 if b[1] < -999 else 2 if b[1] < -700 else 4
        return 4
    if b[0] == "mate" and b[1] > 0 and not (a[0] == "mate" and a[1] > 0):
        if a[0] == "cp":
            return 6 if a[1] > 999 else 2 if a[1] > 700 else 4
        return 4
    return 0


def main(argv):
    svg, csvfile, width, height = argv[0], argv[1], float(argv[2]), float(argv[3])
    rows = list(csv.DictReader(open(csvfile)))
    plies = len(rows)
    evals = {}
    for r in rows:
        ply = int(r["ply"])
        e = parse_eval(r["eval"], r["san"])
        if e is None and r["san"].endswith("#"):
            e = ("mate", 1 if ply % 2 == 1 else -1)  # games from the start: White moves odd plies
        if e is not None:
            evals[ply] = e
    plot_h = height - 16
    mid = plot_h / 2
    step = width / max(plies, 1)
    want_pts = [((p - 0.5) * step, mid - wc(evals[p]) * (mid - 2)) for p in sorted(evals)]
    root = ET.parse(svg).getroot()
    errors = []
    lines = list(root.iter(SVG + "polyline"))
    got_pts = []
    if lines:
        got_pts = [tuple(map(float, xy.split(","))) for xy in lines[0].get("points").split()]
    if len(got_pts) != len(want_pts):
        errors.append("%d points, expected %d" % (len(got_pts), len(want_pts)))
    for (gx, gy), (wx, wy) in zip(got_pts, want_pts):
        if abs(gx - wx) > 0.06 or abs(gy - wy) > 0.06:
            errors.append("point %.1f,%.1f expected %.2f,%.2f" % (gx, gy, wx, wy))
    want_dots = {}
    for p in sorted(evals):
        if p - 1 in evals:
            nag = judge(evals[p - 1], evals[p], p % 2 == 1)
            if nag:
                want_dots[round((p - 0.5) * step, 1)] = COLOURS[nag]
    got_dots = {float(c.get("cx")): c.get("fill") for c in root.iter(SVG + "circle")}
    for x in sorted(set(want_dots) | set(got_dots)):
        if want_dots.get(x) != got_dots.get(x):
            errors.append("dot at x=%.1f: %s, expected %s" % (x, got_dots.get(x), want_dots.get(x)))
    if len(argv) > 4 and argv[4]:
        for item in argv[4].split(","):
            ply, nag = map(int, item.split(":"))
            x = round((ply - 0.5) * step, 1)
            if got_dots.get(x) != COLOURS[nag]:
                errors.append("ply %d has $%d from the analysis, graph dot %s" % (ply, nag,
                                                                               got_dots.get(x)))
    ids = {r.get("id") for r in root.iter(SVG + "rect") if r.get("id")}
    if ids != {"ply-%d" % p for p in range(1, plies + 1)}:
        errors.append("columns: %d, expected ply-1..ply-%d" % (len(ids), plies))
    for t in root.iter(SVG + "text"):
        if not re.fullmatch(r"\d+", t.text or ""):
            errors.append("axis label %r" % t.text)
    for e in errors[:8]:
        print("%s: %s" % (svg, e))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
