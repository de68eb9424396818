"""ray_connect's answers to what a cluster says, with Ray itself replaced by a stand-in that fails on cue
(the real cluster's answers are in test_ray_cluster.py)."""

from __future__ import annotations

import importlib.util
import sys
import types
from typing import Any

import pytest

from interpreter.analysis import ray_connect

SERVER_DIED = ("Initialization failure from server:\nTraceback (most recent call last):\n"
               "psutil.ZombieProcess: PID still exists but it's a zombie (pid=15371)")


class _Ray(types.ModuleType):
    """Ray's init, failing with each of `failures` in turn, then joining."""

    def __init__(self, failures: list[str]) -> None:
        super().__init__("ray")
        self.failures = failures
        self.inits: list[dict[str, Any]] = []
        self.shutdowns = 0

    def is_initialized(self) -> bool:
        return False

    def init(self, **options: Any) -> None:
        self.inits.append(options)
        if len(self.inits) <= len(self.failures):
            raise ConnectionAbortedError(self.failures[len(self.inits) - 1])

    def shutdown(self) -> None:
        self.shutdowns += 1


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> Any:
    def install(failures: list[str]) -> _Ray:
        fake = _Ray(failures)
        found = importlib.util.find_spec
        monkeypatch.setattr(importlib.util, "find_spec",
                            lambda name, *a: object() if name in ("ray", "grpc") else found(name, *a))
        monkeypatch.setitem(sys.modules, "ray", fake)
        monkeypatch.setattr(ray_connect, "wait_for", lambda address, seconds=None: None)
        monkeypatch.setattr(ray_connect, "CLIENT_RETRY_SECONDS", 0.0)
        monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
        return fake
    return install


def test_a_client_server_that_dies_starting_is_tried_again(stand_in: Any) -> None:
    fake = stand_in([SERVER_DIED])
    ray, started = ray_connect.ray_connect("ray://head:10001")
    assert ray is fake and started
    assert [options["address"] for options in fake.inits] == ["ray://head:10001"] * 2
    assert fake.shutdowns == 1


def test_a_client_server_that_keeps_dying_is_one_line_after_the_last_attempt(stand_in: Any) -> None:
    fake = stand_in([SERVER_DIED] * ray_connect.CLIENT_ATTEMPTS)
    with pytest.raises(ValueError) as raised:
        ray_connect.ray_connect("ray://head:10001")
    assert len(fake.inits) == ray_connect.CLIENT_ATTEMPTS
    assert str(raised.value) == ("--backend ray: could not join the Ray cluster at ray://head:10001: "
                                 "Initialization failure from server: psutil.ZombieProcess: PID still exists "
                                 "but it's a zombie (pid=15371)")


@pytest.mark.parametrize("address", ["ray://head:10001", "head:6379"])
def test_other_failures_are_not_tried_again(stand_in: Any, address: str) -> None:
    fake = stand_in(["Permission denied: the cluster refused this token"])
    with pytest.raises(ValueError, match="could not join the Ray cluster at .*: Permission denied"):
        ray_connect.ray_connect(address)
    assert len(fake.inits) == 1

