"""Check game.yaml / board.yaml data against their JSON Schemas, in words a game designer understands.

Schemas may carry two extra annotations that only this module reads:
`x-expected` (what a value must be, e.g. "a lowercase name") and
`x-message` / `x-hint` (the whole explanation for a `not` rule, or an extra hint).
"""

from __future__ import annotations

import functools
import importlib.resources
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Callable, Literal

if TYPE_CHECKING:  # jsonschema is only imported when a file has a problem to explain
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

from ruledsl.diagnostics import Diagnostic, Span, did_you_mean

from .yamlsource import Path, PathItem, PositionMap

SchemaName = Literal["game", "board", "components"]

_TYPE_WORDS = {
    "integer": "a whole number",
    "number": "a number",
    "string": "text",
    "boolean": "true or false",
    "object": "a mapping (key: value pairs)",
    "array": "a list",
    "null": "empty",
}


@functools.cache
def load_schema(schema_name: SchemaName) -> dict[str, Any]:
    """The JSON Schema for `game.yaml` or `board.yaml`, read from the interpreter package."""
    text = importlib.resources.files("interpreter.load").joinpath(f"{schema_name}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def _validator(schema_name: SchemaName) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load_schema(schema_name))


@functools.cache
def _fast_validator(schema_name: SchemaName) -> Callable[[object], object] | None:
    """A compiled yes/no check of the same schema, for the common case of a valid file.

    jsonschema's validator is the one that explains errors, but it is slow on big boards and
    card lists. fastjsonschema compiles the schema to Python once; it only knows draft 7, so the
    schema is translated (see `draft7`). Only its "valid" answer is used: on any doubt the
    full validator runs.
    """
    import fastjsonschema  # only imported when a file is checked (an unchanged one is known valid)

    try:
        translated = draft7(load_schema(schema_name))
        assert isinstance(translated, dict)
        return fastjsonschema.compile(translated)
    except Exception:  # a schema it cannot compile is simply checked the slow way
        return None


def draft7(schema: object) -> object:
    """The same schema in draft 7 terms: $defs, prefixItems and $ref with siblings translated."""
    if isinstance(schema, list):
        return [draft7(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, object] = {}
    for key, value in schema.items():
        if key in ("$schema", "$id"):
            continue
        if key == "$defs":
            out["definitions"] = draft7(value)
        elif key == "prefixItems":
            out["items"] = draft7(value)
        elif key == "items" and "prefixItems" in schema:
            out["additionalItems"] = draft7(value)
        elif key == "$ref" and isinstance(value, str):
            out[key] = value.replace("#/$defs/", "#/definitions/")
        else:
            out[key] = draft7(value)
    if "$ref" in out and len(out) > 1:
        # Draft 7 ignores the keywords next to a $ref; 2020-12 applies them all.
        out = {"allOf": [{"$ref": out.pop("$ref")}], **out}
    return out


def check_schema(data: object, positions: PositionMap, schema_name: SchemaName, display_name: str) -> list[Diagnostic]:
    """Every schema violation in `data`, each at the YAML position of the offending value, sorted by position."""
    fast = _fast_validator(schema_name)
    if fast is not None:
        try:
            fast(data)
            return []
        except Exception:  # invalid, or a doubt: the full validator explains
            pass
    try:
        errors = list(_validator(schema_name).iter_errors(data))
        found: list[Diagnostic] = []
        reported: set[tuple[Path, object]] = set()
        for error in errors:
            found.extend(_describe(error, positions, reported))
    except Exception as exc:  # a broken schema or odd data must give a diagnostic, not a traceback
        message = f"could not check the file against the {schema_name} schema: {exc}"
        return [Diagnostic(Span(display_name, 1, 1), "schema", message)]
    unique = list(dict.fromkeys(found))
    return sorted(unique, key=lambda d: (d.span.line, d.span.column))


def _describe(
    error: ValidationError, positions: PositionMap, reported: set[tuple[Path, object]]
) -> Iterator[Diagnostic]:
    """Turn one jsonschema error into one or more diagnostics."""
    path: Path = tuple(error.absolute_path)
    kind = error.validator
    schema = error.schema if isinstance(error.schema, dict) else {}
    if kind in ("oneOf", "anyOf"):
        chosen = _most_relevant(error)
        # A value that fits no branch as a whole reads better as "must be <x-expected>".
        whole = tuple(chosen.absolute_path) == path and chosen.validator not in ("required", "additionalProperties")
        if chosen is not error and not (whole and "x-expected" in schema):
            yield from _describe(chosen, positions, reported)
            return
    if "propertyNames" in error.absolute_schema_path:
        key = error.instance
        span = positions.key_span(path + (key,)) or positions.nearest(path)
        expected = schema.get("x-expected", "a name")
        yield _diag(span, f"{_key_text(key)} is not a valid name{_in(path)}: it must be {expected}")
        return
    if kind == "required":
        yield from _missing(error, path, positions, reported)
        return
    if kind == "additionalProperties":
        yield from _unknown_keys(error, path, positions)
        return
    span = positions.nearest(path)
    yield _diag(span, _message(error, path, schema), _hint(error, schema))


def _most_relevant(error: ValidationError) -> ValidationError:
    try:
        from jsonschema.exceptions import best_match

        return best_match([error]) or error
    except TypeError:  # relevance compares paths, which may mix int and str keys
        return error


def _missing(
    error: ValidationError, path: Path, positions: PositionMap, reported: set[tuple[Path, object]]
) -> Iterator[Diagnostic]:
    # jsonschema raises one error per missing key without saying which, so work it out once per mapping.
    if not isinstance(error.instance, dict):
        return
    required: Any = error.validator_value
    for key in required:
        if key not in error.instance and (path, key) not in reported:
            reported.add((path, key))
            yield _diag(positions.nearest(path), f"missing required key '{key}'{_in(path)}")


def _unknown_keys(error: ValidationError, path: Path, positions: PositionMap) -> Iterator[Diagnostic]:
    if not isinstance(error.instance, dict):
        return
    allowed = [str(k) for k in error.schema.get("properties", {})] if isinstance(error.schema, dict) else []
    for key in error.instance:
        if key in allowed:
            continue
        span = positions.key_span(path + (key,)) or positions.nearest(path)
        hint = did_you_mean(str(key), allowed) or (f"allowed keys: {', '.join(allowed)}" if allowed else None)
        yield _diag(span, f"unknown key {_key_text(key)}{_in(path)}", hint)


def _message(error: ValidationError, path: Path, schema: dict[str, Any]) -> str:
    subject = f"'{_where(path)}'" if path else "the file"
    got = _show(error.instance)
    kind: Any = error.validator
    value: Any = error.validator_value
    if kind == "not" and "x-message" in schema:
        return f"{subject} is not allowed: {schema['x-message']}"
    if "x-expected" in schema and kind not in ("enum", "const", "uniqueItems"):
        return f"{subject} must be {schema['x-expected']}, got {got}"
    if kind == "type":
        types: list[str] = value if isinstance(value, list) else [value]
        return f"{subject} must be {' or '.join(_TYPE_WORDS.get(t, t) for t in types)}, got {got}"
    if kind == "enum":
        return f"{subject} must be one of {', '.join(_plain(v) for v in value)}, got {got}"
    if kind == "const":
        return f"{subject} must be {_plain(value)}, got {got}"
    bounds = {
        "minimum": "at least",
        "maximum": "at most",
        "exclusiveMinimum": "more than",
        "exclusiveMaximum": "less than",
    }
    if kind in bounds:
        return f"{subject} must be {bounds[kind]} {value}, got {got}"
    if kind in ("minItems", "minLength", "minProperties") and value == 1:
        return f"{subject} must not be empty"
    counted = {
        "minItems": "at least {} items",
        "maxItems": "at most {} items",
        "minLength": "at least {} characters",
        "maxLength": "at most {} characters",
        "minProperties": "at least {} keys",
        "maxProperties": "at most {} keys",
    }
    if kind in counted:
        return f"{subject} must have {counted[kind].format(value)}"
    if kind == "uniqueItems":
        return f"{subject} lists the same item more than once"
    if kind == "pattern":
        return f"{subject} must match the pattern {value}, got {got}"
    if kind == "items" and value is False:
        return f"{subject} has too many items"
    if kind in ("oneOf", "anyOf"):
        return f"{subject} does not have any of the allowed forms, got {got}"
    if kind == "False":
        return f"{subject} is not allowed here"
    return f"{subject}: {error.message}"


def _hint(error: ValidationError, schema: dict[str, Any]) -> str | None:
    value: Any = error.validator_value
    if error.validator == "enum" and isinstance(error.instance, str):
        close = did_you_mean(error.instance, [v for v in value if isinstance(v, str)])
        if close:
            return close
    if "x-hint" in schema:
        return str(schema["x-hint"])
    wants_text = error.validator == "type" and "string" in (value if isinstance(value, list) else [value])
    if wants_text and isinstance(error.instance, bool):
        return "YAML reads yes, no, on, off, true and false as true/false; put the value in quotes"
    if wants_text and isinstance(error.instance, (int, float)):
        return "put the value in quotes to make it text"
    return None


def _diag(span: Span, message: str, hint: str | None = None) -> Diagnostic:
    return Diagnostic(span, "schema", message, hint=hint)


def _where(path: Path) -> str:
    """A path as a designer would write it: `state.seat.money.type`, `rules[1]`."""
    text = ""
    for item in path:
        if isinstance(item, int) and not isinstance(item, bool):
            text += f"[{item}]"
        else:
            text += ("." if text else "") + _plain(item)
    return text


def _in(path: Path) -> str:
    return f" in '{_where(path)}'" if path else ""


def _key_text(key: PathItem) -> str:
    return f"'{key}'" if isinstance(key, str) else _plain(key)


def _plain(value: object) -> str:
    """A scalar the way it is written in YAML."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _show(value: object) -> str:
    """A value as quoted in a message: strings in double quotes, small collections inline."""
    if value is None:
        return "nothing"
    if isinstance(value, str):
        shown = json.dumps(value if len(value) <= 40 else value[:37] + "...", ensure_ascii=False)
        return shown
    if isinstance(value, (list, dict)):
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):  # non-string keys and the like
            text = ""
        if text and len(text) <= 40:
            return text
        return "a list" if isinstance(value, list) else "a mapping"
    return _plain(value)
