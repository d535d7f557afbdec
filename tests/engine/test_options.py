"""A run option is declared once: rttool run's arguments and the pytest plugin's options
are both made from the engine's one table, and both resolve to the same RunOptions."""

from __future__ import annotations

import argparse
from dataclasses import fields
from pathlib import Path

import pytest

from adapters.errors import SpecError
from conformance.engine import RUN_OPTIONS, RunOptions, add_pytest_options, add_run_arguments


def _cli(*argv: str) -> RunOptions:
    parser = argparse.ArgumentParser()
    add_run_arguments(parser)
    return RunOptions.from_arguments(parser.parse_args(list(argv)))


def test_every_option_is_a_field_and_every_field_but_the_derived_an_option() -> None:
    names = {one.name for one in RUN_OPTIONS}
    derived = {"spec", "ci", "strict_pointers"}
    assert names == {one.name for one in fields(RunOptions)} - derived
    assert len(names) == len(RUN_OPTIONS)


def test_the_command_line_and_the_plugin_read_the_same_option_alike() -> None:
    added: dict[str, dict[str, object]] = {}

    def add(flag: str, **keywords: object) -> None:
        added[flag] = keywords

    add_pytest_options(add)
    assert set(added) == {one.plugin for one in RUN_OPTIONS if one.plugin}
    assert added["--rttool-timeout"]["default"] == 30.0
    cli = _cli("--timeout", "7", "--only", "RT-TOOL-7", "--level", "core")
    values = {one.name: None for one in RUN_OPTIONS if one.plugin}
    values |= {"timeout": 7.0, "only": ["RT-TOOL-7"], "gate": ["core"], "impl": "reference"}
    values |= {"no_hunt": False, "quiet": False, "levels": []}
    plugin = RunOptions.of(values)
    assert (cli.timeout, cli.only, cli.gate) == (plugin.timeout, plugin.only, plugin.gate)


def test_options_resolve_the_spec_and_the_report_directory(tmp_path: Path) -> None:
    options = _cli("--mutant", "artifacts-under-metadata", "--report-dir", str(tmp_path / "r"))
    assert options.spec.endswith("?mutant=artifacts-under-metadata")
    assert options.report_dir == (tmp_path / "r").resolve()
    with pytest.raises(SpecError):
        _cli("--impl", "ftp://nowhere")


def test_a_bad_value_is_refused_on_the_option_that_has_it() -> None:
    with pytest.raises(SystemExit):
        _cli("--timeout", "-1")


def test_a_report_records_the_spec_without_a_path_of_the_machine(tmp_path: Path) -> None:
    from conformance.engine import shown_spec

    inside = tmp_path / "harnesses" / "h.mjs"
    assert shown_spec(f"stdio:node {inside}", tmp_path) == "stdio:node harnesses/h.mjs"
    assert shown_spec("stdio:/usr/bin/php /srv/app/bin/h --token=abc", tmp_path) == (
        "stdio:…/php …/h --token=***"
    )
    assert shown_spec("http://u:pw@host:8080/rttool", tmp_path) == "http://***@host:8080/rttool"
    assert shown_spec("stdio:php /var/x/h.php", tmp_path) == "stdio:php …/h.php"
    assert shown_spec("reference", tmp_path) == "reference"
