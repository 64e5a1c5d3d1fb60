#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Slow clients for tests/cli/test_serve.sh (issue 36), against a pgnkit serve on 127.0.0.1 only:
# 64 connections, 16 from each of 127.0.0.2-5 (--per-client), send half a request's headers, then
# a normal request is timed with curl, then the slow ones send a byte every PERIOD seconds for
# WAIT seconds (never silent). Prints "CODE SECONDS OPENED HELD LEFT": the normal request's status
# and time, the slow connections opened, held by the server before it, and still open at the end.
#   serve_slow.py PORT PERIOD WAIT
import socket
import subprocess
import sys
import time

port, period, waitfor = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
socks = []
for a in range(4):  # 64 connections, 16 from each of 4 addresses (--per-client)
    for i in range(16):
        s = socket.socket()
        s.bind(("127.0.0.%d" % (a + 2), 0))
        s.settimeout(2)
        try:
            s.connect(("127.0.0.1", port))
            s.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port)
            socks.append(s)
        except OSError:
            s.close()
def alive():
    n = 0
    for s in socks:
        try:
            s.setblocking(False)
            n += 0 if s.recv(1) == b"" else 1
        except BlockingIOError:
            n += 1
        except OSError:
            pass
    return n
time.sleep(0.3)
held = alive()
t = time.time()
code = subprocess.run(["curl", "-s", "-o", "/dev/null", "-m", "5", "-w", "%{http_code}",
                       "http://127.0.0.1:%d/" % port], capture_output=True, text=True).stdout
took = time.time() - t
end = time.time() + waitfor
while time.time() < end:  # a byte every period: never silent
    time.sleep(period)
    for s in socks:
        try:
            s.send(b"X")
        except OSError:
            pass
print("%s %.2f %d %d %d" % (code, took, len(socks), held, alive()))
