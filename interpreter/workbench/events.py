"""Expected events against the log: in order, others allowed between them (a subsequence), or on
request in any order (each expected event matches an event of its own).

An expected event is its kind (`payout`) or its kind with some of its data
(`visit: {seat: Ben, points: 2}`): the fields written must be equal, the others are not looked at.
A seat may be written by name. `no_events` lists kinds of which no other event may have happened:
none at all, or none besides those that `events` matched in the same check.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ruledsl.diagnostics import Diagnostic

from .names import Names, shown
from .where import Failure, Y

SHOWN_EVENTS = 20


class EventMatcher:
    """The events logged since the last check of events, and which of them the expected ones matched."""

    def __init__(self, names: Names, events: list[dict[str, Any]]):
        self.names = names
        self.events = events
        self.matched: set[int] = set()

    def match(self, expected: Y, in_order: bool = True) -> list[Failure]:
        """Failures of `events:` (at most one: the first expected event not found in order), or of
        `events_in_any_order:` (`in_order` false: every expected event that no event of its own fits)."""
        at = 0
        failures = []
        for y in expected.elements():
            kind, data = _parts(y.value)
            found = next((i for i in range(at, len(self.events))
                          if i not in self.matched and self._fits(self.events[i], kind, data)), None)
            if found is None:
                failures.append(Failure(Diagnostic(y.span, "expect-failed", self._missing(kind, data, in_order)),
                                        self._nearby(kind)))
                if in_order:
                    return failures
                continue
            self.matched.add(found)
            at = found + 1 if in_order else 0
        return failures

    def absent(self, kinds: Y) -> list[Failure]:
        """Failures of `no_events:`: an event of one of these kinds that `events:` did not expect."""
        failures = []
        for y in kinds.elements():
            extra = [e for i, e in enumerate(self.events) if e["kind"] == y.value and i not in self.matched]
            if extra:
                failures.append(Failure(Diagnostic(y.span, "expect-failed",
                                                   f"{len(extra)} '{y.value}' event(s) happened since the last "
                                                   "check" + (" besides those expected" if self.matched else "")),
                                        tuple(self.describe(e) for e in extra[:SHOWN_EVENTS])))
        return failures

    def describe(self, event: dict[str, Any]) -> str:
        """An event as a scenario would write it: `kind {field: value, ...}`."""
        data = event.get("data") or {}
        return f"{event['kind']} {shown(data)}" if data else str(event["kind"])

    def _missing(self, kind: str, data: dict[str, Any], in_order: bool = True) -> str:
        wanted = f"{kind} {shown(data)}" if data else kind
        before = len(self.matched)
        later = f" (after the {before} event(s) matched before it)" if before and in_order else ""
        if before and not in_order:
            later = f" (besides the {before} event(s) already matched)"
        return f"no event {wanted} since the last check of events{later}"

    def _nearby(self, kind: str) -> tuple[str, ...]:
        same = [self.describe(e) for e in self.events if e["kind"] == kind]
        if same:
            more = f" (the first {SHOWN_EVENTS})" if len(same) > SHOWN_EVENTS else ""
            seats = ", ".join(f"{n} {i}" for i, n in enumerate(self.names.seats))
            return (f"the '{kind}' events since the last check of events{more}:",
                    *(f"  {line}" for line in same[:SHOWN_EVENTS]),
                    f"(events record seats by number: {seats})")
        counts = Counter(e["kind"] for e in self.events)
        summary = ", ".join(f"{k} x{n}" for k, n in counts.items()) or "none"
        return (f"no '{kind}' event since the last check of events; the events were: {summary}",)

    def _fits(self, event: dict[str, Any], kind: str, data: dict[str, Any]) -> bool:
        if event["kind"] != kind:
            return False
        actual = event.get("data") or {}
        return all(k in actual and self._same(v, actual[k], event) for k, v in data.items())

    def _same(self, wanted: Any, actual: Any, event: dict[str, Any]) -> bool:
        """Equal as data; a seat written by name matches the seat's number among the event's seats."""
        if isinstance(wanted, str) and isinstance(actual, int) and not isinstance(actual, bool):
            return self.names.seat(wanted) == actual and actual in (event.get("seats") or ())
        if isinstance(wanted, list) and isinstance(actual, list):
            return len(wanted) == len(actual) and all(self._same(w, a, event) for w, a in zip(wanted, actual))
        if isinstance(wanted, dict) and isinstance(actual, dict):
            return wanted.keys() == actual.keys() and all(self._same(w, actual[k], event) for k, w in wanted.items())
        if isinstance(wanted, bool) != isinstance(actual, bool):
            return False
        return bool(wanted == actual)


def _parts(value: Any) -> tuple[str, dict[str, Any]]:
    """An expected event's kind and data (checked for shape by check.py)."""
    if isinstance(value, str):
        return value, {}
    (kind, data), = value.items()
    return str(kind), dict(data or {})
