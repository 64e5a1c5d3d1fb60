#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The load test of tests/cli/test_serve.sh against a pgnkit serve on 127.0.0.1 (never another
# host): SLOW clients first open connections and send half a request, then N requests start
# together on N threads (a quarter each: the page, a check of PGN, a foreign Host, a job), then
# the slow clients are closed. Prints one line: "codes CODE:COUNT... seconds S max_ms M".
#   serve_load.py URL PGN N SLOW
import socket
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

url, pgn, n, slow = sys.argv[1], open(sys.argv[2], "rb").read(), int(sys.argv[3]), int(sys.argv[4])
u = urllib.parse.urlsplit(url)
assert u.hostname == "127.0.0.1", "the load test runs against 127.0.0.1 only"

slow_socks = []
for _ in range(slow):
    s = socket.create_connection((u.hostname, u.port))
    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % u.port)
    slow_socks.append(s)

codes, lat, lock = {}, [], threading.Lock()
barrier = threading.Barrier(n)


def one(i):
    kind = i % 4
    if kind == 0:
        req = urllib.request.Request(url)
    elif kind == 1:
        req = urllib.request.Request(url + "api/check", data=pgn)
    elif kind == 2:
        req = urllib.request.Request(url, headers={"Host": "evil.example"})
    else:
        req = urllib.request.Request(url + "api/jobs?limit=nodes&value=100", data=pgn)
    barrier.wait()
    t = time.time()
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            r.read()
            code = r.status
    except urllib.error.HTTPError as e:
        e.read()
        code = e.code
    except Exception as e:  # a lost request
        code = type(e).__name__
    with lock:
        codes[code] = codes.get(code, 0) + 1
        lat.append(time.time() - t)


t0 = time.time()
threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
for t in threads:
    t.start()
for t in threads:
    t.join()
secs = time.time() - t0
for s in slow_socks:
    s.close()
print("codes " + " ".join("%s:%d" % (k, v) for k, v in sorted(codes.items(), key=str)) +
      " seconds %.2f max_ms %d" % (secs, max(lat) * 1000))
