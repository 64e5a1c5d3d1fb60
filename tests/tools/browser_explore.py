#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Drives Debian's headless Chromium through Selenium over the explorer panel (issue 30 point 3)
# of `pgnkit html --db` (MODE html: PAGE is the page's file) or `pgnkit serve --db` (MODE serve:
# PAGE is the server's URL; PGN is pasted and shown). Prints "FAIL ..." lines and the
# "RESULT passed failed skipped" line.
#   browser_explore.py MODE PAGE PGN PGNKIT DB SHOTDIR
# The truth is `PGNKIT db explore --db DB --json FEN` for the position the board shows: at the
# start and after each of the first plies of the game shown, the panel must list the same moves,
# in the same order, with the same games, white wins, draws and black wins. A click on the row of
# the game's next move goes to that move of the game (the move list's own node); a click on a
# move the game did not play shows the position after it (the board's pieces are its FEN's) and
# the panel then lists that position's moves. A page of pgnkit html holds the answers up to the
# first position at most one game of the database went on from: past it the panel says the
# position is not in the page, which is checked against the truth.
import json
import os
import re
import subprocess
import sys
import tempfile
import shutil
import time

from selenium.webdriver.common.by import By

from selenium_util import browser, check, result_line

mode, page, pgn, pgnkit, db, shots = sys.argv[1:7]


def truth(fen):
    out = subprocess.run([pgnkit, "db", "explore", "--db", db, "--json", fen],
                         capture_output=True, text=True, check=True).stdout
    a = json.loads(out)
    return a["games"], [(m["san"], m["games"], m["white"], m["draws"], m["black"])
                        for m in a["moves"]]


def board_fen(d):
    return d.find_element(By.ID, "board").get_attribute("data-fen")


def panel(d, fen, timeout=10):
    """The panel's rows once it shows fen's answer: (games, rows), or None."""
    end = time.time() + timeout
    while time.time() < end:
        got = d.execute_script("""
            var st = document.getElementById('explorer-status');
            if (!st || st.getAttribute('data-games') === null) return null;
            var rows = Array.prototype.map.call(document.querySelectorAll('#explorer-moves tr'),
              function (r) { return [r.getAttribute('data-san'), +r.getAttribute('data-games'),
                +r.getAttribute('data-white'), +r.getAttribute('data-draws'),
                +r.getAttribute('data-black')]; });
            return [document.getElementById('board').getAttribute('data-fen'),
                    +st.getAttribute('data-games'), rows, st.textContent,
                    st.getAttribute('data-fen')];""")
        # the board shows fen and the panel's answer is for fen (not the previous position's)
        if got and got[0] == fen and got[4] == fen and got[3] != "":
            if "not in the page" in got[3]:
                return "absent"
            return got[1], [tuple(r) for r in got[2]]
        time.sleep(0.05)
    return None


def same(d, name):
    fen = board_fen(d)
    want = truth(fen)
    got = panel(d, fen)
    if got == "absent" and mode == "html":
        # pgnkit html --db leaves out the line past a position at most one game went on from
        check(name + ": a position left out of the page is one game's", want[0] <= 1,
              "fen %s: want %s" % (fen, want))
        return want
    check(name + ": the panel lists db explore's moves and counts", got == want,
          "fen %s: got %s, want %s" % (fen, got, want))
    return want


def pieces(d):
    """The board's pieces as a FEN placement."""
    sq = d.execute_script("""
        var o = {};
        document.querySelectorAll('#board use[data-sq]').forEach(function (u) {
          o[u.getAttribute('data-sq')] = u.getAttribute('data-piece'); });
        return o;""")
    rows = []
    for r in range(8, 0, -1):
        row, empty = "", 0
        for f in "abcdefgh":
            p = sq.get(f + str(r))
            if not p:
                empty += 1
                continue
            row += (str(empty) if empty else "") + (p[1] if p[0] == "w" else p[1].lower())
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def click_row(d, san):
    rows = d.find_elements(By.CSS_SELECTOR, "#explorer-moves tr[data-san='%s']" % san)
    if not rows:
        return None
    target = rows[0].get_attribute("data-fen")
    rows[0].click()
    return target


def main():
    profile = tempfile.mkdtemp(prefix="pgnkit-explore-")
    d = browser(profile, 1000)
    try:
        if mode == "html":
            d.get("file://" + os.path.abspath(page))
        else:
            d.get(page)
            for i in ("pgn", "value", "analyse", "progress", "diagnostics"):
                check("serve: the element #%s is kept" % i, len(d.find_elements(By.ID, i)) == 1)
            d.execute_script("var t = document.getElementById('pgn'); t.value = arguments[0];"
                             "t.dispatchEvent(new Event('input'));", open(pgn).read())
            d.find_element(By.ID, "show").click()
        end = time.time() + 10
        while time.time() < end and not d.find_elements(By.CSS_SELECTOR, "#moves .mv"):
            time.sleep(0.05)
        check(mode + ": the panel is beside the board", len(d.find_elements(By.ID, "explorer")) == 1)
        start = same(d, mode + " start")
        check(mode + ": the start position has games", start[0] > 0, str(start))
        # the game's own moves, one after the other
        moves = d.find_elements(By.CSS_SELECTOR, "#moves .mv")
        first_san = moves[0].text
        for ply in range(1, 9):
            d.find_element(By.ID, "next").click()
            same(d, "%s ply %d" % (mode, ply))
        # a click on the game's first move: the move list's node
        d.find_element(By.ID, "first").click()
        panel(d, board_fen(d))
        target = click_row(d, first_san)
        check(mode + ": the game's first move is a row", target is not None, first_san)
        cur = d.find_elements(By.CSS_SELECTOR, "#moves .mv.current")
        check(mode + ": a click on the game's move goes to it in the move list",
              target and cur and cur[0].get_attribute("data-node") == "1" and
              board_fen(d).split(" ")[:3] == target.split(" ")[:3],
              "board %s, want %s" % (board_fen(d), target))
        # a move the game did not play, then one more from there
        d.find_element(By.ID, "first").click()
        panel(d, board_fen(d))
        other = [r[0] for r in start[1] if r[0] != first_san]
        check(mode + ": the database has another first move", other, str(start))
        if other:
            target = click_row(d, other[0])
            check(mode + ": a click plays %s" % other[0], board_fen(d) == target,
                  "board %s, want %s" % (board_fen(d), target))
            check(mode + ": the board shows its pieces", pieces(d) == target.split(" ")[0],
                  "%s, want %s" % (pieces(d), target))
            check(mode + ": no move of the game is current",
                  not d.find_elements(By.CSS_SELECTOR, "#moves .mv.current"))
            after = same(d, mode + " after " + other[0])
            if after[1]:
                target = click_row(d, after[1][0][0])
                check(mode + ": a second click plays on", target and board_fen(d) == target)
                same(d, mode + " after two clicks")
            d.find_element(By.ID, "first").click()
            same(d, mode + " back to the game's start")
        d.save_screenshot(os.path.join(shots, "explore-%s.png" % mode))
        errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
        check(mode + ": no error in the browser's log", not errors, str(errors[:3]))
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)
    print(result_line())


main()
