#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Drives Debian's headless Chromium through Selenium over the page of `pgnkit serve`, for
# tests/cli/test_serve.sh. Prints "FAIL ..." lines and the "RESULT passed failed skipped" line.
#   browser_serve.py URL PGN FENS EVALS ANALYZED HOSTILE BAD SHOTDIR NODES
#   PGN is uploaded with the file input and analysed at NODES nodes a move by the server's engine
#   (Stockfish in test_serve.sh). FENS: the first game's main-line positions after each ply
#   (`pgnkit convert --to fen`); EVALS: the [%eval] of each in ANALYZED, which is
#   `pgnkit analyze --nodes NODES` of PGN with the same engine and settings. While the analysis
#   streams, the board must step through FENS and the live graph gain one point a move; after it,
#   stepping through the moves, the board and the shown eval must match, and the download link
#   must give ANALYZED byte for byte. Then once more with EventSource taken away: the page polls,
#   and the download is the same.
#   HOSTILE: pasted, shown and analysed: no script of it may run (window.__pwned stays unset).
#   BAD: pasted and shown: the diagnostics list names line, column and code, and a click on one
#   selects its line in the text.
import os
import re
import sys
import tempfile
import shutil
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.support.ui import Select

from selenium_util import browser as _browser, check, result_line


def browser(profile):
    return _browser(profile, 1100)


def wait_state(d, states, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        s = d.find_element(By.ID, "progress").get_attribute("data-state")
        if s in states:
            return s
        time.sleep(0.1)
    return d.find_element(By.ID, "progress").get_attribute("data-state")


def paste(d, text):
    d.execute_script("var t = document.getElementById('pgn'); t.value = arguments[0];"
                     "t.dispatchEvent(new Event('input'));", text)


def key(d, k):
    ActionChains(d).send_keys(k).perform()


# records, while the analysis streams, each live graph drawn: its point count and the board's FEN
OBSERVE = """
window.__live = [];
new MutationObserver(function () {
  var g = document.querySelector('#graph svg[data-live]');
  if (!g) return;
  var fen = document.getElementById('board').getAttribute('data-fen');
  var n = +g.getAttribute('data-live'), last = window.__live[window.__live.length - 1];
  if (!last || last[0] !== n || last[1] !== fen) window.__live.push([n, fen]);
}).observe(document.getElementById('graph'), { childList: true, subtree: true });
"""


def analyse(d, nodes):
    Select(d.find_element(By.ID, "limit")).select_by_value("nodes")
    v = d.find_element(By.ID, "value")
    v.clear()
    v.send_keys(nodes)
    # the state of an earlier job must not be taken for this one's
    d.execute_script("document.getElementById('progress').setAttribute('data-state', '')")
    d.find_element(By.ID, "analyse").click()
    return wait_state(d, ("done", "failed", "timeout", "cancelled", "refused"))


def download(d):
    href = d.find_element(By.ID, "download").get_attribute("href") or ""
    return href, d.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "fetch(arguments[0]).then(function (r) { return r.text(); }).then(done, "
        "function (e) { done('ERR ' + e); });", href)


def nonblank(path):
    from PIL import Image
    im = Image.open(path).convert("RGB")
    return len(im.getcolors(1 << 24) or []) > 20


