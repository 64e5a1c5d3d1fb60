#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A structural check of pgnkit's SVG against SVG 1.1 (W3C Recommendation 16 August 2011), beside
# the DTD validation of tests/cli/test_render.sh (xmllint --dtdvalid; docs/render.md), for what a
# DTD cannot say: every element is an SVG 1.1
# element in the SVG namespace, every attribute is one SVG 1.1 allows on that element (the
# presentation attributes of §6.4 where the spec allows them), the root says version="1.1",
# ids are unique, every url(#id) and xlink:href="#id" points at an element of the document, and
# numbers, lengths, colours and point lists are well formed.
# Usage: svg_check.py [--board] FILE...   --board also prints, per file, the board it shows:
# "FILE PLACEMENT FLAGS" with the FEN piece placement read from the <use> elements (turned back
# when the board is flipped, told by the rank numbers or the a1 square), then check=SQ, last=SQ,SQ,
# arrows=Ce2e4,... circles=Cd5,...  Exit status 1 and a message on the first problem of a file.
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
PRES = {"fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-linecap",
        "stroke-linejoin", "stroke-opacity", "opacity", "font-family", "font-size", "font-weight",
        "text-anchor", "clip-path", "stop-color", "stop-opacity"}
SHAPE = PRES | {"id", "transform", "class"}
ALLOWED = {
    "svg": {"version", "width", "height", "viewBox", "id", "class"} | PRES,
    "defs": {"id"} | PRES,
    "g": SHAPE,
    "title": {"id"},
    "path": SHAPE | {"d"},
    "rect": SHAPE | {"x", "y", "width", "height", "rx", "ry"},
    "circle": SHAPE | {"cx", "cy", "r"},
    "line": SHAPE | {"x1", "y1", "x2", "y2"},
    "polygon": SHAPE | {"points"},
    "polyline": SHAPE | {"points"},
    "text": SHAPE | {"x", "y"},
    "use": SHAPE | {"x", "y", "width", "height", XLINK + "href"},
    "linearGradient": {"id", "gradientUnits", "gradientTransform", "x1", "y1", "x2", "y2",
                       "spreadMethod", XLINK + "href"} | PRES,
    "radialGradient": {"id", "gradientUnits", "gradientTransform", "cx", "cy", "r", "fx", "fy",
                       "spreadMethod", XLINK + "href"} | PRES,
    "stop": {"offset", "id"} | PRES,
    "clipPath": {"id", "clipPathUnits", "transform"} | PRES,
}
NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
NUMBERS = {"x", "y", "width", "height", "cx", "cy", "r", "x1", "y1", "x2", "y2", "rx", "ry",
           "opacity", "fill-opacity", "stroke-opacity", "stop-opacity", "stroke-width", "offset",
           "font-size"}
COLOR = re.compile(r"#[0-9a-fA-F]{6}$|none$|url\(#[-\w]+\)$")


class Bad(Exception):
    pass


def check(root):
    if root.tag != SVG + "svg" or root.get("version") != "1.1":
        raise Bad("root is not an SVG 1.1 <svg>")
    ids = {}
    refs = []
    for e in root.iter():
        if not e.tag.startswith(SVG):
            raise Bad("element outside the SVG namespace: %s" % e.tag)
        name = e.tag[len(SVG):]
        if name not in ALLOWED:
            raise Bad("not an SVG 1.1 element here: %s" % name)
        if name not in ("text", "title", "style") and (e.text or "").strip():
            raise Bad("text inside <%s>" % name)
        for k, v in e.attrib.items():
            if k not in ALLOWED[name]:
                raise Bad("attribute %s not allowed on <%s>" % (k, name))
            if k == "id":
                if v in ids:
                    raise Bad("duplicate id %s" % v)
                ids[v] = e
            if k in NUMBERS and not re.fullmatch(NUM + "%?", v):
                raise Bad("bad number %s=%r on <%s>" % (k, v, name))
            if k in ("fill", "stroke", "stop-color") and not COLOR.match(v):
                raise Bad("bad colour %s=%r" % (k, v))
            if k == "points" and not re.fullmatch(r"(%s,%s)( %s,%s)*" % (NUM, NUM, NUM, NUM), v):
                raise Bad("bad points on <%s>" % name)
            if k == "viewBox" and not re.fullmatch(r"(%s ){3}%s" % (NUM, NUM), v):
                raise Bad("bad viewBox")
            m = re.match(r"url\(#([-\w]+)\)", v)
            if m:
                refs.append(m.group(1))
            if k == XLINK + "href":
                if not v.startswith("#"):
                    raise Bad("external reference %s" % v)
                refs.append(v[1:])
    for r in refs:
        if r not in ids:
            raise Bad("reference to a missing id #%s" % r)


