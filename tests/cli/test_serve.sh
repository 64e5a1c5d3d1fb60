#!/usr/bin/env bash
# Tests of pgnkit serve (issue 18 items 4 and 5) against 127.0.0.1 only, on free ports, with the
# scripted engine (tests/tools/fake_engine.c): the page and its Content-Security-Policy; Host
# refused (421) and Origin / Sec-Fetch-Site refused (403); bodies over --max-body (413, with and
# without Content-Length); bad PGN (422 with the line, column and code pgnkit check gives);
# caps on games, plies, the engine limit and the queue; a job from submit to download, its PGN
# byte for byte what pgnkit analyze writes; cancel, job timeout, idle cancel; the event stream
# (Server-Sent Events: a move each position, as it comes); --max-results (bytes held); a load
# test (200 concurrent requests, 20 slow clients: none lost, memory bounded); slow requests
# (--request-timeout, the oldest slow request closed for a new one), clients that do not read
# (--max-answers, peak memory under its bound), shutdown with a search running (the engine's
# process group, a wrapper script's child too, killed; a second signal exits at once); then headless
# Chromium (tests/tools/browser_serve.py) pastes games, analyses them with Stockfish at 2000 nodes
# while the board and graph follow the stream, compares the shown evaluations and the download
# with pgnkit analyze's, and analyses once more by polling. Prints "RESULT passed failed skipped". Needs curl, chromium, chromium-driver
# and python3-selenium (tools/deps.sh installs them): without one the suite fails.
set -u
bin=${PGNKIT_BIN:-build/pgnkit}
rel=${PGNKIT_REL_BIN:-$bin}
fake=${FAKE_ENGINE:-build/fake_engine}
py=/usr/bin/python3
here=$(cd "$(dirname "$0")/../tools" && pwd)
art=${ARTEFACTS:-build/test-artefacts}
mkdir -p "$art"
art=$(cd "$art" && pwd)
tmp=${TMPDIR:-/tmp}/pgnkit-serve.$$
mkdir -p "$tmp"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() { # name, command that must succeed
    local name=$1; shift
    if "$@"; then ok; else bad "$name"; fi
}
is() { if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi; }

for tool in curl; do
    command -v $tool >/dev/null || { echo "$tool is missing (tools/deps.sh installs it)"; echo "RESULT 0 1 0"; exit 1; }
done
if "$bin" serve --port 0 --bogus >/dev/null 2>&1; [ $? -ne 2 ]; then
    bad "serve --bogus: exit 2"
fi
check "serve --help" "$bin" serve --help >/dev/null