def mixed_test(d, bad):
    """Issue 28 point 5: the whole games of a paste with broken ones are shown and analysed;
    a click on an error puts the cursor at its line and column."""
    good = '[Event "z"]\n\n1. d4 d5 2. c4 *\n'
    paste(d, bad + "\n" + good)
    d.execute_script("document.getElementById('progress').setAttribute('data-state', '')")
    d.find_element(By.ID, "show").click()
    check("mixed: shown", wait_state(d, ("shown", "refused")) == "shown")
    check("mixed: the whole game listed",
          len(d.find_elements(By.CSS_SELECTOR, "#game-list li")) == 1 and
          "z" in d.find_element(By.ID, "tags").text)
    check("mixed: the broken games counted", "2 left out" in d.find_element(By.ID, "progress").text,
          d.find_element(By.ID, "progress").text)
    items = d.find_elements(By.CSS_SELECTOR, "#diagnostics li[data-code]")
    second = [i for i in items if i.get_attribute("data-code") == "E_ILLEGAL_MOVE"]
    check("mixed: the second game's error listed", len(second) == 1)
    if second:
        second[0].find_element(By.CSS_SELECTOR, ".msg").click()
        at = d.execute_script("var t = document.getElementById('pgn'), v = t.value;"
                              "var before = v.slice(0, t.selectionStart).split('\\n');"
                              "return [before.length, before[before.length - 1].length + 1];")
        check("mixed: a click goes to the error's line and column",
              at == [int(second[0].get_attribute("data-line")),
                     int(second[0].get_attribute("data-column"))], str(at))
    Select(d.find_element(By.ID, "limit")).select_by_value("nodes")
    v = d.find_element(By.ID, "value")
    v.clear()
    v.send_keys("1000")
    d.find_element(By.ID, "analyse").click()
    check("mixed: the whole game analysed",
          wait_state(d, ("done", "failed", "timeout", "cancelled", "refused")) == "done",
          d.find_element(By.ID, "progress").text)
    check("mixed: one game in the summary",
          len(d.find_elements(By.CSS_SELECTOR, "#summary tr[data-game='1']")) == 2 and
          not d.find_elements(By.CSS_SELECTOR, "#summary tr[data-game='2']"))
    # issue 28 points 1, 2 and 5: 3. Bc5 for 3. Bb5: a suggestion button replaces the move in the
    # paste and checks again; "Repair what is clear" shows the game repaired.
    SUGGESTIONS = True
    if SUGGESTIONS:
        slip = '[Event "s"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc5 a6 4. Ba4 Nf6 *\n'
        paste(d, slip)
        d.execute_script("document.getElementById('progress').setAttribute('data-state', '')")
        d.find_element(By.ID, "show").click()
        wait_state(d, ("shown", "refused"))
        buttons = d.find_elements(By.CSS_SELECTOR, "#diagnostics button.suggestion[data-move='Bb5']")
        check("suggestions: Bb5 offered", len(buttons) == 1)
        if buttons:
            d.execute_script("document.getElementById('progress').setAttribute('data-state', '')")
            buttons[0].click()
            check("suggestions: shown after the replacement",
                  wait_state(d, ("shown", "refused")) == "shown")
            check("suggestions: the paste repaired",
                  "3. Bb5 a6" in d.find_element(By.ID, "pgn").get_attribute("value"))
        paste(d, slip)
        d.execute_script("document.getElementById('progress').setAttribute('data-state', '')")
        d.find_element(By.ID, "repair").click()
        check("repair: the game shown", wait_state(d, ("shown", "refused")) == "shown")
        check("repair: W_REPAIRED_MOVE listed",
              d.find_elements(By.CSS_SELECTOR, "#diagnostics li[data-code='W_REPAIRED_MOVE']"))
        check("repair: the game shown with the move meant",
              "Bb5" in d.find_element(By.ID, "moves").text and
              "Bc5" not in d.find_element(By.ID, "moves").text, d.find_element(By.ID, "moves").text)


