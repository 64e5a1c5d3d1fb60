// SPDX-License-Identifier: MIT
// The page of `pgnkit html`: a game list, a board, the move list with variations, comments, NAGs
// and clocks, [%csl]/[%cal] marks, the evaluation graph. Every text of a PGN reaches the page
// through textContent or an attribute set by setAttribute, never as markup; the graph's SVG is
// pgnkit's own (pgn_graph_svg: numbers and SAN only). Text of a PGN (names, events, comments)
// is shown isolated (<bdi>, or unicode-bidi: isolate in viewer.css): a right-to-left override in a
// player's name cannot reorder the result or the other name beside it (issue 36).
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  var SQ = 100, PIECE_SCALE = SQ / 933.333;
  var COLORS = { G: "#15781b", R: "#882020", Y: "#e68f00", B: "#003088" };
  var data = JSON.parse(document.getElementById("pgnkit-data").textContent);
  var nags = data.nags, games = null;
  var state = { game: -1, nodes: [], cur: 0, flip: false };

  // The games as a list: length and at(i). The page of pgnkit html holds them data.chunk to an
  // element (script.pgnkit-games); an element's JSON is parsed only when one of its games is
  // listed or shown, two elements kept parsed (issue 36: a page of 145,716 games opens at once).
  function listOf(array) {
    return { length: array.length, at: function (i) { return array[i]; } };
  }
  function chunked(els, size) {
    var kept = []; // the last two elements parsed: [index, games], the newest first
    function chunk(c) {
      if (kept[0] && kept[0][0] === c) return kept[0][1];
      if (kept[1] && kept[1][0] === c) kept.reverse();
      else kept = [[c, JSON.parse(els[c].textContent)], kept[0]].filter(Boolean);
      return kept[0][1];
    }
    var n = els.length ? (els.length - 1) * size + chunk(els.length - 1).length : 0;
    return { length: n, at: function (i) { return chunk(Math.floor(i / size))[i % size]; } };
  }
  function pageGames() {
    var els = document.querySelectorAll("script.pgnkit-games");
    return els.length ? chunked(els, data.chunk) : listOf(data.games || []);
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function sqName(sq) { return "abcdefgh"[sq % 8] + (Math.floor(sq / 8) + 1); }
  function sqIndex(name) { return (name.charCodeAt(1) - 49) * 8 + name.charCodeAt(0) - 97; }
  function xy(sq) {
    var f = sq % 8, r = Math.floor(sq / 8);
    return state.flip ? [SQ * (7 - f), SQ * r] : [SQ * f, SQ * (7 - r)];
  }
  // the text of a comment without its [%...] commands
  function commentText(c) {
    return c ? c.text.replace(/\[%[^\]]*\]/g, " ").replace(/\s+/g, " ").trim() : "";
  }
  function command(c, name) {
    if (!c || !c.commands) return null;
    for (var i = 0; i < c.commands.length; i++) if (c.commands[i].name === name) return c.commands[i];
    return null;
  }
  function clock(ms) {
    var s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
    s = s % 60;
    return (h ? h + ":" + (m < 10 ? "0" : "") : "") + m + ":" + (s < 10 ? "0" : "") + s;
  }

  // The FEN after a move given as UCI, for the pages of pgnkit html, which leave the FEN of each
  // move of a standard game out (issue 34: they made a page many times its PGN's size). The e.p.
  // square is written when a pawn stands beside the pawn that moved two squares.
  var LOST_RIGHTS = { e1: "KQ", h1: "K", a1: "Q", e8: "kq", h8: "k", a8: "q" };
  function fenAfter(fen, uci) {
    var f = fen.split(" "), rows = f[0].split("/").map(function (r) {
      return r.replace(/[1-8]/g, function (d) { return "11111111".slice(0, +d); }).split("");
    });
    function at(sq) { return rows[8 - +sq[1]][sq.charCodeAt(0) - 97]; }
    function put(sq, p) { rows[8 - +sq[1]][sq.charCodeAt(0) - 97] = p; }
    var white = f[1] === "w", ep = "-", half = +f[4] + 1, castle = f[2];
    if (uci !== "0000") {
      var from = uci.slice(0, 2), to = uci.slice(2, 4), p = at(from), q = at(to);
      var t = p.toLowerCase(), dx = to.charCodeAt(0) - from.charCodeAt(0);
      if (t === "p" || q !== "1") half = 0;
      if (t === "k" && Math.abs(dx) === 2) { // castling: the rook goes over the king
        put((dx > 0 ? "h" : "a") + from[1], "1");
        put((dx > 0 ? "f" : "d") + from[1], white ? "R" : "r");
      }
      if (t === "p" && dx && q === "1") put(to[0] + from[1], "1"); // en passant
      put(from, "1");
      put(to, uci.length > 4 ? (white ? uci[4].toUpperCase() : uci[4]) : p);
      if (t === "p" && Math.abs(+to[1] - +from[1]) === 2) {
        var them = white ? "p" : "P", fc = to.charCodeAt(0);
        if ((fc > 97 && at(String.fromCharCode(fc - 1) + to[1]) === them) ||
            (fc < 104 && at(String.fromCharCode(fc + 1) + to[1]) === them)) {
          ep = to[0] + (+from[1] + +to[1]) / 2;
        }
      }
      [from, to].forEach(function (sq) {
        (LOST_RIGHTS[sq] || "").split("").forEach(function (c) { castle = castle.replace(c, ""); });
      });
    }
    var board = rows.map(function (r) {
      return r.join("").replace(/1+/g, function (s) { return String(s.length); });
    }).join("/");
    return [board, white ? "b" : "w", castle || "-", ep, half, +f[5] + (white ? 0 : 1)].join(" ");
  }

  // ---- the move tree: nodes[0] is the start; children[0] the main continuation ----
  function addNode(m, parent) {
    var p = state.nodes[parent];
    var n = { id: state.nodes.length, parent: parent, children: [], san: m.san, uci: m.uci,
              fen: m.fen || fenAfter(p.fen, m.uci), nags: m.nags || [], comment: m.comment,
              pre: m.pre_comment,
              ply: p.ply + 1 };
    state.nodes.push(n);
    p.children.push(n.id);
    return n;
  }
  function moveNumber(n, force) {
    var f = state.nodes[n.parent].fen.split(" ");
    if (f[1] === "w") return f[5] + ".";
    return force ? f[5] + "..." : "";
  }
  function nagSpan(n) {
    var s = "";
    for (var i = 0; i < n.nags.length; i++) {
      var g = nags[n.nags[i]];
      s += g && g[0] ? g[0] : " $" + n.nags[i];
    }
    return s ? el("span", "nag", s) : null;
  }
  // Builds the nodes and the move list together, with an explicit stack (no recursion per
  // nesting level of variations).
  function build(game, box) {
    state.nodes = [{ id: 0, parent: -1, children: [], fen: game.fen || START, ply: 0,
                     comment: game.comment, nags: [] }];
    var gc = commentText(game.comment);
    if (gc) box.appendChild(el("span", "cm", gc + " "));
    var stack = [{ line: game.moves, i: 0, parent: 0, box: box, force: true }];
    while (stack.length) {
      var fr = stack.pop();
      if (fr.i >= fr.line.length) continue;
      var m = fr.line[fr.i];
      if (typeof m === "string") { // "SAN UCI": a move with nothing else (pgnkit html)
        var sp = m.indexOf(" ");
        m = { san: m.slice(0, sp), uci: m.slice(sp + 1) };
      }
      var n = addNode(m, fr.parent);
      var pre = commentText(m.pre_comment);
      if (pre) fr.box.appendChild(el("span", "cm", pre + " "));
      var num = moveNumber(n, fr.force || pre);
      if (num) fr.box.appendChild(el("span", "num", num + " "));
      var mv = el("span", "mv", m.san);
      mv.setAttribute("data-node", n.id);
      var ns = nagSpan(n);
      if (ns) mv.appendChild(ns);
      fr.box.appendChild(mv);
      fr.box.appendChild(document.createTextNode(" "));
      var clk = command(m.comment, "clk");
      if (clk) fr.box.appendChild(el("span", "clk", "[" + clock(clk.ms) + "] "));
      var text = commentText(m.comment);
      if (text) fr.box.appendChild(el("span", "cm", text + " "));
      var vars = m.variations || [];
      stack.push({ line: fr.line, i: fr.i + 1, parent: n.id, box: fr.box,
                   force: !!(text || vars.length) });
      var boxes = [];
      for (var v = 0; v < vars.length; v++) {
        var vb = el("span", "var");
        fr.box.appendChild(vb);
        boxes.push({ line: vars[v], i: 0, parent: fr.parent, box: vb, force: true });
      }
      for (v = boxes.length - 1; v >= 0; v--) stack.push(boxes[v]);
    }
  }

  // ---- the board ----
  function drawBoard() {
    var n = state.nodes[state.cur], fen = n.fen.split(" ");
    var b = svg("svg", { viewBox: "0 0 800 800", id: "board", "data-fen": n.fen });
    b.appendChild(svg("rect", { width: 800, height: 800, fill: "#f0d9b5" }));
    for (var sq = 0; sq < 64; sq++) {
      if ((Math.floor(sq / 8) + sq % 8) % 2 === 0) {
        var p = xy(sq);
        b.appendChild(svg("rect", { x: p[0], y: p[1], width: SQ, height: SQ, fill: "#b58863" }));
      }
    }
    if (n.uci && n.uci !== "0000") {
      var from = sqIndex(n.uci.slice(0, 2)), to = sqIndex(n.uci.slice(2, 4));
      if (/^O-O/.test(n.san)) to = (from & 56) | (to > from ? 6 : 2);
      [from, to].forEach(function (s) {
        var q = xy(s);
        b.appendChild(svg("rect", { x: q[0], y: q[1], width: SQ, height: SQ, fill: "#9bc700",
                                    "fill-opacity": 0.41, "class": "last" }));
      });
    }
    var rows = fen[0].split("/"), kings = {};
    var check = n.san && /[+#]$/.test(n.san);
    var marks = [];
    ["csl", "cal"].forEach(function (name) {
      var c = n.comment && n.comment.commands ? n.comment.commands : [];
      c.forEach(function (cmd) { if (cmd.name === name) marks = marks.concat(cmd.marks || []); });
    });
    for (var r = 0; r < 8; r++) {
      var f = 0;
      for (var i = 0; i < rows[r].length; i++) {
        var c = rows[r][i];
        if (c >= "1" && c <= "8") { f += +c; continue; }
        var s = (7 - r) * 8 + f, pt = xy(s);
        var id = (c === c.toUpperCase() ? "w" : "b") + c.toUpperCase();
        if (c === "K" || c === "k") kings[c] = s;
        var u = svg("use", { href: "#pk-" + id, "data-sq": sqName(s), "data-piece": id,
                             transform: "translate(" + pt[0] + "," + pt[1] + ") scale(" +
                                        PIECE_SCALE + ")" });
        u.setAttributeNS("http://www.w3.org/1999/xlink", "xlink:href", "#pk-" + id);
        b.appendChild(u);
        f++;
      }
    }
    if (check) {
      var k = xy(kings[fen[1] === "w" ? "K" : "k"]);
      b.insertBefore(svg("circle", { cx: k[0] + 50, cy: k[1] + 50, r: 46, fill: "#ff0000",
                                     "fill-opacity": 0.45, "class": "check" }),
                     b.querySelector("use"));
    }
    marks.forEach(function (m) {
      var a = xy(sqIndex(m.from)), z = xy(sqIndex(m.to)), col = COLORS[m.color] || COLORS.G;
      if (m.from === m.to) {
        b.appendChild(svg("circle", { cx: a[0] + 50, cy: a[1] + 50, r: 47, fill: "none",
                                      stroke: col, "stroke-width": 6, opacity: 0.8 }));
        return;
      }
      var ax = a[0] + 50, ay = a[1] + 50, bx = z[0] + 50, by = z[1] + 50;
      var dx = bx - ax, dy = by - ay, len = Math.sqrt(dx * dx + dy * dy);
      var ux = dx / len, uy = dy / len, nx = -uy, ny = ux, hx = bx - ux * 40, hy = by - uy * 40;
      var pts = [[ax + nx * 8, ay + ny * 8], [hx + nx * 8, hy + ny * 8], [hx + nx * 22, hy + ny * 22],
                 [bx, by], [hx - nx * 22, hy - ny * 22], [hx - nx * 8, hy - ny * 8],
                 [ax - nx * 8, ay - ny * 8]];
      b.appendChild(svg("polygon", { points: pts.map(function (p) { return p.join(","); }).join(" "),
                                     fill: col, opacity: 0.8, "class": "arrow" }));
    });
    var box = document.getElementById("board-box");
    box.textContent = "";
    box.appendChild(b);
  }

  function mainLine() {
    var out = [0], n = state.nodes[0];
    while (n.children.length) { n = state.nodes[n.children[0]]; out.push(n.id); }
    return out;
  }
  function isMain(id) {
    for (var n = state.nodes[id]; n.parent >= 0; n = state.nodes[n.parent])
      if (state.nodes[n.parent].children[0] !== n.id) return false;
    return true;
  }
  function status() {
    var n = state.nodes[state.cur], ev = command(n.comment, "eval"), s = "";
    if (n.parent >= 0) s = moveNumber(n, true) + " " + n.san;
    if (ev) s += "  eval " + (ev.mate !== undefined ? "#" + ev.mate : (ev.cp / 100).toFixed(2));
    var clk = command(n.comment, "clk");
    if (clk) s += "  clock " + clock(clk.ms);
    document.getElementById("status").textContent = s;
    var line = document.getElementById("graph-ply");
    var rect = document.getElementById("ply-" + n.ply);
    if (line) line.parentNode.removeChild(line);
    if (rect && isMain(n.id)) {
      var x = +rect.getAttribute("x") + +rect.getAttribute("width") / 2;
      var g = svg("line", { id: "graph-ply", x1: x, x2: x, y1: 0, y2: rect.getAttribute("height"),
                            stroke: "#3692e7", "stroke-width": 2 });
      rect.parentNode.insertBefore(g, rect);
    }
  }
  function go(id) {
    if (id < 0 || id >= state.nodes.length) return;
    state.cur = id;
    var old = document.querySelector("#moves .mv.current");
    if (old) old.classList.remove("current");
    var span = document.querySelector('#moves .mv[data-node="' + id + '"]');
    if (span) {
      span.classList.add("current");
      if (span.scrollIntoView) span.scrollIntoView({ block: "nearest" });
    }
    drawBoard();
    status();
  }

  function tagValue(game, name) {
    var v = game.tags[name];
    return v === undefined ? "?" : v;
  }
  function bdi(text) { return el("bdi", null, text); }
  function showGame(i) {
    if (i < 0 || i >= games.length) return;
    state.game = i;
    var entry = games.at(i), game = entry.game;
    var nav = document.getElementById("games");
    if (i * ROW < nav.scrollTop) nav.scrollTop = i * ROW;
    else if ((i + 1) * ROW > nav.scrollTop + nav.clientHeight) nav.scrollTop = (i + 1) * ROW - nav.clientHeight;
    listRows();
    var tags = document.getElementById("tags");
    tags.textContent = "";
    Object.keys(game.tags).forEach(function (name) {
      var tr = el("tr");
      tr.appendChild(el("td", null, name));
      var td = el("td");
      td.appendChild(bdi(game.tags[name]));
      td.setAttribute("title", game.tags[name].slice(0, 200));
      tr.appendChild(td);
      tags.appendChild(tr);
    });
    [["white-name", "\u25CB ", "White"], ["black-name", "\u25CF ", "Black"]].forEach(function (p) {
      var box = document.getElementById(p[0]);
      box.textContent = p[1];
      box.appendChild(bdi(tagValue(game, p[2])));
    });
    var box = document.getElementById("moves");
    box.textContent = "";
    build(game, box);
    box.appendChild(el("b", null, game.result));
    // the graph is pgnkit's own SVG (numbers and SAN only)
    // a game without evaluations has none: a line says how to get them (issue 31)
    var graph = document.getElementById("graph");
    if (entry.graph) {
      graph.innerHTML = entry.graph;
    } else {
      graph.textContent = "";
      graph.appendChild(el("p", "no-evals", "No evaluations in this game: pgnkit analyze adds them."));
    }
    go(0);
  }
  // "N. White \u2013 Black result, Event, Date", each text of the PGN in its own <bdi>
  function gameLabel(g, i) {
    var t = g.game.tags, li = el("li", null, (i + 1) + ". ");
    function add(text) { li.appendChild(bdi(text.slice(0, 100))); }
    add(tagValue(g.game, "White"));
    li.appendChild(document.createTextNode(" \u2013 "));
    add(tagValue(g.game, "Black"));
    li.appendChild(el("span", "result", " " + g.game.result));
    if (t.Event) { li.appendChild(document.createTextNode(", ")); add(t.Event); }
    if (t.Date) { li.appendChild(document.createTextNode(", ")); add(t.Date); }
    return li;
  }

  // ---- events ----
  document.getElementById("moves").addEventListener("click", function (e) {
    var t = e.target.closest ? e.target.closest(".mv") : null;
    if (t) go(+t.getAttribute("data-node"));
  });
  document.getElementById("graph").addEventListener("click", function (e) {
    var t = e.target;
    if (!t || !t.id || t.id.indexOf("ply-") !== 0) return;
    var line = mainLine(), ply = +t.id.slice(4);
    if (ply < line.length) go(line[ply]);
  });
  function step(d) {
    var n = state.nodes[state.cur];
    if (d < 0 && n.parent >= 0) go(n.parent);
    if (d > 0 && n.children.length) go(n.children[0]);
  }
  function end() {
    var n = state.nodes[state.cur];
    while (n.children.length) n = state.nodes[n.children[0]];
    go(n.id);
  }
  function flip() { state.flip = !state.flip; drawBoard(); }
  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { step(-1); });
  document.getElementById("next").addEventListener("click", function () { step(1); });
  document.getElementById("last").addEventListener("click", end);
  document.getElementById("flip").addEventListener("click", flip);
  document.addEventListener("keydown", function (e) {
    var k = e.key, t = e.target && e.target.tagName;
    if (t === "TEXTAREA" || t === "INPUT" || t === "SELECT") return; // typing (pgnkit serve)
    if (k === "ArrowRight") step(1);
    else if (k === "ArrowLeft") step(-1);
    else if (k === "Home") go(0);
    else if (k === "End") end();
    else if (k === "ArrowDown") showGame(state.game + 1);
    else if (k === "ArrowUp") showGame(state.game - 1);
    else if (k === "f") flip();
    else return;
    e.preventDefault();
  });

  // Shows a list of games ({game, graph} as in pgnkit-data), keeping the game shown when it is
  // still there and keep is set: pgnkit serve calls it as analysed games arrive.
  // The list holds only the rows in view (ROW pixels each, placed at their game's height, with
  // MARGIN rows either side), made again as it scrolls: showing the last of 145,716 games makes
  // a few dozen rows, not the whole list (issue 36).
  var ROW = 20, MARGIN = 10;
  function listRows() {
    var nav = document.getElementById("games"), box = document.getElementById("game-list");
    var view = nav.clientHeight || 640;
    var first = Math.max(0, Math.floor(nav.scrollTop / ROW) - MARGIN);
    var last = Math.min(games.length, Math.ceil((nav.scrollTop + view) / ROW) + MARGIN);
    box.style.height = games.length * ROW + "px";
    box.textContent = "";
    for (var i = first; i < last; i++) {
      var li = gameLabel(games.at(i), i);
      li.style.top = i * ROW + "px";
      li.setAttribute("data-game", i);
      if (i === state.game) li.className = "current";
      box.appendChild(li);
    }
  }
  document.getElementById("games").addEventListener("scroll", listRows);
  document.getElementById("game-list").addEventListener("click", function (e) {
    var t = e.target.closest ? e.target.closest("li") : null;
    if (t) showGame(+t.getAttribute("data-game"));
  });
  function load(list, keep) {
    var cur = keep && state.game >= 0 && state.game < list.length ? state.game : 0;
    var node = keep && cur === state.game ? state.cur : 0;
    games = list.at ? list : listOf(list);
    if (!keep) document.getElementById("games").scrollTop = 0;
    listRows();
    document.getElementById("count").textContent = games.length + (games.length === 1 ? " game" : " games");
    state.game = -1;
    if (!games.length) {
      ["tags", "moves", "graph", "board-box", "status", "white-name", "black-name"].forEach(
        function (id) { document.getElementById(id).textContent = ""; });
      return;
    }
    showGame(cur);
    if (node && node < state.nodes.length) go(node);
  }
  // pgnkit serve follows the engine: the main line's ply n of the game shown, and which game that is
  function ply(n) {
    var line = mainLine();
    if (n >= 0 && n < line.length) go(line[n]);
  }
  window.pgnkitViewer = { load: load, show: showGame, ply: ply,
                          current: function () { return state.game; } };
  load(pageGames(), false);
})();
