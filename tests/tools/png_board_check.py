#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checks a PNG of a board drawn by `pgnkit svg` (rendered by rsvg-convert or a browser): for each
# square of the FEN placement given, an empty square has no black pixel near its centre, and a
# square holding a piece has the piece's black outline and more of its body colour (bluish white
# for White, bluish grey for Black) than of the other. Arrows drawn over a piece may hide it. Usage: png_board_check.py PNG PLACEMENT
# [flipped] [X0 Y0 SIZE] (the board's place in the picture; default the whole picture).
import sys
from PIL import Image


def main(argv):
    im = Image.open(argv[0]).convert("RGB")
    placement = argv[1]
    flipped = len(argv) > 2 and argv[2] == "flipped"
    rest = [a for a in argv[2:] if a != "flipped"]
    x0, y0, size = (int(rest[0]), int(rest[1]), int(rest[2])) if rest else (0, 0, im.width)
    sq = size / 8
    rows = []
    for r in placement.split("/"):
        row = ""
        for c in r:
            row += "." * int(c) if c.isdigit() else c
        rows.append(row)
    bad = []
    for rank in range(8):
        for file in range(8):
            piece = rows[7 - rank][file]
            col, row = (7 - file, rank) if flipped else (file, 7 - rank)
            px = [im.getpixel((int(x0 + col * sq + dx * sq / 10), int(y0 + row * sq + dy * sq / 10)))
                  for dx in range(2, 9) for dy in range(2, 9)]
            name = "abcdefgh"[file] + str(rank + 1)
            black = sum(1 for p in px if max(p) < 60)
            if piece == ".":
                if black:  # arrows, highlights and coordinates are never black
                    bad.append("%s should be empty" % name)
            else:
                # the bodies are bluish (blue >= red), the board's squares reddish
                light = sum(1 for p in px if min(p) > 180 and p[2] >= p[0])
                dark = sum(1 for p in px if 60 <= max(p) < 170 and p[2] > p[0])
                if black == 0:
                    bad.append("%s has no outline" % name)
                if piece.isupper() and light <= dark:
                    bad.append("%s: no white piece" % name)
                if piece.islower() and dark <= light:
                    bad.append("%s: no black piece" % name)
    if bad:
        print("%s: %s" % (argv[0], "; ".join(bad[:5])))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
