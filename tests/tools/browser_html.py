#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Drives Debian's headless Chromium through Selenium (python3-selenium, chromium-driver) over pages
# written by `pgnkit html`, for tests/cli/test_html.sh. Prints "FAIL ..." lines and the
# "RESULT passed failed skipped" line of the C suites. One browser (a fresh profile) runs:
#   browser_html.py PAGE FENS HOSTILE SVG PLACEMENT SHOTDIR PNGCHECK
#   PAGE, FENS: `pgnkit convert --to fen` of the page's first game (one FEN per ply). Steps through
#       every move with the keyboard and compares the pieces on the board with the FEN; flips;
#       clicks the graph and a variation; takes a screenshot and checks it (not blank, the board
#       where the page says with the pieces of the FEN: tests/tools/png_board_check.py).
#   HOSTILE: a page made of hostile PGN text: no script of it may run (window.__pwned stays
#       unset), the texts appear literally, the page still works.
#   SVG, PLACEMENT: a board of `pgnkit svg` opened by the browser: the screenshot shows the
#       pieces of the FEN where rsvg-convert's render shows them (tests/cli/test_render.sh).
import os
import shutil
import subprocess
import sys
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains

from selenium_util import browser as _browser, check, counts, result_line


def browser(profile):
    return _browser(profile, 900)


BOARD_JS = """
var grid = {};
document.querySelectorAll('#board use').forEach(function (u) {
  var p = u.getAttribute('data-piece');
  grid[u.getAttribute('data-sq')] = p[0] === 'w' ? p[1] : p[1].toLowerCase();
});
var rows = [];
for (var r = 8; r >= 1; r--) {
  var row = '', e = 0;
  for (var f = 0; f < 8; f++) {
    var c = grid['abcdefgh'[f] + r];
    if (c) { row += (e ? e : '') + c; e = 0; } else e++;
  }
  rows.push(row + (e ? e : ''));
}
return rows.join('/');
"""


def board(d):
    """The placement of the board as shown: from the pieces' data-sq and data-piece (one round
    trip to the browser)."""
    return d.execute_script(BOARD_JS)


def key(d, k):
    ActionChains(d).send_keys(k).perform()


def errors(d):
    return [e for e in d.get_log("browser") if e.get("level") == "SEVERE"]


def screenshot(d, path, placement, pngcheck, flipped=False):
    d.save_screenshot(path)
    from PIL import Image
    im = Image.open(path).convert("RGB")
    colours = im.getcolors(1 << 20)
    check("screenshot %s not blank" % os.path.basename(path), colours is None or len(colours) > 50)
    r = d.execute_script("""var b = (document.getElementById('board') ||
        document.documentElement).getBoundingClientRect();
        return [b.left, b.top, b.width, window.devicePixelRatio];""")
    x, y, w, ratio = [float(v) for v in r]
    args = [sys.executable, pngcheck, path, placement] + (["flipped"] if flipped else []) + \
        [str(int(x * ratio)), str(int(y * ratio)), str(int(w * ratio))]
    res = subprocess.run(args, capture_output=True, text=True)
    check("screenshot %s: the board shows the FEN's pieces" % os.path.basename(path),
          res.returncode == 0, res.stdout.strip())


