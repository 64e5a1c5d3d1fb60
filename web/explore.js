// SPDX-License-Identifier: MIT
// The explorer panel of `pgnkit html --db` and `pgnkit serve --db` (issue 30): beside the board,
// the moves the game database has from the position shown (the board's data-fen), the most
// played first, each with its games, a bar of white wins, draws and black wins, and the movers'
// average Elo. The answers come from the page (script#pgnkit-explore: pgnkit html puts in the
// positions of its games' main lines) or from GET /api/explore?fen=FEN (pgnkit serve). A click
// on a move plays it: when the game shown has that move from here (its main line or a
// variation), the viewer goes there; else the board shows the position after it, and the
// viewer's moves, buttons and keys take the board back to the game. Texts reach the page only
// through textContent; the viewer (viewer.js) is used through its page, never changed.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var SVGNS = "http://www.w3.org/2000/svg", SQ = 100, PIECE_SCALE = SQ / 933.333;
  var embedded = null, cache = {}, shown = "", busy = false, box;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // placement, side, castling, en passant: what the database's position is
  function key(fen) { return fen.split(" ").slice(0, 4).join(" "); }
  function sameSquares(a, b) { return a.split(" ").slice(0, 3).join(" ") === b.split(" ").slice(0, 3).join(" "); }
  function boardFen() {
    var b = $("board");
    return b ? b.getAttribute("data-fen") || "" : "";
  }

  // the page's answers by position; the viewer writes an en passant square when a pawn stands
  // beside, the database only when the capture is legal: both are looked up
  function fromPage(fen) {
    if (!embedded) {
      embedded = {};
      var list = JSON.parse($("pgnkit-explore").textContent);
      list.forEach(function (a) { embedded[key(a.fen)] = a; });
    }
    var k = key(fen), f = k.split(" ");
    if (embedded[k]) return embedded[k];
    f[3] = "-";
    return embedded[f.join(" ")] || { fen: fen, moves: [], games: 0, absent: true };
  }
  function answer(fen, then) {
    if ($("pgnkit-explore")) { then(fromPage(fen)); return; }
    if (cache[fen]) { then(cache[fen]); return; }
    fetch("/api/explore?fen=" + encodeURIComponent(fen)).then(function (r) {
      return r.json();
    }).then(function (a) {
      if (!a.error) cache[fen] = a;
      then(a);
    }, function (e) { then({ error: String(e) }); });
  }

  function pct(n, games) { return games ? (100 * n / games).toFixed(1) : "0"; }
  function bar(m) {
    var d = el("div", "ex-bar");
    [["white", "ex-w"], ["draws", "ex-d"], ["black", "ex-b"]].forEach(function (p) {
      var s = el("span", p[1]), share = pct(m[p[0]], m.games);
      s.style.width = share + "%";
      if (+share >= 15) s.textContent = Math.round(+share) + "%";
      s.setAttribute("title", p[0] + ": " + m[p[0]]);
      d.appendChild(s);
    });
    return d;
  }
  function render(fen, a) {
    if (fen !== shown) return; // the board moved on while the answer came
    var body = $("explorer-moves"), st = $("explorer-status");
    body.textContent = "";
    if (a.error) { st.textContent = "error: " + a.error; return; }
    st.textContent = a.absent ? "this position is not in the page's answers" :
      a.games + (a.games === 1 ? " game" : " games");
    st.setAttribute("data-games", a.games);
    st.setAttribute("data-fen", fen); // the position this answer is for
    a.moves.forEach(function (m) {
      var tr = el("tr", "ex-move");
      ["san", "uci", "games", "white", "draws", "black", "fen"].forEach(function (k) {
        tr.setAttribute("data-" + k, m[k]);
      });
      tr.appendChild(el("td", "ex-san", m.san));
      tr.appendChild(el("td", "ex-games", String(m.games)));
      var td = el("td");
      td.appendChild(bar(m));
      tr.appendChild(td);
      tr.appendChild(el("td", "ex-elo", m.elo ? String(m.elo) : ""));
      tr.addEventListener("click", function () { play(m); });
      body.appendChild(tr);
    });
  }
  function update() {
    var fen = boardFen();
    if (busy || !fen || fen === shown) return;
    shown = fen;
    answer(fen, function (a) { render(fen, a); });
  }

  // ---- playing a move ----
  // the game's own node: a move of the move list with that SAN that leads there (tried by
  // clicking it, as a person would; the node shown before is shown again when none does)
  function gameNode(m) {
    var cur = document.querySelector("#moves .mv.current");
    var spans = document.querySelectorAll("#moves .mv"), tried = 0;
    for (var i = 0; i < spans.length && tried < 500; i++) {
      var text = spans[i].firstChild ? spans[i].firstChild.nodeValue : "";
      if (text !== m.san) continue;
      tried++;
      spans[i].click();
      if (sameSquares(boardFen(), m.fen)) return true;
    }
    if (tried) {
      if (cur) cur.click(); else $("first").click();
    }
    return false;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  // the board of the viewer drawn again for fen: its squares kept, its pieces, marks and
  // highlights replaced; the orientation read from a piece of the board shown
  function drawFen(fen, uci) {
    var old = $("board"), b = old.cloneNode(false), flip = false;
    var any = old.querySelector("use[data-sq]");
    if (any) {
      var x = +/translate\(([-\d.]+)/.exec(any.getAttribute("transform"))[1];
      flip = x !== SQ * (any.getAttribute("data-sq").charCodeAt(0) - 97);
    }
    function xy(f, r) { return flip ? [SQ * (7 - f), SQ * r] : [SQ * f, SQ * (7 - r)]; }
    Array.prototype.forEach.call(old.querySelectorAll("rect:not(.last)"), function (r) {
      b.appendChild(r.cloneNode(false));
    });
    [uci.slice(0, 2), uci.slice(2, 4)].forEach(function (sq) {
      var p = xy(sq.charCodeAt(0) - 97, sq.charCodeAt(1) - 49);
      b.appendChild(svg("rect", { x: p[0], y: p[1], width: SQ, height: SQ, fill: "#9bc700",
                                  "fill-opacity": 0.41, "class": "last" }));
    });
    fen.split(" ")[0].split("/").forEach(function (row, r) {
      var f = 0;
      row.split("").forEach(function (c) {
        if (c >= "1" && c <= "8") { f += +c; return; }
        var id = (c === c.toUpperCase() ? "w" : "b") + c.toUpperCase(), p = xy(f, 7 - r);
        var u = svg("use", { href: "#pk-" + id, "data-sq": String.fromCharCode(97 + f) + (8 - r),
                             "data-piece": id, transform: "translate(" + p[0] + "," + p[1] +
                             ") scale(" + PIECE_SCALE + ")" });
        u.setAttributeNS("http://www.w3.org/1999/xlink", "xlink:href", "#pk-" + id);
        b.appendChild(u);
        f++;
      });
    });
    b.setAttribute("data-fen", fen);
    b.setAttribute("data-explorer", "1");
    old.parentNode.replaceChild(b, old);
  }
  function play(m) {
    busy = true;
    var found = false;
    try {
      found = gameNode(m);
    } finally {
      busy = false;
    }
    if (!found) {
      drawFen(m.fen, m.uci);
      var cur = document.querySelector("#moves .mv.current");
      if (cur) cur.classList.remove("current");
      $("status").textContent = "database: " + m.san;
    }
    update();
  }

  // ---- the panel, beside the board ----
  var panel = el("section");
  panel.id = "explorer";
  panel.appendChild(el("h2", null, "Database"));
  var st = el("div", null, "");
  st.id = "explorer-status";
  panel.appendChild(st);
  var table = el("table"), head = el("tr");
  ["move", "games", "white / draws / black", "Elo"].forEach(function (h) {
    head.appendChild(el("th", null, h));
  });
  table.appendChild(el("thead")).appendChild(head);
  box = el("tbody");
  box.id = "explorer-moves";
  table.appendChild(box);
  panel.appendChild(table);
  var col = $("board-col");
  col.parentNode.insertBefore(panel, col.nextSibling);
  new MutationObserver(update).observe($("board-box"), { childList: true });
  update();
})();