# start_server NAME ARGS...: runs pgnkit serve on a free port; sets url, port and srv_pid
start_server() {
    local name=$1; shift
    "$@" --port 0 >"$tmp/$name.out" 2>"$tmp/$name.err" &
    srv_pid=$!
    pids+=("$srv_pid")
    url=
    for _ in $(seq 100); do
        url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$tmp/$name.out" 2>/dev/null)
        [ -n "$url" ] && break
        kill -0 "$srv_pid" 2>/dev/null || break
        sleep 0.1
    done
    port=${url##*:}; port=${port%/}
    if [ -z "$url" ]; then
        bad "$name: the server did not start"; cat "$tmp/$name.err"
        if grep -q "without libmicrohttpd" "$tmp/$name.err"; then
            echo "RESULT $pass $fail 0"; exit 1
        fi
        return 1
    fi
}
# stop_server NAME: SIGTERM, exit 0, and no sanitizer report
stop_server() {
    kill -TERM "$srv_pid"
    wait "$srv_pid"; local st=$?
    is "$1: exit status after SIGTERM" $st 0
    if grep -q "Sanitizer" "$tmp/$1.err"; then bad "$1: sanitizer report"; head -n 30 "$tmp/$1.err"; else ok; fi
}
# code METHOD PATH [curl args...]: the HTTP status
code() {
    local m=$1 p=$2; shift 2
    curl -s -o "$tmp/body" -w '%{http_code}' -X "$m" "$@" "$url${p#/}"
}

cat >"$tmp/two.pgn" <<'EOF'
[Event "a"]
[White "Alpha"]
[Black "Beta"]

1. e4 {hello} e5 2. Nf3 (2. d4 exd4) Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 *

[Event "b"]
[White "Gamma"]
[Black "Delta"]
[FEN "6k1/p4ppp/8/8/8/8/8/1R4K1 b - - 0 1"]
[SetUp "1"]

1... a6 2. Rb8# 1-0
EOF

start_server main "$bin" serve --engine "$fake" --jobs 2 --max-body 20000 --max-games 3 --max-plies 40 \
    --queue 2 --max-nodes 100000 --idle-timeout 20 || { echo "RESULT $pass $fail 0"; exit 1; }

# a missing engine and a taken port: exit 3 with a message, at once
"$bin" serve --port 0 --engine "$tmp/no-such-engine" >/dev/null 2>"$tmp/noengine.err"
is "no engine: exit 3" $? 3
check "no engine: said" grep -q 'cannot start engine' "$tmp/noengine.err"
timeout 10 "$bin" serve --port "$port" --engine "$fake" >/dev/null 2>"$tmp/taken.err"
is "port taken: exit 3" $? 3
check "port taken: said" grep -q 'cannot listen' "$tmp/taken.err"

# ---- the page ----
is "GET /" "$(code GET / -D "$tmp/head")" 200
cp "$tmp/body" "$tmp/page.html"
check "the page has the viewer and the form" grep -q 'id="board-box"' "$tmp/page.html"
check "the page has the paste form" grep -q 'id="analyse"' "$tmp/page.html"
check "CSP: no network but this server" grep -qi "^Content-Security-Policy: default-src 'none';.*connect-src 'self'" "$tmp/head"
# the CSP names the hashes of the page's two scripts and nothing else runs
$py - "$tmp/page.html" "$tmp/head" <<'PY' && ok || bad "CSP hashes are the page's scripts'"
import base64, hashlib, re, sys
page = open(sys.argv[1], "rb").read()
head = open(sys.argv[2], "rb").read().decode()
scripts = re.findall(rb"<script>(.*?)</script>", page, re.S)
hashes = sorted(base64.b64encode(hashlib.sha256(s).digest()).decode() for s in scripts)
csp = sorted(re.findall(r"'sha256-([^']+)'", head))
sys.exit(not (len(scripts) == 2 and hashes == csp))
PY
urls=$(grep -o 'https\?://[^"\\ ]*' "$tmp/page.html" | sort -u | tr '\n' ' ')
is "page: no URL but the SVG namespaces" "$urls" "http://www.w3.org/1999/xlink http://www.w3.org/2000/svg "
check "X-Content-Type-Options" grep -qi '^X-Content-Type-Options: nosniff' "$tmp/head"
check "X-Frame-Options" grep -qi '^X-Frame-Options: DENY' "$tmp/head"
is "no other file: /etc/passwd" "$(code GET /etc/passwd)" 404
is "no other file: /../../etc/passwd" "$(code GET /../../etc/passwd --path-as-is)" 404
is "no other file: /web/viewer.js" "$(code GET /web/viewer.js)" 404
is "PUT refused" "$(code PUT /)" 405

# ---- Host (DNS rebinding) ----
is "Host: evil.example" "$(code GET / -H 'Host: evil.example')" 421
is "Host: evil.example:port" "$(code GET / -H "Host: evil.example:$port")" 421
is "Host: 127.0.0.1 without the port" "$(code GET / -H 'Host: 127.0.0.1')" 421
is "Host: 127.0.0.1.evil.example" "$(code GET / -H "Host: 127.0.0.1.evil.example:$port")" 421
is "no Host" "$(code GET / -H 'Host:')" 421
is "Host: localhost:port" "$(code GET / -H "Host: localhost:$port")" 200
is "Host: [::1]:port" "$(code GET / -H "Host: [::1]:$port")" 200
is "Host refused on the API too" "$(code POST /api/check --data-binary @"$tmp/two.pgn" -H 'Host: evil.example')" 421

# ---- Origin (CSRF) ----
is "Origin: another site" "$(code POST /api/check --data-binary @"$tmp/two.pgn" -H 'Origin: http://evil.example')" 403
is "Origin: null" "$(code POST /api/check --data-binary @"$tmp/two.pgn" -H 'Origin: null')" 403
is "Origin: https of this host" "$(code POST /api/check --data-binary @"$tmp/two.pgn" -H "Origin: https://127.0.0.1:$port")" 403
is "Origin: another port" "$(code POST /api/jobs --data-binary @"$tmp/two.pgn" -H "Origin: http://127.0.0.1:1")" 403
is "Sec-Fetch-Site: cross-site" "$(code POST /api/check --data-binary @"$tmp/two.pgn" -H 'Sec-Fetch-Site: cross-site')" 403
is "Origin: this page" "$(code POST /api/check --data-binary @"$tmp/two.pgn" -H "Origin: http://127.0.0.1:$port" -H 'Sec-Fetch-Site: same-origin')" 200
is "Origin: localhost" "$(code POST /api/check --data-binary @"$tmp/two.pgn" -H "Origin: http://localhost:$port" -H "Host: localhost:$port")" 200
check "check: the games for the viewer" grep -q '"White":"Alpha"' "$tmp/body"

# ---- body cap ----
head -c 30000 /dev/zero | tr '\0' ' ' >"$tmp/big.pgn"
is "body over --max-body" "$(code POST /api/check --data-binary @"$tmp/big.pgn")" 413
check "413 says the cap" grep -q '20000 bytes' "$tmp/body"
is "chunked body over --max-body" "$(code POST /api/jobs --data-binary @"$tmp/big.pgn" -H 'Transfer-Encoding: chunked')" 413
is "body at the cap is read" "$(code POST /api/check --data-binary @<(cat "$tmp/two.pgn"; head -c $((20000 - $(wc -c <"$tmp/two.pgn"))) /dev/zero | tr '\0' ' '))" 200

# ---- bad PGN: the diagnostics of pgnkit check ----
printf '[Event "x"]\n\n1. e4 e5 2. Nf9 Nc6 *\n\n[Event "y"]\n\n1. d4 d5 2. Ke3 *\n' >"$tmp/bad.pgn"
is "bad PGN: 422" "$(code POST /api/check --data-binary @"$tmp/bad.pgn")" 422
cp "$tmp/body" "$tmp/bad.json"
"$rel" check --diag json "$tmp/bad.pgn" 2>"$tmp/bad.check" >/dev/null
# one JSON form (issue 33): every member of check's but the file name, in the same order
$py - "$tmp/bad.json" "$tmp/bad.check" <<'PY' && ok || bad "bad PGN: the diagnostics are pgnkit check's"
import json, sys
got = json.load(open(sys.argv[1]))
want = [json.loads(l) for l in open(sys.argv[2]) if '"code"' in l]
key = lambda d: [(k, v) for k, v in d.items() if k != "file"]
sys.exit(not (want and sorted(map(key, got["diagnostics"])) == sorted(map(key, want))
              and got["errors"] == 2 and got["error"]))
PY
is "bad PGN: no job" "$(code POST /api/jobs --data-binary @"$tmp/bad.pgn")" 422
check "bad PGN job: the diagnostics" grep -q '"code":"E_ILLEGAL_MOVE"' "$tmp/body"
# a broken game beside a whole one (issue 28): the whole one is shown and analysed, every error listed
printf '[Event "x"]\n\n1. e4 e5 2. Nf9 Nc6 *\n\n[Event "y"]\n\n1. d4 d5 2. c4 *\n' >"$tmp/mixed.pgn"
is "one broken game of two: 200" "$(code POST /api/check --data-binary @"$tmp/mixed.pgn")" 200
$py - "$tmp/body" <<'PY' && ok || bad "one broken game of two: the other shown, the error listed"
import json, sys
b = json.load(open(sys.argv[1]))
sys.exit(not (b["games"] == 1 and b["broken"] == 1 and len(b["results"]) == 1
              and b["results"][0]["game"]["tags"]["Event"] == "y"
              and [(d["line"], d["column"], d["code"]) for d in b["diagnostics"]
                   if d["severity"] == "error"] == [(3, 13, "E_BAD_SAN")]))
PY
is "one broken game of two: a job" "$(code POST '/api/jobs?limit=nodes&value=1000' --data-binary @"$tmp/mixed.pgn")" 202
mixed_id=$(grep -o '"id":"[0-9a-f]*"' "$tmp/body" | cut -d'"' -f4)
check "the job: one game, the broken one counted" grep -q '"games":1,"broken":1' "$tmp/body"
for _ in $(seq 100); do
    code GET "/api/jobs/$mixed_id" >/dev/null
    grep -q '"state":"done"' "$tmp/body" && break
    sleep 0.1
done
$py - "$tmp/body" <<'PY' && ok || bad "one broken game of two: the whole one analysed"
import json, sys
b = json.load(open(sys.argv[1]))
sys.exit(not (b["state"] == "done" and len(b["results"]) == 1
              and b["results"][0]["game"]["tags"]["Event"] == "y" and b["results"][0]["analysed"]))
PY
is "no game: 422" "$(code POST /api/check --data-binary 'just text')" 422
is "empty body: 422" "$(code POST /api/check --data-binary '')" 422
for i in 1 2 3 4; do printf '[Event "%d"]\n\n1. e4 *\n\n' $i; done >"$tmp/four.pgn"
is "more than --max-games" "$(code POST /api/check --data-binary @"$tmp/four.pgn")" 422
check "--max-games named" grep -q 'max-games' "$tmp/body"
{ printf '[Event "long"]\n\n'; for i in $(seq 11); do printf 'Nf3 Nf6 Ng1 Ng8 '; done; echo '*'; } >"$tmp/long.pgn"
is "more than --max-plies" "$(code POST /api/jobs --data-binary @"$tmp/long.pgn")" 422
check "--max-plies named" grep -q 'max-plies' "$tmp/body"
is "nodes over --max-nodes" "$(code POST '/api/jobs?limit=nodes&value=100001' --data-binary @"$tmp/two.pgn")" 400
is "an unknown limit" "$(code POST '/api/jobs?limit=mate&value=1' --data-binary @"$tmp/two.pgn")" 400
is "a value that is no number" "$(code POST '/api/jobs?limit=depth&value=1e3' --data-binary @"$tmp/two.pgn")" 400
is "depth 0" "$(code POST '/api/jobs?limit=depth&value=0' --data-binary @"$tmp/two.pgn")" 400

# ---- hostile text stays JSON text ----
cat >"$tmp/hostile.pgn" <<'PGN'
[Event "<script>window.__pwned=1</script>"]
[White "</svg><svg onload=window.__pwned=1>"]
[Black "\"><img src=x onerror=window.__pwned=1>"]

{<script>window.__pwned=1</script>} 1. e4 {</script><img src=x onerror=window.__pwned=1>} e5 *
PGN
is "hostile: shown" "$(code POST /api/check --data-binary @"$tmp/hostile.pgn")" 200
check "hostile: no < in the JSON" [ "$(grep -c '<script\|<img\|</svg><svg' "$tmp/body")" -eq 0 ]

# ---- a job: submit, poll, download; the PGN is pgnkit analyze's ----
is "submit" "$(code POST '/api/jobs?limit=nodes&value=1000' --data-binary @"$tmp/two.pgn" -H "Origin: http://127.0.0.1:$port")" 202
id=$(grep -o '"id":"[0-9a-f]*"' "$tmp/body" | cut -d'"' -f4)
is "job id: 32 hex digits" "${#id}" 32
state=
for _ in $(seq 100); do
    code GET "/api/jobs/$id" >/dev/null
    state=$(grep -o '"state":"[a-z]*"' "$tmp/body" | cut -d'"' -f4)
    [ "$state" = done ] || [ "$state" = failed ] && break
    sleep 0.1
done
is "job done" "$state" done
check "job: 2 games done" grep -q '"games_done":2' "$tmp/body"
check "job: stats" grep -q '"stats":{"white":{' "$tmp/body"
is "from=1: one result" "$(code GET "/api/jobs/$id?from=1" >/dev/null; grep -o '"game":{' "$tmp/body" | wc -l)" 1
is "from=2: no result" "$(code GET "/api/jobs/$id?from=2" >/dev/null; grep -o '"game":{' "$tmp/body" | wc -l)" 0
is "download" "$(code GET "/api/jobs/$id/pgn" -D "$tmp/head")" 200
cp "$tmp/body" "$tmp/served.pgn"
check "download: attachment" grep -qi '^Content-Disposition: attachment' "$tmp/head"
"$rel" analyze --engine "$fake" --nodes 1000 "$tmp/two.pgn" >"$tmp/analyze.pgn" 2>/dev/null
check "download = pgnkit analyze --nodes 1000" cmp -s "$tmp/served.pgn" "$tmp/analyze.pgn"
is "unknown job" "$(code GET /api/jobs/0123456789abcdef0123456789abcdef)" 404
is "not a job id" "$(code GET /api/jobs/../../etc/passwd --path-as-is)" 404
is "cancel: Origin checked" "$(code POST "/api/jobs/$id/cancel" -H 'Origin: http://evil.example')" 403
is "cancel a finished job" "$(code POST "/api/jobs/$id/cancel")" 200
stop_server main

# ---- --open: the URL given to $BROWSER once the page is served (here a script that fetches it) ----
cat >"$tmp/browser.sh" <<EOF
#!/bin/sh
echo "\$1" >"$tmp/opened.url"
curl -s -o /dev/null -w '%{http_code}' "\$1" >"$tmp/opened.code"
EOF
chmod +x "$tmp/browser.sh"
export BROWSER="$tmp/browser.sh"
if start_server open "$bin" serve --engine "$fake" --open; then
    for _ in $(seq 100); do [ -s "$tmp/opened.code" ] && break; sleep 0.1; done
    is "--open gives the page's URL to \$BROWSER" "$(cat "$tmp/opened.url" 2>/dev/null)" "$url"
    is "--open: the page answers the browser" "$(cat "$tmp/opened.code" 2>/dev/null)" 200
    stop_server open
fi
unset BROWSER

# ---- queue, cancel, timeouts (an engine that answers only to "stop": 300 ms a search) ----
export FAKE_ENGINE_MODE=slow
start_server slow "$bin" serve --engine "$fake" --queue 1 --move-timeout 300 --job-timeout 3 \
    --idle-timeout 2 || { echo "RESULT $pass $fail 0"; exit 1; }
submit() { code POST '/api/jobs?limit=nodes&value=1000' --data-binary @"$1" >/dev/null; grep -o '"id":"[0-9a-f]*"' "$tmp/body" | cut -d'"' -f4; }
state_of() { code GET "/api/jobs/$1" >/dev/null; grep -o '"state":"[a-z]*"' "$tmp/body" | cut -d'"' -f4; }
a=$(submit "$tmp/two.pgn")
b=$(submit "$tmp/two.pgn")
state_of "$a" >/dev/null # a is asked for (--idle-timeout 2 counts from its last poll)
is "the queue is full: 503" "$(code POST /api/jobs --data-binary @"$tmp/two.pgn")" 503
is "queued behind the running job" "$(state_of "$b")" queued
is "cancel the queued job" "$(code POST "/api/jobs/$b/cancel")" 200
is "cancelled" "$(state_of "$b")" cancelled
# job a: 16 searches of 300 ms, more than --job-timeout 3 s; polled, so not idle
for _ in $(seq 60); do s=$(state_of "$a"); [ "$s" = running ] || break; sleep 0.2; done
is "past --job-timeout" "$s" timeout
check "live: the last position searched" grep -Eq '"live":\{"game":1,"ply":[0-9]+,"eval":"-?[0-9]+\.[0-9]{2}"\}' "$tmp/body"
check "timeout: the reason" grep -q 'job-timeout' "$tmp/body"
# a job nobody polls is cancelled after --idle-timeout
c=$(submit "$tmp/two.pgn")
sleep 3.5
is "not polled: cancelled" "$(state_of "$c")" cancelled
check "idle: the reason" grep -q 'stopped asking' "$tmp/body"
# a running job cancelled from the page
d=$(submit "$tmp/two.pgn")
sleep 0.5
code POST "/api/jobs/$d/cancel" >/dev/null
for _ in $(seq 30); do s=$(state_of "$d"); [ "$s" = running ] || break; sleep 0.2; done
is "a running job cancelled" "$s" cancelled
# the event stream: each position's "move" as the engine gives it, not at the end; a page that
# only reads the stream still asks for its job (no idle cancel: it runs into --job-timeout)
is "events of an unknown job" "$(code GET /api/jobs/0123456789abcdef0123456789abcdef/events)" 404
is "events: Host checked" "$(code GET "/api/jobs/$d/events" -H 'Host: evil.example')" 421
f=$(submit "$tmp/two.pgn")
curl -s -N -D "$tmp/ev.head" --max-time 20 "${url}api/jobs/$f/events" >"$tmp/events" &
cpid=$!
sleep 1.2
check "events: moves before the end" grep -q '^event: move' "$tmp/events"
check "events: not ended yet" [ "$(grep -c '^event: end' "$tmp/events")" -eq 0 ]
wait "$cpid"
is "events: the stream ends with the job" "$(tail -n 3 "$tmp/events" | head -n 2 | tr '\n' ' ')" \
    "event: end data: {\"state\":\"timeout\",\"games_done\":0} "
check "events: text/event-stream" grep -qi '^Content-Type: text/event-stream' "$tmp/ev.head"
is "events: a job read only by its stream is not idle" "$(state_of "$f")" timeout
done_n=$(grep -o '"positions_done":[0-9]*' "$tmp/body" | cut -d: -f2)
is "events: one move a position searched" "$(grep -c '^event: move' "$tmp/events")" "$done_n"
is "events: the plies in order" "$(grep -o '"ply":[0-9]*' "$tmp/events" | cut -d: -f2 | tr '\n' ' ')" \
    "$(seq 0 $((done_n - 1)) | tr '\n' ' ')"
# a stream open while the server stops: it ends, the server exits 0 (stop_server)
g=$(submit "$tmp/two.pgn")
curl -s -N --max-time 20 "${url}api/jobs/$g/events" >/dev/null &
cpid=$!
sleep 0.5
stop_server slow
wait "$cpid"; is "events: the stream ends when the server stops" $? 0
unset FAKE_ENGINE_MODE

# ---- load: 200 concurrent requests, 20 slow clients; none lost, memory bounded ----
start_server load "$rel" serve --engine "$fake" --queue 100 --max-nodes 1000 --connections 256 \
    --per-client 256 ||
    { echo "RESULT $pass $fail 0"; exit 1; }
rss() { awk '/^VmRSS/ {print $2}' "/proc/$srv_pid/status"; }
hwm() { awk '/^VmHWM/ {print $2}' "/proc/$srv_pid/status"; }
rss0=$(rss)
res=$($py "$here/serve_load.py" "$url" "$tmp/two.pgn" 200 20)
echo "load: $res"
is "load: every request answered" "$(grep -o 'codes [^s]*' <<<"$res")" "codes 200:100 202:50 421:50 "
is "load: still answering" "$(code GET /)" 200
rss1=$(rss) hwm1=$(hwm)
echo "load: server RSS $rss0 kB before, $rss1 kB after, peak $hwm1 kB"
check "load: peak memory under 100 MB" [ "$hwm1" -lt 100000 ]
# the 50 queued jobs drain: one more job, behind them in the queue, finishes
e=$(submit "$tmp/two.pgn")
for _ in $(seq 150); do s=$(state_of "$e"); [ "$s" = queued ] || [ "$s" = running ] || break; sleep 0.2; done
is "load: the queue drains" "$s" done
stop_server load

# ---- slow clients (issue 31 point 3, issue 36): 300 connections from 127.0.0.2 that send their
# headers a byte a second hold --per-client of them; a request from 127.0.0.1 is answered at once
start_server slowloris "$bin" serve --engine "$fake" || { echo "RESULT $pass $fail 0"; exit 1; }
res=$($py - "$port" <<'PY'
import socket, subprocess, sys, time
port = int(sys.argv[1])
socks = []
for i in range(300):
    s = socket.socket()
    s.bind(("127.0.0.2", 0))
    s.settimeout(2)
    try:
        s.connect(("127.0.0.1", port))
        s.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port)
        socks.append(s)
    except OSError:
        s.close()
for _ in range(2):  # a byte a second keeps each one from timing out on silence
    time.sleep(1)
    for s in socks:
        try:
            s.send(b"X")
        except OSError:
            pass
held = 0
for s in socks:
    try:
        s.setblocking(False)
        held += 0 if s.recv(1) == b"" else 1
    except BlockingIOError:
        held += 1
    except OSError:
        pass
t = time.time()
code = subprocess.run(["curl", "-s", "-o", "/dev/null", "-m", "5", "-w", "%{http_code}",
                       "http://127.0.0.1:%d/" % port], capture_output=True, text=True).stdout
print("%s %.2f %d" % (code, time.time() - t, held))
PY
)
read -r scode stime sheld <<<"$res"
echo "slow clients: answer $scode in $stime s, $sheld of 300 slow connections held by the server"
is "300 slow clients: a request answered" "$scode" 200
check "300 slow clients: answered within 2 s" awk -v t="$stime" 'BEGIN { exit !(t < 2) }'
check "300 slow clients: at most --per-client (16) held" [ "${sheld:-300}" -le 16 ]
stop_server slowloris
# ---- slow requests (issue 36): 64 connections from four addresses that send a byte every second
# hold every connection (--connections 64): a new request is answered at once (the oldest slow
# request makes room), and past --request-timeout (3 s) every slow one is closed although it is
# never silent for --timeout (2 s)
start_server slowreq "$bin" serve --engine "$fake" --timeout 2 --request-timeout 3 ||
    { echo "RESULT $pass $fail 0"; exit 1; }
