"""The stylesheet and script inlined into ``report.html``.

Both are constants: no report data is ever placed in them, so the page's
Content-Security-Policy can allow exactly these two by hash.  The script reads what it
needs (standings) from ``data-standing`` attributes the renderer wrote, and opens the
timeline a link's fragment names.
"""

from __future__ import annotations

__all__ = ["SCRIPT", "STYLE"]

STYLE = """
:root { color-scheme: light dark; --line: #8884; --muted: #777; }
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 72rem;
  padding: 1rem 1.5rem; }
h1 { font-size: 1.6rem; margin-bottom: .25rem; }
h2 { font-size: 1.25rem; margin-top: 2rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1rem; margin: 1.2rem 0 .3rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
th, td { border-bottom: 1px solid var(--line); padding: .3rem .5rem; text-align: left;
  vertical-align: top; }
td.n { text-align: right; }
code, .mono { font-family: ui-monospace, monospace; font-size: .9em; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.clause { margin-left: .5rem; padding-left: .75rem; border-left: 3px solid var(--line); }
.clause[data-standing="does-not-conform"] { border-left-color: #c62828; }
.clause[data-standing="error"] { border-left-color: #b45309; }
.clause[data-standing="conforms"] { border-left-color: #2e7d32; }
.text { margin: .2rem 0 .5rem; }
.message { overflow-wrap: anywhere; }
#filters { position: sticky; top: 0; padding: .5rem 0; background: Canvas;
  border-bottom: 1px solid var(--line); display: flex; flex-wrap: wrap; gap: .4rem 1rem;
  align-items: center; }
#filters label { white-space: nowrap; }
[hidden] { display: none !important; }
.pill { display: inline-block; padding: 0 .5em; border-radius: .7em; font-size: .85em;
  font-weight: 600; color: #fff; background: #6b7280; white-space: nowrap; }
.s-conforms, .o-passed { background: #2e7d32; }
.s-does-not-conform, .o-failed { background: #c62828; }
.s-error, .o-error { background: #b45309; }
.s-not-applicable { background: #9ca3af; color: #111; }
table.checks { table-layout: fixed; }
table.checks th:nth-child(1) { width: 28%; }
table.checks th:nth-child(2) { width: 16%; }
table.checks th:nth-child(4) { width: 22%; }
footer { margin-top: 2rem; font-size: .85rem; }
"""

SCRIPT = """
(function () {
  "use strict";
  var nav = document.getElementById("filters");
  var boxes = Array.prototype.slice.call(nav.querySelectorAll("input[data-filter]"));
  var problems = ["does-not-conform", "error"];
  function checkedValues() {
    return boxes.filter(function (box) { return box.checked; })
      .map(function (box) { return box.value; });
  }
  function apply() {
    var shown = checkedValues();
    var items = document.querySelectorAll("main [data-standing]");
    Array.prototype.forEach.call(items, function (item) {
      item.hidden = shown.indexOf(item.getAttribute("data-standing")) === -1;
    });
    var state = shown.length === boxes.length ? "" : "#show=" + shown.join(",");
    if (!state && !/^#show=/.test(location.hash)) {
      return;  // the whole report shown: a link's own fragment (#timeline-2) stays
    }
    try {
      history.replaceState(null, "", state || location.pathname + location.search);
    } catch (ignored) {
      // Some browsers refuse history changes on file: pages; filtering still works.
    }
  }
  function openTarget() {
    // A link to a timeline (or into one) opens it and every collapsed part around it.
    var id = location.hash.slice(1);
    var node = id && id.indexOf("show=") !== 0 ? document.getElementById(id) : null;
    for (; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") { node.open = true; }
    }
  }
  function fromHash() {
    var match = /^#show=([a-z,-]*)$/.exec(location.hash);
    if (!match) { return; }
    var wanted = match[1].split(",");
    boxes.forEach(function (box) { box.checked = wanted.indexOf(box.value) !== -1; });
  }
  boxes.forEach(function (box) { box.addEventListener("change", apply); });
  Array.prototype.forEach.call(nav.querySelectorAll("button[data-preset]"), function (button) {
    button.addEventListener("click", function () {
      var onlyProblems = button.getAttribute("data-preset") === "problems";
      boxes.forEach(function (box) {
        box.checked = !onlyProblems || problems.indexOf(box.value) !== -1;
      });
      apply();
    });
  });
  fromHash();
  openTarget();
  window.addEventListener("hashchange", openTarget);
  nav.hidden = false;
  apply();
  document.body.setAttribute("data-ready", "1");
})();
"""
