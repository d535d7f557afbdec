"""``rttool scenarios list|show|dump``: every scenario the suite can send.

* ``list`` prints one line per scenario: its id, kind, the clauses it serves, the
  capabilities it needs, and the scenario its check judges before sending it, if any;
* ``show ID`` prints one scenario (or every scenario of a case) with those facts, then
  its JSON (``--json``: the JSON alone, one scenario per line);
* ``dump DIR`` writes each scenario as a JSON file valid against
  ``adapters/schemas/scenario.json``, and ``index.json`` listing them.

Each action builds the :class:`~conformance.catalog.Catalog` and renders it with a
function of this module.  Exit codes: 0, or 2 for a usage error (an unknown ``--only``
or ID, a directory that cannot be written).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from conformance._escape import printable
from conformance.cli import EXIT_OK, EXIT_USAGE
from conformance.cli._output import Output, emit, text

if TYPE_CHECKING:
    from adapters.handshake import Handshake
    from conformance.catalog import Catalog, Entry

__all__ = ["configure", "dumped_text", "listing_text", "shown_output"]

_DESCRIPTION = """\
Every scenario the suite can send: the hand-written checks', the rule examples'
(vectors), and a sample of what the property-based hunt generates (kind hunt-sample: a
run draws its own).  No scenario is sent to your implementation.  Each check is run,
as in a real run, against a recorder.  The handshake the checks see is the bundled
reference runtime's, which claims every profile and offers every capability, or with
--impl your harness's (only hello is sent to it); a check whose scenario is sized from
the handshake (declared limits, entry points, resumable causes) is listed as that
handshake shapes it.  Some checks send a second scenario only after
judging the trace of the first: the reference runtime answers the first so that the
second can be listed, and it is marked "after" the first.  An implementation whose
answer to the first fails the check never receives it.  --first-only lists only what
each check sends before judging anything, and runs nothing.
"""


def _common(parser: argparse.ArgumentParser) -> None:
    from conformance._arguments import non_negative_int, positive_float

    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="RULE[#cN]",
        help="only scenarios serving these rules or clauses; repeatable",
    )
    parser.add_argument(
        "--hunt-samples",
        type=non_negative_int,
        default=None,
        metavar="N",
        help="how many hunt scenarios to draw (default 10; 0: none)",
    )
    parser.add_argument(
        "--seed", type=int, default=None, metavar="N", help="seed of the hunt sample (default 0)"
    )
    parser.add_argument(
        "--first-only",
        action="store_true",
        help="only what each check sends before judging anything; nothing is run",
    )
    parser.add_argument(
        "--impl",
        default=None,
        metavar="SPEC",
        help="list for this harness's handshake (only hello is sent to it): what it "
        "lacks is marked not sent",
    )
    parser.add_argument(
        "--timeout", type=positive_float, default=30.0, metavar="S", help=argparse.SUPPRESS
    )


def configure(parser: argparse.ArgumentParser) -> None:
    """Add ``list``, ``show`` and ``dump`` to ``parser``."""
    parser.description = _DESCRIPTION
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(
        dest="scenarios_command", metavar="ACTION", parser_class=type(parser), required=True
    )
    listing = sub.add_parser("list", help="one line per scenario", description=_DESCRIPTION)
    _common(listing)
    listing.set_defaults(handler=_list)
    show = sub.add_parser(
        "show", help="one scenario, or a case's, with its JSON", description=_DESCRIPTION
    )
    show.add_argument("id", metavar="ID", help="a scenario id as listed, a case id, or a bare id")
    show.add_argument("--json", action="store_true", help="only the JSON, one scenario a line")
    _common(show)
    show.set_defaults(handler=_show)
    dump = sub.add_parser(
        "dump",
        help="write every scenario as a JSON file, with index.json",
        description=_DESCRIPTION,
    )
    dump.add_argument("directory", type=Path, metavar="DIR", help="where the files go")
    _common(dump)
    dump.set_defaults(handler=_dump)


def _catalog(args: argparse.Namespace) -> Catalog:
    from conformance.catalog import DEFAULT_SAMPLES, DEFAULT_SEED, build_catalog

    samples = DEFAULT_SAMPLES if args.hunt_samples is None else args.hunt_samples
    seed = DEFAULT_SEED if args.seed is None else args.seed
    handshake = None if args.impl is None else _handshake(args.impl, args.timeout)
    return build_catalog(
        only=args.only,
        first_only=args.first_only,
        samples=samples,
        seed=seed,
        handshake=handshake,
    )


def _handshake(impl: str, timeout: float) -> Handshake:
    from adapters import Driver, connect
    from conformance import __version__
    from conformance.engine import resolve_spec

    connection = connect(resolve_spec(impl, None), timeout=timeout)
    driver = Driver(connection, timeout=timeout, suite_version=__version__)
    try:
        return driver.handshake()
    finally:
        driver.close()


def _serves(entry: Entry) -> str:
    if len(entry.clauses) <= 3:
        return ", ".join(entry.clauses)
    return f"{', '.join(entry.rules)} ({len(entry.clauses)} clauses)"


def _line(entry: Entry) -> str:
    parts = [entry.id, entry.kind, f"serves {_serves(entry)}"]
    parts.append("needs " + (", ".join(entry.needs) or "nothing"))
    if entry.observes:
        parts.append("observes " + ", ".join(entry.observes))
    if entry.after:
        parts.append(f"after {entry.after.rsplit('/', 1)[-1]}")
    if entry.missing:
        parts.append(f"not sent: the handshake lacks {entry.missing}")
    return "  ".join(parts)


def _stopped(catalog: Catalog) -> list[str]:
    return [
        f"rttool: {case.id}: listed up to where it stopped ({case.ended})"
        for case in catalog.cases
        if case.stopped_early
    ]


def _said(lines: list[str]) -> Output:
    return Output(text(printable(line) for line in lines))


def listing_text(catalog: Catalog) -> Output:
    """A line per scenario, then the cases that stopped early, then the counts."""
    lines = [_line(entry) for entry in catalog.entries]
    return _said([*lines, *_stopped(catalog), _summary(catalog)])


def _list(args: argparse.Namespace) -> int:
    emit(listing_text(_catalog(args)))
    return EXIT_OK


def _counted(catalog: Catalog) -> str:
    """How many scenarios, and how many of them the checks and vectors list."""
    from conformance.cli import plural

    samples = sum(entry.kind == "hunt-sample" for entry in catalog.entries)
    applicable = [case for case in catalog.cases if case.applicable]
    checks = sum(case.kind == "check" for case in applicable)
    vectors = len(applicable) - checks
    return (
        f"{plural(len(catalog.entries), 'scenario')}: {plural(checks, 'check')} and "
        f"{plural(vectors, 'vector')} list {len(catalog.entries) - samples}"
    )


def _summary(catalog: Catalog) -> str:
    from conformance.cli import plural

    samples = sum(entry.kind == "hunt-sample" for entry in catalog.entries)
    later = sum(entry.after is not None for entry in catalog.entries)
    unsent = sum(entry.missing is not None for entry in catalog.entries)
    parts = [_counted(catalog)]
    if catalog.first_only:
        parts.append("each case's first only (nothing was run)")
    else:
        parts.append(f"{later} sent only after their check judged an earlier one (marked after)")
    if unsent:
        parts.append(f"{unsent} not sent to this handshake (marked not sent)")
    inapplicable = sum(not case.applicable for case in catalog.cases)
    if inapplicable:
        parts.append(f"{plural(inapplicable, 'case')} not applicable (a profile not claimed)")
    parts.append(f"{plural(samples, 'hunt sample')} drawn with seed {catalog.seed}")
    return "; ".join(parts) + "."


def _facts(entry: Entry, catalog: Catalog) -> list[str]:
    if entry.missing:
        sent = f"not to this handshake: it lacks {entry.missing} (the case is untested)"
    elif entry.kind == "hunt-sample":
        sent = f"in a run the hunt draws its own; this one was drawn with seed {catalog.seed}"
    elif entry.after:
        sent = (
            f"only after {entry.after}, and only when the check found nothing wrong in its "
            "trace (listed here as the reference runtime's answer leads the check to it)"
        )
    else:
        sent = "first: its check sends it before judging anything"
    return [
        entry.id,
        f"  kind: {entry.kind} (case {entry.case})",
        f"  serves: {', '.join(entry.clauses)}",
        f"  needs: {', '.join(entry.needs) or 'nothing'}",
        f"  observes: {', '.join(entry.observes) or 'nothing'}",
        f"  sent: {sent}",
    ]


def _unknown(wanted: str, catalog: Catalog) -> Output:
    close = [e.id for e in catalog.entries if wanted.lower() in e.id.lower()][:3]
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    said = f"rttool: error: no scenario or case {wanted!r}{hint} (see rttool scenarios list)"
    return Output(err=text([printable(said)]))


def shown_output(found: Sequence[Entry], catalog: Catalog, *, json_only: bool) -> Output:
    """Each scenario found: its facts, then its JSON (``json_only``: one scenario a line)."""
    from adapters.codec import to_json

    out = []
    for entry in found:
        scenario = to_json(entry.scenario)
        if json_only:
            out.append(json.dumps(scenario, ensure_ascii=False) + "\n")
            continue
        out.append(text(printable(line) for line in _facts(entry, catalog)))
        out.append(json.dumps(scenario, indent=2, ensure_ascii=False) + "\n")
    return Output("".join(out))


def _show(args: argparse.Namespace) -> int:
    catalog = _catalog(args)
    found = catalog.find(args.id)
    if not found:
        emit(_unknown(args.id, catalog))
        return EXIT_USAGE
    emit(shown_output(found, catalog, json_only=args.json))
    return EXIT_OK


def _write(directory: Path, name: str, value: object) -> None:
    from adapters.files import write_file

    text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    write_file(directory, name, text.encode("utf-8"))


def _index(catalog: Catalog, names: Mapping[str, str]) -> dict[str, object]:
    """``index.json``: the suite, the handshake, and a line per scenario file."""
    from adapters.handshake import PROTOCOL
    from conformance import __version__
    from conformance.report import capability_names

    return {
        "format": "rttool-scenarios/1",
        "suite": {"name": "rttool", "version": __version__},
        "protocol": PROTOCOL,
        "handshake": {
            "profiles": list(catalog.handshake.profiles),
            "capabilities": list(capability_names(catalog.handshake.capabilities)),
        },
        "first_only": catalog.first_only,
        "hunt_seed": catalog.seed,
        "scenarios": [
            {
                "file": names[entry.id],
                "id": entry.id,
                "case": entry.case,
                "kind": entry.kind,
                "clauses": list(entry.clauses),
                "needs": list(entry.needs),
                "observes": list(entry.observes),
                "after": entry.after,
            }
            for entry in catalog.entries
        ],
    }


def dumped_text(catalog: Catalog, directory: Path) -> Output:
    """The cases that stopped early, what was written where, and the counts."""
    wrote = f"wrote {len(catalog.entries)} scenarios and index.json to {directory}"
    return _said([*_stopped(catalog), wrote, _summary(catalog)])


def _dump(args: argparse.Namespace) -> int:
    from adapters.codec import to_json
    from adapters.errors import RttoolError
    from conformance.catalog import file_names

    catalog = _catalog(args)
    directory: Path = args.directory
    names = file_names(catalog.entries)
    try:
        for entry in catalog.entries:
            _write(directory, names[entry.id], to_json(entry.scenario))
        _write(directory, "index.json", _index(catalog, names))
    except OSError as err:
        raise RttoolError(
            "cannot write the scenarios",
            path=str(err.filename or directory),
            complaint=err.strerror or str(err),
        ) from err
    emit(dumped_text(catalog, directory))
    return EXIT_OK
