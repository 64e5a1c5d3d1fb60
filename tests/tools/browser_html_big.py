#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The pages pgnkit html makes of big collections, and user text that tries to reorder the page,
# in Debian's headless Chromium (Selenium), for tests/cli/test_html.sh (issues 31, 34, 36). Prints
# "FAIL ..." lines and the "RESULT" line.
#   browser_html_big.py SMALL LASTFENS [--bidi PAGE WANT] [--big PAGE SECONDS GAMES LASTWHITE]
#   SMALL: a page of games without evaluations (FENs left out of the page: the viewer plays the
#   UCI moves); LASTFENS: the position after the last move of each of its games (`pgnkit convert
#   --to fen`): at each game's end the board must show it, and the graph box must hold the line
#   about pgnkit analyze, no SVG.
#   --bidi: a page of one game whose names, event and comment hold U+202E (right-to-left
#   override); WANT is what the game list must show, read from left to right on the screen, after
#   the White player's name (" - Black RESULT"): the characters are read back where Chromium drew
#   them (a Range per character), so an override that leaked out of a name would show.
#   --big: a page that must show its first game's board and list (within SECONDS: a bound for a
#   hung page, not a speed goal; bench/bench_html.sh times it), count GAMES, and show the last game
#   (White LASTWHITE) when asked.
import argparse
import os
import shutil
import sys
import tempfile
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from selenium_util import browser, check, result_line

# the characters of an element's text in the order they are drawn: by line, then left to right
VISUAL = """
var out = [], walk = document.createTreeWalker(arguments[0], NodeFilter.SHOW_TEXT), n;
while ((n = walk.nextNode())) {
  for (var i = 0; i < n.data.length; i++) {
    var r = document.createRange();
    r.setStart(n, i); r.setEnd(n, i + 1);
    var b = r.getBoundingClientRect();
    if (b.width > 0) out.push([Math.round(b.top), b.left, n.data[i]]);
  }
}
out.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
return out.map(function (c) { return c[2]; }).join("");
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("small")
    ap.add_argument("lastfens")
    ap.add_argument("--bidi", nargs=2)
    ap.add_argument("--big", nargs=4)
    a = ap.parse_args()
    want = [l.split()[0] for l in open(a.lastfens) if l.strip()]
    profile = tempfile.mkdtemp(prefix="pgnkit-chromium-")
    d = browser(profile, 900)
    d.set_page_load_timeout(120)
    try:
        d.get("file://" + os.path.abspath(a.small))
        bad = []
        for i, fen in enumerate(want):
            ActionChains(d).send_keys(Keys.END).perform()
            got = d.find_element(By.ID, "board").get_attribute("data-fen").split()[0]
            if got != fen:
                bad.append((i + 1, got, fen))
            if i == 0:
                check("no evaluations: no graph, a line naming pgnkit analyze",
                      not d.find_elements(By.CSS_SELECTOR, "#graph svg") and
                      "pgnkit analyze" in d.find_element(By.ID, "graph").text)
            ActionChains(d).send_keys(Keys.ARROW_DOWN).perform()
        check("every game's last position, played from the UCI moves", not bad and want,
              str(bad[:3]))
        if a.bidi:
            bidi_page(d, *a.bidi)
        if a.big:
            big_page(d, *a.big)
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)
    print(result_line())


def visual(d, css):
    return d.execute_script(VISUAL, d.find_element(By.CSS_SELECTOR, css))


def bidi_page(d, page, want):
    d.get("file://" + os.path.abspath(page))
    label = visual(d, "#game-list li")
    print("bidi: the game list shows %r" % label)
    check("bidi: the list shows the game's result after the names", want in label,
          "%r not in %r" % (want, label))
    li = d.find_element(By.CSS_SELECTOR, "#game-list li")
    check("bidi: every name and the event in its own <bdi>",
          len(li.find_elements(By.TAG_NAME, "bdi")) >= 3 and
          not any(c in li.find_element(By.CSS_SELECTOR, ".result").text for c in "\u202e\u202b"))
    for side in ("white-name", "black-name"):
        box = d.find_element(By.ID, side)
        check("bidi: %s isolated" % side, box.find_elements(By.TAG_NAME, "bdi") and
              visual(d, "#" + side)[0] in "\u25cb\u25cf", repr(visual(d, "#" + side)))
    moves = visual(d, "#moves")
    print("bidi: the moves show %r" % moves)
    result = want.split()[-1]  # WANT ends with the result
    check("bidi: the comment reorders no move: the moves, then the result", moves.startswith(
        "1. e4") and moves.endswith(result), repr(moves))
    iso = d.execute_script("return getComputedStyle(arguments[0]).unicodeBidi",
                           d.find_element(By.CSS_SELECTOR, "#moves .cm"))
    check("bidi: the comment isolated", iso == "isolate", iso)


def big_page(d, big, seconds, games, last_white):
    t = time.time()
    d.get("file://" + os.path.abspath(big))
    ok = d.find_elements(By.CSS_SELECTOR, "#board") and \
        len(d.find_elements(By.CSS_SELECTOR, "#game-list li")) > 0
    took = time.time() - t
    print("big page shown in %.2f s" % took)
    check("big page: shown within %s s" % seconds, ok and took < float(seconds), "%.2f s" % took)
    count = d.find_element(By.ID, "count").text
    check("big page: every game counted", count == games + " games", count)
    t = time.time()
    d.execute_script("window.pgnkitViewer.show(%d)" % (int(games) - 1))
    white = d.find_element(By.ID, "white-name").text
    print("big page: the last game shown in %.2f s" % (time.time() - t))
    check("big page: the last game shown", white == "\u25cb " + last_white, repr(white))


main()
