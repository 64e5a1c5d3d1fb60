// SPDX-License-Identifier: MIT
// The paste form of `pgnkit serve`: "Show" reads the PGN on the server (POST /api/check) and
// shows its diagnostics or its games in the viewer (viewer.js); "Analyse" queues a job (POST
// /api/jobs), polls it (GET /api/jobs/ID?from=N) and adds each analysed game to the viewer as it
// arrives; "Download" is GET /api/jobs/ID/pgn. Texts reach the page only through textContent.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var job = null, results = [], timer = null;

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
  // the line of the text a diagnostic names, selected in the text area
  function selectLine(line) {
    var t = $("pgn").value, start = 0;
    for (var i = 1; i < line && start >= 0; i++) {
      start = t.indexOf("\n", start);
      if (start >= 0) start++;
    }
    if (start < 0) return;
    var end = t.indexOf("\n", start);
    $("pgn").focus();
    $("pgn").setSelectionRange(start, end < 0 ? t.length : end);
  }
  function showDiagnostics(d) {
    var box = $("diagnostics");
    box.textContent = "";
    if (d.error) box.appendChild(el("li", "error", d.error));
    (d.diagnostics || []).forEach(function (x) {
      var li = el("li", x.severity,
                  "line " + x.line + ", column " + x.column + ": " + x.severity + ": " + x.message +
                  (x.token ? " '" + x.token + "'" : "") + " [" + x.code + "] (game " + x.game + ")");
      li.setAttribute("data-line", x.line);
      li.setAttribute("data-column", x.column);
      li.setAttribute("data-code", x.code);
      li.addEventListener("click", function () { selectLine(x.line); });
      box.appendChild(li);
    });
    var more = (d.errors || 0) + (d.warnings || 0) - (d.diagnostics || []).length;
    if (more > 0) box.appendChild(el("li", "note", "and " + more + " more"));
  }
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
  function poll() {
    timer = null;
    if (!job) return;
    fetch("/api/jobs/" + job + "?from=" + results.length, { credentials: "same-origin" })
      .then(function (r) { return r.json().then(function (j) { return { status: r.status, body: j }; }); })
      .then(function (r) {
        if (r.status !== 200) { finish("error: " + (r.body.error || r.status), "failed"); return; }
        var s = r.body;
        if (s.results.length) {
          results = results.concat(s.results);
          window.pgnkitViewer.load(results, true);
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
          var text = s.state === "done" ? "done: " + s.games_done + " games, " + s.positions_done +
                                          " positions in " + (s.elapsed_ms / 1000).toFixed(1) + " s"
                                        : s.state + (s.error ? ": " + s.error : "");
          finish(text, s.state);
          return;
        }
        timer = setTimeout(poll, 400);
      }, function () { finish("the server does not answer", "failed"); });
  }
  function finish(text, state) {
    progress(text, state);
    busy(false);
    if (job && (state === "done" || results.length)) {
      $("download").setAttribute("href", "/api/jobs/" + job + "/pgn");
      $("download").hidden = false;
    }
  }
  $("show").addEventListener("click", function () {
    post("/api/check", $("pgn").value).then(function (r) {
      showDiagnostics(r.body);
      if (r.status === 200) {
        results = [];
        window.pgnkitViewer.load(r.body.results, false);
        progress(r.body.games + (r.body.games === 1 ? " game" : " games"), "shown");
      } else {
        progress("not shown: " + (r.body.error || r.status), "refused");
      }
    });
  });
  $("analyse").addEventListener("click", function () {
    var url = "/api/jobs?limit=" + encodeURIComponent($("limit").value) + "&value=" +
              encodeURIComponent($("value").value);
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
      window.pgnkitViewer.load([], false);
      $("summary").hidden = true;
      progress("queued", "queued");
      poll();
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
    if (job && timer !== null) {
      fetch("/api/jobs/" + job + "/cancel", { method: "POST", keepalive: true, credentials: "same-origin" });
    }
  });
})();
