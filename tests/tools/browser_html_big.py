#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The pages pgnkit html makes of big collections, in Debian's headless Chromium (Selenium), for
# tests/cli/test_html.sh (issues 31, 34, 36). Prints "FAIL ..." lines and the "RESULT" line.
#   browser_html_big.py SMALL LASTFENS [BIG SECONDS]
#   SMALL: a page of games without evaluations (FENs left out of the page: the viewer plays the
#   UCI moves); LASTFENS: the position after the last move of each of its games (`pgnkit convert
#   --to fen`): at each game's end the board must show it, and the graph box must hold the line
#   about pgnkit analyze, no SVG. BIG: a page that must show its first game's board and list within
#   SECONDS of being asked for.
import os
import shutil
import sys
import tempfile
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from selenium_util import browser, check, result_line


def main():
    small, lastfens = sys.argv[1:3]
    big = sys.argv[3] if len(sys.argv) > 4 else None
    want = [l.split()[0] for l in open(lastfens) if l.strip()]
    profile = tempfile.mkdtemp(prefix="pgnkit-chromium-")
    d = browser(profile, 900)
    d.set_page_load_timeout(120)
    try:
        d.get("file://" + os.path.abspath(small))
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
        if big:
            big_page(d, big, sys.argv[4])
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)
    print(result_line())


def big_page(d, big, seconds):
    t = time.time()
    d.get("file://" + os.path.abspath(big))
    ok = d.find_elements(By.CSS_SELECTOR, "#board") and \
        len(d.find_elements(By.CSS_SELECTOR, "#game-list li")) > 0
    took = time.time() - t
    print("big page shown in %.2f s" % took)
    check("big page: shown within %s s" % seconds, ok and took < float(seconds), "%.2f s" % took)


main()
