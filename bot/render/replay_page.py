"""The replay page's inline style and script (:mod:`bot.render.replay_html` embeds them): the
script reads the page's JSON, rebuilds each step's table from the changes it lists, and draws
it with ``textContent`` only — nothing from the data is ever markup. No URL, no fetch."""

from __future__ import annotations

from typing import Final

PAGE_STYLE: Final = """
body{font:15px/1.4 system-ui,sans-serif;margin:0;background:rgb(244,241,234);
color:rgb(34,34,34)}
main{max-width:60em;margin:0 auto;padding:1em}
h1{font-size:1.2em;margin:.2em 0}
nav{display:flex;flex-wrap:wrap;gap:.3em;margin:.6em 0}
button{font:inherit;padding:.25em .6em;border:1px solid rgb(136,136,136);border-radius:.3em;
background:white;cursor:pointer}
button.on{background:rgb(45,106,79);color:white;border-color:rgb(45,106,79)}
.bar{display:flex;align-items:center;gap:.4em;margin:.6em 0}
.bar button{font-size:1.2em;min-width:2.4em}
#counter{margin-left:.6em;color:rgb(85,85,85)}
#board{background:rgb(45,106,79);border-radius:.6em;padding:.8em;display:grid;gap:.6em;
grid-template-columns:repeat(auto-fit,minmax(15em,1fr))}
.seat,.centre{background:rgba(255,255,255,.12);border-radius:.4em;padding:.4em;color:white}
.seat.acts{outline:3px solid rgb(255,209,102)}
.centre{grid-column:1/-1;text-align:center}
.who{font-weight:600}
.note{font-size:.85em;opacity:.85;margin-left:.4em}
.cards{display:inline-flex;flex-wrap:wrap;gap:.25em;margin:.25em 0}
.card{display:inline-block;min-width:2.1em;padding:.3em .2em;background:white;
color:rgb(17,17,17);border:1px solid rgb(153,153,153);border-radius:.3em;text-align:center;
font-weight:600}
.card.red{color:rgb(193,18,31)}
#step{white-space:pre-wrap;background:white;border-radius:.4em;padding:.6em;margin:.6em 0;
font-family:ui-monospace,monospace;font-size:.9em}
#mark{background:rgb(255,232,204);border-left:4px solid rgb(232,89,12);padding:.4em .6em;
border-radius:.3em}
#final{background:rgb(216,243,220);border-left:4px solid rgb(45,106,79);padding:.5em .7em;
font-weight:600;border-radius:.3em}
.keys{color:rgb(102,102,102);font-size:.85em}
[hidden]{display:none!important}
"""

PAGE_SCRIPT: Final = """
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var SUITS = {S: "\\u2660", C: "\\u2663", D: "\\u2666", H: "\\u2665"};
  var CENTRE = ["turn_up", "trick", "pile", "table"];
  var tables = [], now = {};
  D.steps.forEach(function (s) {
    var t = Object.assign({}, now);
    Object.keys(s[2]).forEach(function (k) {
      if (s[2][k] === null) { delete t[k]; } else { t[k] = s[2][k]; }
    });
    tables.push(t);
    now = t;
  });
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function cards(codes) {
    var box = el("span", "cards");
    String(codes || "").split(" ").forEach(function (c) {
      if (!c) { return; }
      var suit = c.slice(-1), rank = c.slice(0, -1);
      var red = suit === "H" || suit === "D";
      box.appendChild(el("span", red ? "card red" : "card", (D.ranks[rank] || rank) + SUITS[suit]));
    });
    return box;
  }
  function button(id, label, title, act) {
    var b = el("button", "", label);
    if (id) { b.id = id; }
    b.type = "button";
    b.title = title;
    b.setAttribute("aria-label", title);
    b.addEventListener("click", act);
    return b;
  }
  var app = document.getElementById("app");
  app.appendChild(el("h1", "", D.title));
  app.appendChild(el("p", "", D.players));
  if (D.marked) app.appendChild(el("p", "marked", D.marked));
  var nav = el("nav");
  nav.setAttribute("aria-label", D.ui.deals);
  var dealButtons = D.deals.map(function (d) {
    var b = button("", D.ui.deal.replace("{no}", d[0]), D.ui.deal.replace("{no}", d[0]),
      function () { show(d[1]); });
    nav.appendChild(b);
    return b;
  });
  app.appendChild(nav);
  var bar = el("div", "bar");
  var last = D.steps.length - 1;
  bar.appendChild(button("first", "|\\u25c0", D.ui.first, function () { show(0); }));
  bar.appendChild(button("prev", "\\u25c0", D.ui.prev, function () { show(at - 1); }));
  bar.appendChild(button("next", "\\u25b6", D.ui.next, function () { show(at + 1); }));
  bar.appendChild(button("last", "\\u25b6|", D.ui.last, function () { show(last); }));
  var counter = el("span");
  counter.id = "counter";
  bar.appendChild(counter);
  app.appendChild(bar);
  var board = el("div");
  board.id = "board";
  app.appendChild(board);
  var mark = el("div");
  mark.id = "mark";
  app.appendChild(mark);
  var step = el("div");
  step.id = "step";
  step.setAttribute("aria-live", "polite");
  app.appendChild(step);
  var fin = el("div", "", D.final);
  fin.id = "final";
  app.appendChild(fin);
  app.appendChild(el("p", "keys", D.ui.keys));
  var at = 0;
  function show(i) {
    if (i < 0 || i > last) { return; }
    at = i;
    var s = D.steps[i], t = tables[i], deal = D.deals[s[0]];
    board.textContent = "";
    D.names.forEach(function (name, seat) {
      var box = el("div", seat === s[3] ? "seat acts" : "seat");
      box.appendChild(el("span", "who", name));
      if (deal && deal[2] === seat) { box.appendChild(el("span", "note", D.ui.dealer)); }
      if (("k" + seat) in t) { box.appendChild(el("span", "note", D.taken[t["k" + seat]])); }
      box.appendChild(el("br"));
      box.appendChild(cards(t["h" + seat]));
      board.appendChild(box);
    });
    var centre = el("div", "centre");
    CENTRE.forEach(function (place) {
      if (!t[place]) { return; }
      var row = el("div");
      row.appendChild(el("span", "note", D.ui[place]));
      row.appendChild(el("br"));
      row.appendChild(cards(t[place]));
      centre.appendChild(row);
    });
    if ("stock" in t) { centre.appendChild(el("div", "note", D.stock[t.stock])); }
    board.appendChild(centre);
    step.textContent = s[1];
    mark.textContent = s.length > 4 ? D.ui.mark + ": " + s[4] : "";
    mark.hidden = s.length <= 4;
    fin.hidden = i !== last;
    counter.textContent = (i + 1) + " / " + (last + 1);
    dealButtons.forEach(function (b, k) { b.className = k === s[0] ? "on" : ""; });
  }
  document.addEventListener("keydown", function (e) {
    var to = {ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: last}[e.key];
    if (to !== undefined) { e.preventDefault(); show(to); }
  });
  show(0);
})();
"""
