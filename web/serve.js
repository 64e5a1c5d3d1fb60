// SPDX-License-Identifier: MIT
// The paste form of `pgnkit serve`: "Show" reads the PGN on the server (POST /api/check) and
// shows its diagnostics or its games in the viewer (viewer.js); "Analyse" queues a job (POST
// /api/jobs) and follows it on its event stream (GET /api/jobs/ID/events, Server-Sent Events):
// each position the engine has searched moves the board there and adds its point to the eval
// graph, each finished game is fetched (GET /api/jobs/ID?from=N) into the viewer. Without
// EventSource, or when the stream fails, the page polls GET /api/jobs/ID?from=N instead.
// "Download" is GET /api/jobs/ID/pgn. Texts reach the page only through textContent.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var job = null, results = [], timer = null, pending = [], live = null, es = null;
  var inflight = false, again = false;
  var SVGNS = "http://www.w3.org/2000/svg";

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function progress(text, state) {
    $("progress").textContent = text;
    $("progress").setAttribute("data-state", state || "");
  }
  // where line and column (1-based; the column counts characters) are in the text; -1 past it
  function offset(t, line, column) {
    var start = 0;
    for (var i = 1; i < line && start >= 0; i++) {
      start = t.indexOf("\n", start);
      if (start >= 0) start++;
    }
    if (start < 0) return -1;
    var end = t.indexOf("\n", start);
    end = end < 0 ? t.length : end;
    return Math.min(start + Math.max(column, 1) - 1, end);
  }
  // the place a diagnostic names: its token selected when the text there is the token, else the
  // cursor put there
  function goTo(x) {
    var t = $("pgn").value, at = offset(t, x.line, x.column);
    if (at < 0) return;
    var tok = x.token || "";
    $("pgn").focus();
    $("pgn").setSelectionRange(at, tok && t.substr(at, tok.length) === tok ? at + tok.length : at);
  }
  // a suggestion taken: the token replaced by the move in the text, which is checked again
  function replaceMove(x, move) {
    var t = $("pgn").value, at = offset(t, x.line, x.column), tok = x.token || "";
    if (at < 0 || !tok || t.substr(at, tok.length) !== tok) {
      progress("the text changed: " + tok + " is no longer at line " + x.line, "refused");
      return;
    }
    $("pgn").value = t.slice(0, at) + move + t.slice(at + tok.length);
    check();
  }
  function showDiagnostics(d) {
    var box = $("diagnostics");
    box.textContent = "";
    if (d.error) box.appendChild(el("li", "error", d.error));
    (d.diagnostics || []).forEach(function (x) {
      // the text (span.msg), then the suggestions on their own line; the token is the paste's
      // text: isolated (<bdi>) from the rest of the line (issue 36)
      var li = el("li", x.severity), msg = el("span", "msg",
        "line " + x.line + ", column " + x.column + ": " + x.severity + ": " + x.message);
      li.appendChild(msg);
      if (x.token) {
        msg.appendChild(document.createTextNode(" '"));
        msg.appendChild(el("bdi", null, x.token));
        msg.appendChild(document.createTextNode("'"));
      }
      msg.appendChild(document.createTextNode((x.replacement ? " \u2192 '" + x.replacement + "'" : "") +
                                              " [" + x.code + "] (game " + x.game + ")"));
      li.setAttribute("data-line", x.line);
      li.setAttribute("data-column", x.column);
      li.setAttribute("data-code", x.code);
      li.addEventListener("click", function () { goTo(x); });
      if (x.suggestions && x.suggestions.length) {
        var row = el("span", "suggestions", "did you mean ");
        x.suggestions.forEach(function (m) {
          var b = el("button", "suggestion", m);
          b.type = "button";
          b.setAttribute("data-move", m);
          b.addEventListener("click", function (e) { e.stopPropagation(); replaceMove(x, m); });
          row.appendChild(b);
        });
        li.appendChild(row);
      }
      box.appendChild(li);
    });
    var more = (d.errors || 0) + (d.warnings || 0) - (d.diagnostics || []).length;
    if (more > 0) box.appendChild(el("li", "note", "and " + more + " more"));
  }
  // what the server says of a paste that reads: the games shown, and the ones left out
  function counted(b) {
    return b.games + (b.games === 1 ? " game" : " games") +
           (b.broken ? ", " + b.broken + " left out for errors" : "");
  }
  function fixArg() { return $("fix").checked ? "fix=1" : ""; }
  function post(url, body) {
    return fetch(url, { method: "POST", body: body, credentials: "same-origin",
                        headers: { "Content-Type": "text/plain; charset=utf-8" } })
      .then(function (r) {
        return r.json().then(function (j) { return { status: r.status, body: j }; },
                             function () { return { status: r.status, body: { error: "HTTP " + r.status } }; });
      });
  }
  function busy(on) {
    $("analyse").disabled = on;
    $("show").disabled = on;
    $("repair").disabled = on;
    $("cancel").disabled = !on;
  }
  function fmt(v) { return v === null || v === undefined ? "\u2013" : String(v); }
  function summary() {
    var t = $("summary");
    t.textContent = "";
    var head = el("tr");
    ["game", "player", "inaccuracies", "mistakes", "blunders", "ACPL", "accuracy"].forEach(
      function (h) { head.appendChild(el("th", null, h)); });
    t.appendChild(head);
    results.forEach(function (r, i) {
      if (!r.stats) return;
      [["white", "White"], ["black", "Black"]].forEach(function (side) {
        var s = r.stats[side[0]], tr = el("tr");
        tr.setAttribute("data-game", i + 1);
        tr.setAttribute("data-side", side[0]);
        var name = r.game.tags[side[1]];
        [String(i + 1) + (r.analysed ? "" : " (not analysed)"),
         side[1] + ": " + (name === undefined ? "?" : name).slice(0, 80),
         s.inaccuracies, s.mistakes, s.blunders, fmt(s.acpl), fmt(s.accuracy)].forEach(
          function (v) { tr.appendChild(el("td", null, String(v))); });
        t.appendChild(tr);
      });
    });
    t.hidden = !results.length;
  }
  function getStatus(then) {
    fetch("/api/jobs/" + job + "?from=" + results.length, { credentials: "same-origin" })
      .then(function (r) { return r.json().then(function (j) { return { status: r.status, body: j }; }); })
      .then(function (r) {
        if (r.status !== 200) { finish("error: " + (r.body.error || r.status), "failed"); return; }
        then(r.body);
      }, function () { finish("the server does not answer", "failed"); });
  }
  // the games analysed so far, then the ones still to come as they were pasted
  function shown() { return results.concat(pending.slice(results.length)); }
  // a status answer: new games into the viewer; 1 when the job is over (the page then says so)
  function apply(s) {
    if (s.results.length) {
      results = results.concat(s.results);
      window.pgnkitViewer.load(shown(), true);
      summary();
    }
    if (s.notes.length) showDiagnostics({ diagnostics: [], error: s.notes.join("; ") });
    if (s.state === "queued") {
      progress("waiting for the engine (" + s.queued_ahead + " jobs ahead)", "queued");
    } else if (s.state === "running") {
      progress("analysing: " + s.positions_done + " of " + s.positions + " positions, " +
               s.games_done + " of " + s.games + " games" +
               (s.live.game ? "; game " + s.live.game + ", ply " + s.live.ply + ": " +
                              s.live.eval : ""), "running");
    } else {
      finish(s.state === "done" ? "done: " + s.games_done + " games, " + s.positions_done +
                                  " positions in " + (s.elapsed_ms / 1000).toFixed(1) + " s"
                                : s.state + (s.error ? ": " + s.error : ""), s.state);
      return 1;
    }
    return 0;
  }
  function poll() {
    timer = null;
    if (!job) return;
    $("progress").setAttribute("data-transport", "poll");
    getStatus(function (s) { if (!apply(s)) timer = setTimeout(poll, 400); });
  }
  // the eval graph of the game under analysis, point by point (winning chances, White up): its
  // columns are the plies, with the ids the viewer's graph has ("ply-N")
  function liveGraph(d) {
    var W = 720, H = 164, mid = H / 2, n = Math.max(d.plies, 1), col = W / n;
    var g = document.createElementNS(SVGNS, "svg");
    function add(parent, tag, attrs) {
      var e = document.createElementNS(SVGNS, tag);
      Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
      parent.appendChild(e);
      return e;
    }
    g.setAttribute("viewBox", "0 0 " + W + " " + (H + 16));
    g.setAttribute("data-live", live.points.length);
    add(g, "rect", { width: W, height: H + 16, fill: "#f4f4f4" });
    add(g, "rect", { width: W, height: H, fill: "#a7a7a7" });
    var pts = [];
    for (var i = 1; i <= n; i++) {
      if (live.wc[i] === undefined) break;
      pts.push(((i - 0.5) * col).toFixed(1) + "," + (mid - live.wc[i] * mid).toFixed(1));
    }
    if (pts.length) {
      var last = pts[pts.length - 1].split(",")[0];
      var area = (col / 2).toFixed(1) + "," + mid + " " + pts.join(" ") + " " + last + "," + mid;
      var defs = add(g, "defs", {});
      add(add(defs, "clipPath", { id: "live-above" }), "rect", { width: W, height: mid });
      add(add(defs, "clipPath", { id: "live-below" }), "rect", { y: mid, width: W, height: mid });
      add(g, "polygon", { points: area, fill: "#ffffff", "clip-path": "url(#live-above)" });
      add(g, "polygon", { points: area, fill: "#262421", "clip-path": "url(#live-below)" });
      add(g, "polyline", { points: pts.join(" "), fill: "none", stroke: "#d85000", "stroke-width": 1.5 });
    }
    add(g, "line", { x1: 0, y1: mid, x2: W, y2: mid, stroke: "#777777" });
    for (i = 1; i <= n; i++) {
      add(g, "rect", { id: "ply-" + i, x: ((i - 1) * col).toFixed(1), y: 0, width: col.toFixed(2),
                       height: H, fill: "#000000", "fill-opacity": 0 });
    }
    var box = $("graph");
    box.textContent = "";
    box.appendChild(g);
  }
  // one position searched: the board goes there, the graph gets its point
  function onMove(d) {
    var m = $("progress");
    m.setAttribute("data-moves", +(m.getAttribute("data-moves") || 0) + 1);
    progress("analysing: " + d.done + " of " + d.positions + " positions; game " + d.game +
             ", ply " + d.ply + ": " + d.eval, "running");
    if (!live || live.game !== d.game) live = { game: d.game, wc: [], points: [] };
    live.wc[d.ply] = d.wc;
    if (d.ply > 0) live.points.push(d.ply);
    // shown while the game is the next one to come (its "game" answer is not in yet)
    if (d.game - 1 !== results.length || d.game > pending.length) return;
    var v = window.pgnkitViewer;
    if (v.current() !== d.game - 1) v.show(d.game - 1);
    liveGraph(d);
    v.ply(d.ply);
  }
  // the job's status once more (a game finished, or the end), one request at a time: two answers
  // from the same game on would add its results twice
  function refresh() {
    if (inflight) { again = true; return; }
    inflight = true;
    getStatus(function (st) {
      inflight = false;
      if (!apply(st) && again) { again = false; refresh(); }
    });
  }
  function follow() {
    $("progress").setAttribute("data-transport", "stream");
    es = new EventSource("/api/jobs/" + job + "/events");
    var ended = false;
    es.addEventListener("move", function (e) { onMove(JSON.parse(e.data)); });
    es.addEventListener("game", refresh);
    es.addEventListener("end", function () {
      ended = true;
      es.close();
      es = null;
      refresh();
    });
    es.onerror = function () { // the stream failed (a proxy, the server gone): poll instead
      if (ended || !es) return;
      es.close();
      es = null;
      poll();
    };
  }
  function finish(text, state) {
    progress(text, state);
    busy(false);
    if (job && (state === "done" || results.length)) {
      $("download").setAttribute("href", "/api/jobs/" + job + "/pgn");
      $("download").hidden = false;
    }
  }
  // reads the paste on the server: its diagnostics listed, the games that read whole shown
  function check() {
    post("/api/check?" + fixArg(), $("pgn").value).then(function (r) {
      showDiagnostics(r.body);
      if (r.status === 200) {
        results = [];
        pending = [];
        window.pgnkitViewer.load(r.body.results, false);
        progress(counted(r.body), "shown");
      } else {
        progress("not shown: " + (r.body.error || r.status), "refused");
      }
    });
  }
  $("show").addEventListener("click", check);
  // the moves whose meaning is clear repaired (pgnkit fmt --fix), here and in the analysis
  $("repair").addEventListener("click", function () {
    $("fix").checked = true;
    check();
  });
  $("analyse").addEventListener("click", function () {
    var url = "/api/jobs?limit=" + encodeURIComponent($("limit").value) + "&value=" +
              encodeURIComponent($("value").value) + "&" + fixArg();
    $("download").hidden = true;
    busy(true);
    post(url, $("pgn").value).then(function (r) {
      showDiagnostics(r.body);
      if (r.status !== 202) {
        busy(false);
        progress("not analysed: " + (r.body.error || r.status), "refused");
        return;
      }
      job = r.body.id;
      results = [];
      inflight = again = false;
      pending = r.body.entries || [];
      live = null;
      window.pgnkitViewer.load(pending, false);
      $("summary").hidden = true;
      $("progress").setAttribute("data-moves", 0);
      progress("queued: " + counted(r.body), "queued");
      if (window.EventSource) follow(); else poll();
    }, function () { busy(false); progress("the server does not answer", "failed"); });
  });
  $("cancel").addEventListener("click", function () {
    if (job) post("/api/jobs/" + job + "/cancel", "");
  });
  $("file").addEventListener("change", function () {
    var f = $("file").files[0];
    if (!f) return;
    var rd = new FileReader();
    rd.onload = function () { $("pgn").value = rd.result; };
    rd.readAsText(f);
  });
  // the page going away cancels its job (the server also cancels a job nobody polls)
  window.addEventListener("pagehide", function () {
    if (job && (timer !== null || es)) {
      fetch("/api/jobs/" + job + "/cancel", { method: "POST", keepalive: true, credentials: "same-origin" });
    }
  });
})();