def square_of(x, y):
    return int(round(x / 100)), int(round(y / 100))  # column, row from the top


def board(root):
    grid = [["" for _ in range(8)] for _ in range(8)]
    flip = False
    for t in root.iter(SVG + "text"):  # the rank number at the top left says the orientation
        if t.text == "1" and float(t.get("y")) < 50:
            flip = True
    def sq(col, row):
        file, rank = (7 - col, row) if flip else (col, 7 - row)
        return "abcdefgh"[file] + str(rank + 1)
    for u in root.iter(SVG + "use"):
        m = re.match(r"translate\((%s),(%s)\)" % (NUM, NUM), u.get("transform"))
        col, row = square_of(float(m.group(1)), float(m.group(2)))
        piece = u.get(XLINK + "href")[4:]  # "#pk-wK"
        letter = piece[1] if piece[0] == "w" else piece[1].lower()
        file, rank = (7 - col, row) if flip else (col, 7 - row)
        grid[7 - rank][file] = letter
    rows = []
    for r in grid:
        s, empty = "", 0
        for c in r:
            if c:
                s += (str(empty) if empty else "") + c
                empty = 0
            else:
                empty += 1
        rows.append(s + (str(empty) if empty else ""))
    flags = []
    last = []
    for rect in root.iter(SVG + "rect"):
        if rect.get("x") is None:
            continue
        where = sq(*square_of(float(rect.get("x")), float(rect.get("y"))))
        if rect.get("fill") == "url(#check)":
            flags.append("check=" + where)
        if rect.get("fill") == "#9bc700":
            last.append(where)
    if last:
        flags.append("last=" + ",".join(last))
    colors = {"#15781b": "G", "#882020": "R", "#e68f00": "Y", "#003088": "B"}
    arrows = []
    for p in root.iter(SVG + "polygon"):
        pts = [tuple(map(float, xy.split(","))) for xy in p.get("points").split()]
        a = ((pts[0][0] + pts[6][0]) / 2, (pts[0][1] + pts[6][1]) / 2)
        arrows.append(colors[p.get("fill")] + sq(*square_of(a[0] - 50, a[1] - 50)) +
                      sq(*square_of(pts[3][0] - 50, pts[3][1] - 50)))
    if arrows:
        flags.append("arrows=" + ",".join(arrows))
    circles = [colors[c.get("stroke")] + sq(*square_of(float(c.get("cx")) - 50,
                                                       float(c.get("cy")) - 50))
               for c in root.iter(SVG + "circle")]
    if circles:
        flags.append("circles=" + ",".join(circles))
    if flip:
        flags.append("flipped")
    return "/".join(rows), flags


def main(argv):
    want_board = argv[:1] == ["--board"]
    files = argv[1:] if want_board else argv
    status = 0
    for f in files:
        try:
            root = ET.parse(f).getroot()
            check(root)
        except (Bad, ET.ParseError) as e:
            print("%s: %s" % (f, e))
            status = 1
            continue
        if want_board:
            placement, flags = board(root)
            print(" ".join([f, placement] + flags))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