read -r scode stime sopen sheld sleft <<<"$($py "$here/serve_slow.py" "$port" 1 4.5)"
echo "slow requests: answer $scode in $stime s; $sheld of $sopen slow connections held, $sleft left after 4.5 s"
is "64 slow requests: a request answered" "$scode" 200
check "64 slow requests: answered within 2 s" awk -v t="$stime" 'BEGIN { exit !(t < 2) }'
check "64 slow requests: held by the server at first" [ "${sheld:-0}" -ge 60 ]
is "64 slow requests: all closed past --request-timeout" "$sleft" 0
stop_server slowreq
# ---- clients that do not read (issue 36): answers not yet sent count in --max-answers (16 MiB
# here); past it new work gets 503 saying so, and the server's peak memory stays under the bound of
# docs/design.md: 10 MB + --max-answers + 5 x each of the two answers being built at once. 60
# clients post a 400 KB paste (one game, 70,000 moves in variations: a 6.5 MB answer) and never
# read; the server drops them after --timeout (2 s), and then answers again
$py -c "
import sys
v = ' (1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8)'
sys.stdout.write('[Event \"v\"]\n\n1. e4' + v * (400000 // len(v)) + ' e5 *\n')" >"$tmp/var.pgn"
start_server noread "$rel" serve --engine "$fake" --max-answers 16777216 --timeout 2 ||
    { echo "RESULT $pass $fail 0"; exit 1; }
asize=$(curl -s -o /dev/null -w '%{size_download}' --data-binary @"$tmp/var.pgn" "${url}api/check")
read -r hwm bcode bsaid acode dropped <<<"$($py "$here/serve_noread.py" "$port" "$srv_pid" "$tmp/var.pgn" 60 10)"
bound=$((10240 + 16384 + 10 * asize / 1024))
echo "60 clients that do not read a $asize-byte answer: peak $hwm kB (bound $bound kB); a request meanwhile: $bcode; $dropped of 60 dropped; then $acode"
check "no reader: one answer is several MB" [ "${asize:-0}" -gt 4000000 ]
check "no reader: peak memory under the bound" [ "${hwm:-999999999}" -lt "$bound" ]
is "no reader: new work refused meanwhile" "$bcode" 503
is "no reader: the refusal names --max-answers" "$bsaid" 1
is "no reader: all 60 dropped" "$dropped" 60
is "no reader: answered again after" "$acode" 200
stop_server noread
# --bind beyond loopback: a warning; loopback: none
start_server wide "$bin" serve --engine "$fake" --bind 0.0.0.0 || { echo "RESULT $pass $fail 0"; exit 1; }
check "--bind 0.0.0.0: a warning" grep -q 'warning: 0.0.0.0 is reachable beyond this machine' "$tmp/wide.err"
stop_server wide
check "--bind 127.0.0.1: no warning" bash -c "! grep -q warning '$tmp/slowloris.err'"

# ---- shutdown (issue 36): a signal stops the running search at once ('stop', then the engine's
# process group killed after a second's grace), a wrapper script's own children die with it, and a
# second signal exits at once. The engine: a wrapper script that starts a child, then the scripted
# engine that never answers 'go' (FAKE_ENGINE_MODE=hang)
cat >"$tmp/wrap.sh" <<EOF
#!/bin/sh
sleep 300 &
echo \$! >"$tmp/child.pid"
"$(cd "$(dirname "$fake")" && pwd)/$(basename "$fake")"
EOF
chmod +x "$tmp/wrap.sh"
gone() { # PID: no such process, or a zombie left to init
    local st; st=$(ps -o stat= -p "$1" 2>/dev/null)
    [ -z "$st" ] || [ "${st#Z}" != "$st" ]
}
for how in once twice; do
    FAKE_ENGINE_MODE=hang start_server "halt$how" "$bin" serve --engine "$tmp/wrap.sh" \
        --move-timeout 60000 || { echo "RESULT $pass $fail 0"; exit 1; }
    e=$(submit "$tmp/two.pgn")
    for _ in $(seq 50); do [ "$(state_of "$e")" = running ] && break; sleep 0.1; done
    is "shutdown ($how): the search is running" "$(state_of "$e")" running
    child=$(cat "$tmp/child.pid")
    check "shutdown ($how): the wrapper's child runs" bash -c "[ -n \"\$(ps -o stat= -p $child)\" ]"
    t0=$(date +%s%N)
    kill -INT "$srv_pid"
    if [ $how = twice ]; then sleep 0.2; kill -INT "$srv_pid"; fi
    wait "$srv_pid"; st=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    echo "shutdown ($how) with a search running: $ms ms"
    is "shutdown ($how): exit 0" $st 0
    if [ $how = once ]; then
        check "shutdown: within 3 s of a search of 60 s" [ $ms -lt 3000 ]
    else
        check "shutdown: a second signal exits at once" [ $ms -lt 800 ]
        check "shutdown: a second signal, said" grep -q 'again: exiting now' "$tmp/halt$how.err"
    fi
    sleep 0.2
    check "shutdown ($how): the wrapper's child is killed" gone "$child"
    check "shutdown ($how): no engine left" bash -c "! pgrep -f '^/bin/sh $tmp/wrap.sh' >/dev/null"
    if grep -q "Sanitizer" "$tmp/halt$how.err"; then bad "halt$how: sanitizer report"; fi
done

# ---- --max-results: the bytes jobs hold; the oldest finished job goes first ----
start_server bytes "$bin" serve --engine "$fake" || { echo "RESULT $pass $fail 0"; exit 1; }
run_job() { # the id of a job over $1 that ran to its end
    local i s; i=$(submit "$1")
    for _ in $(seq 100); do s=$(state_of "$i"); [ "$s" = queued ] || [ "$s" = running ] || break; sleep 0.1; done
    echo "$i"
}
a=$(run_job "$tmp/two.pgn")
one=$(grep -o '"bytes":[0-9]*' "$tmp/body" | cut -d: -f2)
stop_server bytes
echo "a finished job over two.pgn holds $one bytes"
start_server bytes "$bin" serve --engine "$fake" --max-results $((one * 3 / 2)) || { echo "RESULT $pass $fail 0"; exit 1; }
a=$(run_job "$tmp/two.pgn")
is "one job within --max-results" "$(state_of "$a")" done
b=$(run_job "$tmp/two.pgn")
is "the next job too" "$(state_of "$b")" done
is "the first dropped to make room (the count cap would keep it)" "$(code GET "/api/jobs/$a")" 404
is "the second kept" "$(code GET "/api/jobs/$b/pgn")" 200
check "the second's download = pgnkit analyze" cmp -s "$tmp/body" "$tmp/analyze.pgn"
stop_server bytes
start_server bytes "$bin" serve --engine "$fake" --max-results $((one / 2)) || { echo "RESULT $pass $fail 0"; exit 1; }
a=$(run_job "$tmp/two.pgn")
is "a job over --max-results alone: stopped" "$(state_of "$a")" failed
check "stopped: the reason" grep -q 'max-results' "$tmp/body"
stop_server bytes

# ---- a variant game: analysed only by an engine that lists it in UCI_Variant (docs/variants.md) ----
zh=${PGNKIT_SHARED:-../shared}/corpus/edge/variants/python-chess-saturs-jannlee-zh-lichess.pgn
start_server variant "$bin" serve --engine "$fake" || { echo "RESULT $pass $fail 0"; exit 1; }
a=$(run_job "$zh")
is "a crazyhouse game, an engine without UCI_Variant: the job ends" "$(state_of "$a")" done
check "the reason: the variant the engine does not list" \
    grep -q "game 1 not analysed: a Crazyhouse game, and the engine .* does not list 'crazyhouse'" "$tmp/body"
stop_server variant
fsf=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
if [ ! -x "$fsf" ]; then
    bad "no fairy-stockfish (Debian package fairy-stockfish; tools/deps.sh installs it)"
else
    start_server variant "$bin" serve --engine "$fsf" || { echo "RESULT $pass $fail 0"; exit 1; }
    a=$(run_job "$zh")
    is "crazyhouse on Fairy-Stockfish: done" "$(state_of "$a")" done
    check "no game left unanalysed" sh -c "! grep -q 'not analysed' '$tmp/body'"
    is "its download" "$(code GET "/api/jobs/$a/pgn")" 200
    check "the download: evals from the engine, the Variant tag kept" \
        sh -c "grep -q '%eval' '$tmp/body' && grep -q '^\[Variant \"Crazyhouse\"\]' '$tmp/body'"
    stop_server variant
fi

# ---- Stockfish: the download is pgnkit analyze's with the same node count ----
sf=$(command -v stockfish || echo /usr/games/stockfish)
if [ ! -x "$sf" ]; then
    bad "no stockfish (Debian package stockfish; tools/deps.sh installs it)"
else
    start_server stockfish "$bin" serve --engine "$sf" || { echo "RESULT $pass $fail 0"; exit 1; }
    e=$(code POST '/api/jobs?limit=nodes&value=5000' --data-binary @"$tmp/two.pgn" >/dev/null
        grep -o '"id":"[0-9a-f]*"' "$tmp/body" | cut -d'"' -f4)
    for _ in $(seq 300); do s=$(state_of "$e"); [ "$s" = queued ] || [ "$s" = running ] || break; sleep 0.2; done
    is "stockfish: job done" "$s" done
    code GET "/api/jobs/$e/pgn" >/dev/null
    "$rel" analyze --engine "$sf" --nodes 5000 "$tmp/two.pgn" >"$tmp/sf.pgn" 2>/dev/null
    check "stockfish: download = pgnkit analyze --nodes 5000" cmp -s "$tmp/body" "$tmp/sf.pgn"
    check "stockfish: the blunder found" grep -q 'Blunder' "$tmp/body"
    stop_server stockfish
fi

# ---- the browser ----
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ] || ! $py -c 'import selenium' 2>/dev/null; then
    echo "chromium, chromium-driver or python3-selenium is missing (tools/deps.sh installs them)"
    echo "RESULT $pass $((fail + 1)) 0"; exit 1
fi
# Stockfish at 2000 nodes, one thread and a fixed hash: deterministic, so the page's download
# must be pgnkit analyze's byte for byte (checked here: two runs of analyze agree)
sfopts=(--threads 1 --hash 16)
"$rel" analyze --engine "$sf" --nodes 2000 "${sfopts[@]}" "$tmp/two.pgn" >"$tmp/sf2000.pgn" 2>/dev/null
"$rel" analyze --engine "$sf" --nodes 2000 "${sfopts[@]}" "$tmp/two.pgn" >"$tmp/sf2000b.pgn" 2>/dev/null
check "stockfish --nodes 2000 --threads 1: deterministic" cmp -s "$tmp/sf2000.pgn" "$tmp/sf2000b.pgn"
start_server browser "$bin" serve --engine "$sf" "${sfopts[@]}" || { echo "RESULT $pass $fail 0"; exit 1; }
# the first game's main-line positions, and what Stockfish said of each in analyze's output
"$rel" convert --to fen "$tmp/two.pgn" 2>/dev/null | awk 'BEGIN{RS=""} NR==1' >"$tmp/fens"
"$rel" convert --to ndjson "$tmp/sf2000.pgn" 2>/dev/null | $py -c '
import json, sys
game = json.loads(sys.stdin.readline())
for m in game["moves"]:
    ev = [c for c in (m.get("comment") or {}).get("commands", []) if c["name"] == "eval"]
    if not ev:
        print("none")
    elif "mate" in ev[0]:
        print("#%d" % ev[0]["mate"])
    else:
        print("%.2f" % (ev[0]["cp"] / 100))
' >"$tmp/evals"
is "evals: one a position" "$(wc -l <"$tmp/evals")" "$(wc -l <"$tmp/fens")"
out=$($py "$here/browser_serve.py" "$url" "$tmp/two.pgn" "$tmp/fens" "$tmp/evals" "$tmp/sf2000.pgn" \
    "$tmp/hostile.pgn" "$tmp/bad.pgn" "$art" 2000 2>&1)
line=$(grep '^RESULT ' <<<"$out" | tail -n 1)
if [ -z "$line" ]; then
    bad "browser: no RESULT"; tail -n 15 <<<"$out"
else
    grep '^FAIL' <<<"$out"
    read -r _ p f _ <<<"$line"
    pass=$((pass + p)); fail=$((fail + f))
fi
is "explore without --db: 404" "$(code GET '/api/explore?fen=x')" 404
stop_server browser

# ---- the explorer panel (issue 30 point 3): serve --db ----
# a database of 300 games of TWIC 1427; GET /api/explore answers what pgnkit db explore --json
# does, and in Chromium the panel beside the board lists it and a click plays a move
twic=${PGNKIT_SHARED:-../shared}/corpus/big/twic/twic1427.pgn.gz
gzip -dc "$twic" | awk '/^\[Event /{n++} n<=300' >"$tmp/ex.pgn"
"$rel" db import "$tmp/ex.pgn" --db "$tmp/ex.db" >/dev/null 2>&1
check "explorer: db import" [ -s "$tmp/ex.db" ]
"$bin" serve --port 0 --engine "$fake" --db "$tmp/no-such.db" >/dev/null 2>"$tmp/nodb.err"
is "explorer: no such database: exit 3" $? 3
check "explorer: no such database: the message names --db" grep -q "serve --db: $tmp/no-such.db" "$tmp/nodb.err"
start_server explore "$bin" serve --engine "$fake" --db "$tmp/ex.db" || { echo "RESULT $pass $fail 0"; exit 1; }
for moves in "" "e4" "e4 c5 Nf3" "d4 Nf6 c4 e6"; do
    fen=$("$rel" db explore --db "$tmp/ex.db" --json $moves | $py -c 'import json, sys; print(json.load(sys.stdin)["fen"])')
    is "explore '$moves': 200" "$(code GET "/api/explore" -G --data-urlencode "fen=$fen")" 200
    check "explore '$moves': the counts of db explore --json" $py -c '
import json, subprocess, sys
a, b = json.load(open(sys.argv[1])), json.loads(subprocess.run(sys.argv[2:], capture_output=True).stdout)
row = lambda m: (m["san"], m["uci"], m["games"], m["white"], m["draws"], m["black"], m["elo"])
sys.exit(not (a["fen"] == b["fen"] and a["games"] == b["games"] > 0 and
              [row(m) for m in a["moves"]] == [row(m) for m in b["moves"]]))' "$tmp/body" \
        "$rel" db explore --db "$tmp/ex.db" --json $moves
done
is "explore: not a FEN: 400" "$(code GET '/api/explore?fen=rnbqkbnr%2Fpppppppp')" 400
is "explore: no fen: 400" "$(code GET '/api/explore')" 400
check "explore: the page's CSP allows the panel's script" sh -c \
    "curl -s -D - -o /dev/null '$url' | grep -i '^content-security-policy' | grep -o \"'sha256-\" | wc -l | grep -qx 3"
awk '/^\[Event /{n++} n==1' "$tmp/ex.pgn" >"$tmp/ex1.pgn"
out=$($py "$here/browser_explore.py" serve "$url" "$tmp/ex1.pgn" "$rel" "$tmp/ex.db" "$art" 2>&1)
line=$(grep '^RESULT ' <<<"$out" | tail -n 1)
if [ -z "$line" ]; then
    bad "browser (explorer): no RESULT"; tail -n 15 <<<"$out"
else
    grep '^FAIL' <<<"$out"
    read -r _ p f _ <<<"$line"
    pass=$((pass + p)); fail=$((fail + f))
fi
stop_server explore
echo "screenshots: $art"
echo "RESULT $pass $fail 0"
[ $fail -eq 0 ]
