"""standing.json: round trips, schema validity, and refusals naming a JSON pointer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from jsonschema import Draft202012Validator

from adapters.errors import SuiteError
from conformance.report import (
    StandingFormatError,
    StandingReport,
    from_json,
    load_standing,
    standing_schema,
    to_json,
)
from tests.report.sample import hostile_report, sample_report
from tests.report.strategies import reports


def test_schema_is_a_valid_2020_12_schema() -> None:
    schema = standing_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_written_json_is_schema_valid_and_has_the_contract_keys() -> None:
    data = json.loads(to_json(sample_report()))
    Draft202012Validator(standing_schema()).validate(data)
    assert {"implementation", "suite", "run", "rules"} <= data.keys()
    rule = data["rules"][2]
    assert {"id", "title", "level", "standing", "clauses"} <= rule.keys()
    clause = rule["clauses"][2]
    assert {"id", "rule", "number", "text", "standing", "checks"} <= clause.keys()
    assert clause["id"] == "RT-TOOL-7#c4"
    assert clause["citation"] == "RT-TOOL-7 ¶4"
    check = clause["checks"][1]
    assert {"name", "outcome", "message"} <= check.keys()
    assert check["id"] == "RT-TOOL-7#c4::held-artifacts-survive-failed-write-back"
    assert data["summary"]["families"][0] == {
        "family": "RT-TOOL",
        "conforming": 1,
        "applicable": 4,
        "counts": {
            "conforms": 1,
            "does-not-conform": 1,
            "untested": 1,
            "not-applicable": 0,
            "error": 1,
        },
    }


@pytest.mark.parametrize("build", [sample_report, hostile_report])
def test_fixed_models_round_trip(build: object) -> None:
    report: StandingReport = build()  # type: ignore[operator]
    text = to_json(report)
    assert from_json(text) == report
    assert to_json(from_json(text)) == text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reports())
def test_any_model_round_trips(report: StandingReport) -> None:
    text = to_json(report)
    back = from_json(text)
    assert back == report
    assert to_json(back) == text


def _sample_data() -> dict[str, object]:
    data: dict[str, object] = json.loads(to_json(sample_report()))
    return data


def _refusal(data: object) -> StandingFormatError:
    with pytest.raises(StandingFormatError) as caught:
        from_json(json.dumps(data), source="reports/x/standing.json")
    return caught.value


def test_not_json_names_line_and_column() -> None:
    with pytest.raises(StandingFormatError) as caught:
        from_json('{"implementation": ', source="s.json")
    assert caught.value.details["source"] == "s.json"
    assert caught.value.details["line"] == 1
    assert "\n" not in str(caught.value)


def test_nan_is_not_json() -> None:
    text = to_json(sample_report()).replace('"duration_s": 12.5', '"duration_s": NaN')
    with pytest.raises(StandingFormatError, match="not JSON"):
        from_json(text)


def test_schema_violation_names_the_pointer() -> None:
    data = _sample_data()
    data["rules"][2]["clauses"][2]["checks"][1]["outcome"] = "exploded"  # type: ignore[index]
    error = _refusal(data)
    assert error.details["pointer"] == "/rules/2/clauses/2/checks/1/outcome"
    assert error.details["source"] == "reports/x/standing.json"
    assert "\n" not in str(error)


def test_missing_contract_key_is_refused() -> None:
    data = _sample_data()
    del data["suite"]
    assert "suite" in str(_refusal(data))


def test_skip_without_skip_kind_is_refused_by_the_schema() -> None:
    data = _sample_data()
    data["rules"][0]["clauses"][2]["checks"][1]["skip_kind"] = None  # type: ignore[index]
    assert _refusal(data).details["pointer"] == "/rules/0/clauses/2/checks/1/skip_kind"


def test_recorded_standing_must_match_the_checks() -> None:
    data = _sample_data()
    data["rules"][2]["standing"] = "conforms"  # type: ignore[index]
    error = _refusal(data)
    assert error.details["pointer"] == "/rules/2/standing"
    assert "do not imply" in str(error)


def test_recorded_summary_must_match_the_rules() -> None:
    data = _sample_data()
    data["summary"]["families"][0]["conforming"] = 4  # type: ignore[index]
    assert _refusal(data).details["pointer"] == "/summary/families/0/conforming"


def test_model_invariant_names_the_object() -> None:
    data = _sample_data()
    data["rules"][2]["clauses"][2]["id"] = "RT-TOOL-7#c9"  # type: ignore[index]
    error = _refusal(data)
    assert error.details["pointer"] == "/rules/2/clauses/2"
    assert "RULE#cNUMBER" in str(error)


def test_load_standing_names_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(StandingFormatError, match="cannot read"):
        load_standing(tmp_path / "missing.json")
    path = tmp_path / "standing.json"
    path.write_text(to_json(sample_report()), encoding="utf-8")
    assert load_standing(path) == sample_report()


def test_writing_validates_against_the_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    from conformance.report import _encode

    real = _encode.encode

    def broken(report: StandingReport) -> dict[str, object]:
        data = real(report)
        data["format"] = "something-else"
        return data

    monkeypatch.setattr(_encode, "encode", broken)
    with pytest.raises(SuiteError, match="breaks its schema"):
        to_json(sample_report())
