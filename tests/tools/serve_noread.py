#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Clients that do not read, for tests/cli/test_serve.sh (issue 36), against a pgnkit serve on
# 127.0.0.1 only: N connections (16 from each of 127.0.0.2, .3, ...: --per-client) each post PGN
# to /api/check and never read the answer (a 4 KB receive buffer). While they hold their
# connections, the server's peak memory (VmHWM of PID) is read, and a request of our own is made;
# then they stay silent until the server has closed them all (or WAIT seconds pass), and one more
# request is made. Prints "HWM_KB BUSY_CODE BUSY_SAID AFTER_CODE DROPPED": the peak, the status of the
# request made while they hold their answers and whether it names --max-answers, the status of
# the one made after, and how many of the N connections the server closed.
#   serve_noread.py PORT PID PGN N WAIT
import socket
import sys
import time
import urllib.request

port, pid, pgn, n, wait = (int(sys.argv[1]), int(sys.argv[2]), open(sys.argv[3], "rb").read(),
                           int(sys.argv[4]), float(sys.argv[5]))
url = "http://127.0.0.1:%d/api/check" % port
no_proxy = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def hwm():
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return -1


def post():
    try:
        with no_proxy.open(urllib.request.Request(url, data=pgn), timeout=20) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


socks = []
for i in range(n):
    s = socket.socket()
    s.bind(("127.0.0.%d" % (2 + i // 16), 0))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(b"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: %d\r\n\r\n"
              % (port, len(pgn)) + pgn)
    socks.append(s)
time.sleep(2)  # every answer built or refused
busy, said = post()
peak = hwm()


def held():
    """the connections from the clients the server holds (ESTABLISHED on its side)"""
    k = 0
    for line in open("/proc/net/tcp").readlines()[1:]:
        f = line.split()
        local, remote, state = f[1], f[2], f[3]
        if int(local.split(":")[1], 16) == port and state == "01" and remote[6:8] != "01":
            k += 1  # a remote of 127.0.0.2 and up, not our own requests' 127.0.0.1
    return k


end = time.time() + wait
while time.time() < end and held():
    time.sleep(0.5)
dropped = n - held()
after, _ = post()
print(peak, busy, 1 if b"--max-answers" in said else 0, after, dropped)