def games_test(d, page, fens, shots, pngcheck):
    want = [l.split()[0] for l in open(fens) if l.strip()]
    d.get("file://" + os.path.abspath(page))
    n = len(d.find_elements(By.CSS_SELECTOR, "#game-list li"))
    check("game list", n >= 2, "%d games" % n)
    check("start position", board(d) == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", board(d))
    bad = 0
    for i, fen in enumerate(want):
        key(d, Keys.ARROW_RIGHT)
        got = board(d)
        if got != fen:
            bad += 1
            if bad < 3:
                print("FAIL ply %d: board %s, expected %s" % (i + 1, got, fen))
    check("every ply of game 1 by the keyboard (%d plies)" % len(want), bad == 0)
    key(d, Keys.ARROW_RIGHT)
    check("no move after the last", board(d) == want[-1])
    key(d, Keys.HOME)
    check("Home", board(d).startswith("rnbqkbnr/pppppppp"))
    key(d, Keys.END)
    check("End", board(d) == want[-1])
    for _ in range(3):
        d.find_element(By.ID, "prev").click()
    check("back button", board(d) == want[-4])
    screenshot(d, os.path.join(shots, "html-game.png"), want[-4], pngcheck)
    d.find_element(By.ID, "flip").click()
    # every piece where a flipped board has its square: a1 top right, h8 bottom left
    wrong = d.execute_script("""var bad = 0, n = 0;
        document.querySelectorAll('#board use').forEach(function (u) {
          var s = u.getAttribute('data-sq'), f = s.charCodeAt(0) - 97, r = +s[1] - 1; n++;
          if (u.getAttribute('transform').indexOf('translate(' + 100 * (7 - f) + ',' +
              100 * r + ')') !== 0) bad++; });
        return n ? bad : -1;""")
    check("flip turns the board", wrong == 0, str(wrong))
    screenshot(d, os.path.join(shots, "html-flipped.png"), want[-4], pngcheck, True)
    key(d, "f")
    # the graph: a click on the column of ply 10 shows the position after ply 10
    d.execute_script("document.getElementById('ply-10').scrollIntoView()")
    rect = d.find_element(By.ID, "ply-10")
    ActionChains(d).move_to_element(rect).click().perform()
    check("a click on the graph goes to that move", board(d) == want[9], board(d))
    marker = d.find_elements(By.ID, "graph-ply")
    check("the graph marks the current move", len(marker) == 1)
    # a variation: its first move shows the position the page's data gives for it
    v = d.find_elements(By.CSS_SELECTOR, "#moves .var .mv")
    check("variations are listed", len(v) > 0)
    if v:
        d.execute_script("arguments[0].scrollIntoView()", v[0])
        v[0].click()
        cur = d.find_elements(By.CSS_SELECTOR, "#moves .mv.current")
        check("a click on a variation move selects it", len(cur) == 1 and cur[0] == v[0])
        fen = d.find_element(By.ID, "board").get_attribute("data-fen")
        check("the variation's position is drawn", board(d) == fen.split()[0])
    check("comments shown", len(d.find_elements(By.CSS_SELECTOR, "#moves .cm")) > 0)
    check("NAG glyphs shown", any(e.text in ("?!", "?", "??", "!", "!!", "!?") for e in
                                  d.find_elements(By.CSS_SELECTOR, "#moves .nag")))
    key(d, Keys.ARROW_DOWN)
    items = d.find_elements(By.CSS_SELECTOR, "#game-list li.current")
    check("arrow down: next game", len(items) == 1 and items[0].text.startswith("2."))
    check("clocks shown in game 2", len(d.find_elements(By.CSS_SELECTOR, "#moves .clk")) > 0)
    key(d, Keys.END)
    check("game 2 [%cal] arrow at its last move",
          len(d.find_elements(By.CSS_SELECTOR, "#board polygon.arrow")) >= 1)
    check("no error in the console", not errors(d), str(errors(d))[:300])


def hostile_test(d, page, shots):
    d.get("file://" + os.path.abspath(page))
    for _ in range(6):
        key(d, Keys.ARROW_RIGHT)
    d.find_element(By.ID, "flip").click()
    for g in range(3):
        key(d, Keys.ARROW_DOWN)
        key(d, Keys.END)
    d.execute_script("document.getElementById('game-list').children[0].click()")
    check("no hostile script ran", d.execute_script("return window.__pwned") is None)
    check("no injected element", len(d.find_elements(By.CSS_SELECTOR, "img, iframe, object")) == 0)
    check("only the page's own scripts (the data, one element of games, the viewer)",
          len(d.find_elements(By.TAG_NAME, "script")) == 3)
    text = d.find_element(By.TAG_NAME, "body").text
    check("hostile tag shown as text", "<script>window.__pwned=1</script>" in text)
    check("hostile comment shown as text", '"><img src=x onerror=' in text)
    check("the page still works", len(d.find_elements(By.CSS_SELECTOR, "#board use")) > 0)
    d.save_screenshot(os.path.join(shots, "html-hostile.png"))
    check("no error in the console", not errors(d), str(errors(d))[:300])


def svg_test(d, path, placement, shots, pngcheck):
    d.get("file://" + os.path.abspath(path))
    screenshot(d, os.path.join(shots, "svg-in-browser.png"), placement, pngcheck)


def main(argv):
    page, fens, hostile, svgfile, placement, shots, pngcheck = argv
    profile = tempfile.mkdtemp(prefix="pgnkit-chromium-")
    d = browser(profile)
    try:
        games_test(d, page, fens, shots, pngcheck)
        hostile_test(d, hostile, shots)
        svg_test(d, svgfile, placement, shots, pngcheck)
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)
    print(result_line())
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
