# SPDX-License-Identifier: MIT
"""What the browser tests (browser_html.py, browser_serve.py) share: Debian's headless Chromium
through Selenium (chromium, chromium-driver, python3-selenium), and the pass/fail count printed as
the "RESULT passed failed skipped" line of the C suites."""
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

counts = {"passed": 0, "failed": 0}


def check(name, cond, detail=""):
    """Counts one check; a failed one prints "FAIL name detail"."""
    if cond:
        counts["passed"] += 1
    else:
        counts["failed"] += 1
        print("FAIL %s %s" % (name, detail))


def result_line():
    return "RESULT %d %d 0" % (counts["passed"], counts["failed"])


def browser(profile, height):
    """A fresh headless Chromium (user data in profile) with the browser log kept."""
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run",
              "--disable-dev-shm-usage", "--window-size=1280,%d" % height,
              "--user-data-dir=" + profile):
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