def main():
    url, pgn, fens, evals, analyzed, hostile, bad, shots, nodes = sys.argv[1:10]
    fens = [l.strip() for l in open(fens) if l.strip()]
    evals = [l.strip() for l in open(evals) if l.strip()]
    profile = tempfile.mkdtemp(prefix="pgnkit-chromium-")
    d = browser(profile)
    try:
        d.get(url)
        check("title", "pgnkit" in d.title, d.title)
        # upload the file: its text lands in the text area
        d.find_element(By.ID, "file").send_keys(os.path.abspath(pgn))
        for _ in range(50):
            if d.find_element(By.ID, "pgn").get_attribute("value"):
                break
            time.sleep(0.1)
        check("upload fills the text", d.find_element(By.ID, "pgn").get_attribute("value") ==
              open(pgn).read())
        d.execute_script(OBSERVE)
        st = analyse(d, nodes)
        check("analysis done", st == "done", st + " " + d.find_element(By.ID, "progress").text)
        check("two games listed", len(d.find_elements(By.CSS_SELECTOR, "#game-list li")) == 2)
        check("summary: a row per player",
              len(d.find_elements(By.CSS_SELECTOR, "#summary tr[data-side]")) == 4)
        check("graph drawn", len(d.find_elements(By.CSS_SELECTOR, "#graph svg [id^='ply-']")) > 0)
        prog = d.find_element(By.ID, "progress")
        check("streamed, not polled", prog.get_attribute("data-transport") == "stream",
              prog.get_attribute("data-transport"))
        # every position searched came as an event: game 1 has len(fens) + 1 positions, game 2
        # three, the last a checkmate that is not searched
        moves = int(prog.get_attribute("data-moves") or 0)
        check("an event per position searched", moves == len(fens) + 1 + 2, str(moves))
        live = d.execute_script("return window.__live")
        want = [[i + 1, f] for i, f in enumerate(fens)]
        got = [x for x in live if x in want]
        check("live: the board and the graph move by move", got == want,
              "%d of %d: %s" % (len(got), len(want), str(live[:4])))
        d.find_elements(By.CSS_SELECTOR, "#game-list li")[0].click()
        d.find_element(By.ID, "first").click()
        bad_steps = []
        for i, fen in enumerate(fens):
            key(d, Keys.ARROW_RIGHT)
            shown = d.find_element(By.ID, "board").get_attribute("data-fen")
            status = d.find_element(By.ID, "status").text
            m = re.search(r"eval (\S+)", status)
            want = None if evals[i] == "none" else evals[i]
            got = m.group(1) if m else None
            if shown != fen or got != want:
                bad_steps.append((i + 1, shown, fen, got, want))
        check("every move: the board and the engine's eval", not bad_steps, str(bad_steps[:3]))
        check("download shown", d.find_element(By.ID, "download").is_displayed())
        href, text = download(d)
        check("download: a job's PGN", re.search(r"/api/jobs/[0-9a-f]{32}/pgn$", href), href)
        check("download = pgnkit analyze", text == open(analyzed).read(), text[:200])
        shot = os.path.join(shots, "serve.png")
        d.save_screenshot(shot)
        check("screenshot not blank", nonblank(shot))
        board = os.path.join(shots, "serve-board.png")
        d.find_element(By.ID, "board-box").screenshot(board)
        check("board screenshot not blank", nonblank(board))
        # the board in the picture holds the pieces of the last position (png_board_check.py)
        import subprocess
        res = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__),
                                                           "png_board_check.py"),
                              board, fens[-1].split()[0]], capture_output=True, text=True)
        check("board screenshot: the pieces of the FEN", res.returncode == 0,
              (res.stdout + res.stderr)[-300:])

        # no EventSource (an old browser): the page polls, with the same result
        d.execute_script("window.EventSource = undefined;")
        st = analyse(d, nodes)
        check("poll: analysis done", st == "done", st)
        check("poll: polled", d.find_element(By.ID, "progress").get_attribute("data-transport") ==
              "poll")
        href2, text = download(d)
        check("poll: another job", href2 != href, href2)
        check("poll: download = pgnkit analyze", text == open(analyzed).read(), text[:200])

        # hostile text: shown and analysed, nothing runs
        text = open(hostile).read()
        paste(d, text)
        d.find_element(By.ID, "show").click()
        check("hostile: shown", wait_state(d, ("shown", "refused")) == "shown")
        check("hostile: the tag as text",
              "<script>window.__pwned=1</script>" in d.find_element(By.ID, "tags").text)
        d.find_element(By.ID, "analyse").click()
        check("hostile: analysed", wait_state(d, ("done", "failed", "refused")) == "done")
        time.sleep(0.3)
        check("hostile: no script ran", d.execute_script("return window.__pwned") is None)
        check("hostile: no img", len(d.find_elements(By.CSS_SELECTOR, "#moves img, #tags img")) == 0)

        # bad PGN: the diagnostics, a click selects the move named
        paste(d, open(bad).read())
        d.find_element(By.ID, "show").click()
        check("bad: refused", wait_state(d, ("shown", "refused")) == "refused")
        items = d.find_elements(By.CSS_SELECTOR, "#diagnostics li[data-code]")
        got = [(i.get_attribute("data-line"), i.get_attribute("data-column"),
                i.get_attribute("data-code")) for i in items]
        check("bad: the diagnostics", ("3", "13", "E_BAD_SAN") in got, str(got))
        if items:
            items[0].find_element(By.CSS_SELECTOR, ".msg").click()  # not a suggestion
            sel = d.execute_script("var t = document.getElementById('pgn');"
                                   "return t.value.slice(t.selectionStart, t.selectionEnd);")
            check("bad: a click selects the move", sel == "Nf9", repr(sel))
        d.save_screenshot(os.path.join(shots, "serve-diagnostics.png"))
        mixed_test(d, open(bad).read())
        # typing in the text area moves nothing on the board
        before = d.find_element(By.ID, "board-box").get_attribute("innerHTML")
        d.execute_script("var t = document.getElementById('pgn');"
                         "t.setSelectionRange(t.value.length, t.value.length);")
        d.find_element(By.ID, "pgn").send_keys("f" + Keys.ARROW_LEFT)
        check("keys in the text stay there",
              d.find_element(By.ID, "pgn").get_attribute("value").endswith("f") and
              d.find_element(By.ID, "board-box").get_attribute("innerHTML") == before)
        errs = [e for e in d.get_log("browser") if e.get("level") == "SEVERE" and
                "422" not in e.get("message", "")]
        check("no console errors", not errs, str(errs[:3]))
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)
    print(result_line())


main()
