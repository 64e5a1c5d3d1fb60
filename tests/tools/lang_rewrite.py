#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Rewrites an English PGN file's moves with another letter set, taken from the table of
docs/notation.md (PGN standard section 17, the Cyrillic set, figurines), without pgnkit: the
test of issue 28 point 3 (tests/cli/test_lang_game.sh) reads the result back and compares it
with the English reading.

    lang_rewrite.py NOTATION_MD CODE IN OUT

Only the piece letters of moves change: the first letter of a piece move and the letter of a
promotion (e8=Q). Tags, comments ({...}, ; to the end of the line), NAGs, castling (O-O) and
results stay. Figurines are written white (the first of the two in the table)."""
import re
import sys

ENGLISH = "PNBRQK"


def letter_sets(path):
    """code -> the six letters (pawn..king) of each row of the table."""
    sets = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) != 8 or cells[1] in ("code", "") or cells[1].startswith("-"):
                continue
            letters = [c.split()[0] for c in cells[2:]]
            if len(letters) == 6:
                sets[cells[1]] = letters
    return sets


SAN = re.compile(r"^([PNBRQK]?)([a-h]?[1-8]?x?[a-h][1-8])(=?)([NBRQ]?)([+#]?)$")


def rewrite_move(tok, letters):
    m = SAN.match(tok)
    if not m:
        return tok  # castling, a result, a move number, anything else
    piece, body, eq, promo, mark = m.groups()
    piece = letters[ENGLISH.index(piece)] if piece else ""
    promo = letters[ENGLISH.index(promo)] if promo else ""
    return piece + body + eq + promo + mark


def rewrite(text, letters):
    out = []
    in_comment = False
    for line in text.split("\n"):
        if not in_comment and (line.startswith("[") or line.startswith("%")):
            out.append(line)
            continue
        parts = re.split(r"(\{|\}|;.*$|\s+|\(|\))", line)
        res = []
        for p in parts:
            if p is None or p == "":
                continue
            if in_comment:
                in_comment = p != "}"
                res.append(p)
            elif p == "{":
                in_comment = True
                res.append(p)
            elif p.startswith(";"):
                res.append(p)
            else:
                num = re.match(r"^(\d+\.+)(.*)$", p)  # 12.Nf3
                if num:
                    res.append(num.group(1) + rewrite_move(num.group(2), letters))
                else:
                    res.append(rewrite_move(p, letters))
        out.append("".join(res))
    return "\n".join(out)


def main():
    md, code, src, dst = sys.argv[1:5]
    sets = letter_sets(md)
    if code not in sets:
        sys.exit("lang_rewrite.py: no letter set %r in %s (have %s)" % (code, md, " ".join(sets)))
    with open(src, encoding="utf-8") as f:
        text = f.read()
    with open(dst, "w", encoding="utf-8") as f:
        f.write(rewrite(text, sets[code]))


if __name__ == "__main__":
    main()
