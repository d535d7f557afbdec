"""The stylesheet of the timelines, added to ``report.html``'s own and used alone by the
page ``rttool replay --html`` writes.  A constant: no report data is ever placed in it,
so a page's Content-Security-Policy can allow it by hash."""

from __future__ import annotations

__all__ = ["TIMELINE_STYLE"]

TIMELINE_STYLE = """
details.timeline { margin: .3rem 0 .6rem; border: 1px solid var(--line); border-radius: .3rem;
  padding: .2rem .6rem; }
details.timeline > summary { cursor: pointer; font-weight: 600; }
.tl-note { margin: .2rem 0; color: var(--muted); }
.tl-steps { list-style: none; padding: 0; margin: .4rem 0; }
.tl-step { border-left: 3px solid var(--line); margin: .4rem 0; padding: .15rem .6rem; }
.tl-step[data-hit] { border-left-color: #c62828; }
.tl-head { font-weight: 600; overflow-wrap: anywhere; }
.tl-head .n { display: inline-block; min-width: 4.2em; color: var(--muted); font-weight: 400; }
.tl-head .args { font-weight: 400; }
.tl-run { margin: .3rem 0 .3rem .4rem; padding: .1rem .5rem; border-left: 2px dotted var(--line); }
.tl-passes, .tl-list { margin: .2rem 0; padding-left: 1.4rem; }
.tl-pass { margin: .2rem 0; }
.tl-part { margin: .1rem 0; overflow-wrap: anywhere; }
.tl-part > .k { color: var(--muted); margin-right: .4em; }
table.tl-calls { margin: .2rem 0; font-size: .9em; table-layout: auto; }
table.tl-calls td, table.tl-calls th { padding: .1rem .4rem; overflow-wrap: anywhere; }
table.tl-calls th, table.tl-calls td:nth-child(3) { white-space: nowrap; }
.tl-unanswered { color: var(--muted); }
.hit { outline: 2px solid #c62828; outline-offset: 1px; background: #c6282812; }
.flag { border-left: 4px solid #c62828; background: #c6282818; padding: .2rem .5rem;
  margin: .25rem 0; overflow-wrap: anywhere; }
.versus { display: grid; grid-template-columns: max-content 1fr; gap: 0 .8rem; margin: .2rem 0 0; }
.versus dt { font-weight: 600; }
.versus dd { margin: 0; overflow-wrap: anywhere; }
.tag { font-size: .8em; padding: 0 .4em; border-radius: .5em; border: 1px solid currentColor;
  margin-left: .3em; font-weight: 600; white-space: nowrap; }
.tag-pause { color: #1d4ed8; }
.tag-cut { color: #b45309; }
.tag-resume { color: #2e7d32; }
.tag-fail { color: #c62828; }
.cut { color: var(--muted); font-style: italic; }
.where { display: block; color: var(--muted); font-size: .9em; }
"""
