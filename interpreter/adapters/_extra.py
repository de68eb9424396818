"""The research interfaces' optional packages: missing, they are named in one line with the command that installs them."""

from __future__ import annotations

import importlib.util

INSTALL = "pip install 'cityrules[rl]'"


class MissingExtra(ModuleNotFoundError):
    """A package of the `rl` extra is not installed."""


def require(*modules: str) -> None:
    """Raise MissingExtra, naming the install command, unless every module can be imported."""
    missing = [m for m in modules if _absent(m)]
    if missing:
        raise MissingExtra(f"the research interfaces need {', '.join(missing)}, which is not installed: "
                           f"{INSTALL}", name=missing[0])


def _absent(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except (ImportError, ValueError):   # a module set to None in sys.modules, or without a spec
        return True
