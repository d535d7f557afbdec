"""The one nesting limit: JSON text, values in memory and YAML, each refused with the JSON
pointer where the limit was reached; keys given twice; numbers JSON cannot carry."""

from __future__ import annotations

import json

import pytest
import yaml

from adapters.limits import (
    MAX_DEPTH,
    DuplicateKey,
    TooDeep,
    check_depth,
    json_pointer,
    loads,
    yaml_document,
)


def nested(depth: int, key: str | None = None) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value] if key is None else {key: value}
    return value


@pytest.mark.parametrize("depth", [1, MAX_DEPTH])
def test_up_to_the_limit_everything_loads(depth: int) -> None:
    text = json.dumps(nested(depth, "k"))
    assert loads(text) == nested(depth, "k")
    check_depth(nested(depth))


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5_000, 200_000])
def test_past_the_limit_the_pointer_names_the_first_container_too_deep(depth: int) -> None:
    text = "[" * depth + "]" * depth
    with pytest.raises(TooDeep) as caught:
        loads(text)
    assert caught.value.pointer.startswith("/0/0/0")
    assert "(128 levels)" in caught.value.pointer  # 128 steps lead to the first one too deep
    assert "\n" not in str(caught.value)


def test_a_short_pointer_is_given_whole() -> None:
    value = {"a": [0, {"b": nested(MAX_DEPTH - 2)}]}
    with pytest.raises(TooDeep) as caught:
        check_depth(value)
    assert caught.value.pointer.startswith("/a/1/b/0/0")
    with pytest.raises(TooDeep) as again:
        loads(json.dumps(value))
    assert again.value.pointer == caught.value.pointer


def test_the_first_place_in_document_order_is_named() -> None:
    value = [nested(3), {"x~/y": nested(MAX_DEPTH)}, nested(MAX_DEPTH + 5)]
    with pytest.raises(TooDeep) as caught:
        check_depth(value)
    assert caught.value.pointer.startswith("/1/x~0~1y/0/0")


def test_a_value_that_contains_itself_is_too_deep() -> None:
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(TooDeep):
        check_depth({"loop": loop})


def test_keys_given_twice_are_named_with_their_pointer() -> None:
    text = '{"a": [{"x": 1}, {"x": 1, "y": 2, "x": 3}]}'
    assert loads(text) == {"a": [{"x": 1}, {"x": 3, "y": 2}]}  # merged unless asked
    with pytest.raises(DuplicateKey) as caught:
        loads(text, unique_keys=True)
    assert (caught.value.pointer, caught.value.key) == ("/a/1/x", "x")


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"x": -Infinity}', "[1e400]", "-1e999"])
def test_numbers_json_cannot_carry_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        loads(text)


def test_pointers_escape_tilde_and_slash() -> None:
    assert json_pointer(["a/b", "c~d", 3]) == "/a~1b/c~0d/3"


@pytest.mark.parametrize("depth", [300, 100_000])
def test_yaml_past_the_limit_names_pointer_and_line(depth: int) -> None:
    text = "top:\n  list:\n    - " + "[" * depth + "]" * depth + "\n"
    with pytest.raises(TooDeep) as caught:
        yaml_document(text)
    assert caught.value.pointer.startswith("/top/list/0/0/0")
    assert caught.value.details["line"] == 3


def test_yaml_up_to_the_limit_loads() -> None:
    text = "k: " + "[" * (MAX_DEPTH - 1) + "1" + "]" * (MAX_DEPTH - 1) + "\n"
    assert yaml_document(text)[1] == {"k": nested(MAX_DEPTH - 1)}


def test_yaml_aliases_cannot_nest_past_the_limit() -> None:
    # Each anchor only wraps the last in one list: the document is short, the value deep.
    lines = ["a0: &a0 [1]"] + [f"a{i}: &a{i} [*a{i - 1}]" for i in range(1, MAX_DEPTH + 5)]
    with pytest.raises(TooDeep):
        yaml_document("\n".join(lines) + "\n")


def test_block_yaml_past_the_limit_is_refused_too() -> None:
    text = "k:\n" + "".join("  " * level + "- \n" for level in range(1, 2 * MAX_DEPTH))
    with pytest.raises(TooDeep) as caught:
        yaml_document(text)
    assert caught.value.details["line"] == MAX_DEPTH + 1


def test_yaml_safety_is_kept() -> None:
    with pytest.raises(yaml.constructor.ConstructorError):
        yaml_document("x: !!python/object/apply:os.system ['true']\n")


def _laughs(levels: int) -> str:
    """A "billion laughs": each level a list naming the one below nine times."""
    text = "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9]\n"
    below = "a"
    for level in range(1, levels + 1):
        text += f"l{level}: &l{level} [{', '.join(['*' + below] * 9)}]\n"
        below = f"l{level}"
    return text


def test_a_yaml_document_expanding_past_its_limit_through_aliases_is_refused() -> None:
    """A few hundred bytes whose aliases expand to billions of values: loading shares
    them and is cheap, but whatever walks the value would not end."""
    from adapters.limits import MAX_EXPANDED, TooDeep, TooManyValues

    with pytest.raises(TooManyValues, match=f"past the limit of {MAX_EXPANDED} values") as caught:
        yaml_document(_laughs(9))
    assert isinstance(caught.value, TooDeep)  # refused wherever depth is
    assert caught.value.pointer == "/l5"
    _, small = yaml_document("x: &x [1, 2]\ny: [*x, *x]\n")
    assert small == {"x": [1, 2], "y": [[1, 2], [1, 2]]}
