"""--backend ray: the same figures as one process, from a local Ray instance (kept small: Ray is slow to start)."""

from __future__ import annotations

import json

from analysis_helpers import figures_of, spec_of

from interpreter.analysis.figures import timing_free
from interpreter.analysis.parallel import run_batch


def test_ray_backend_gives_the_same_figures_as_one_process() -> None:
    spec = spec_of("downtown", 12)
    local = figures_of(run_batch(spec, 1))
    on_ray = figures_of(run_batch(spec, backend="ray"))
    assert on_ray["run"]["backend"] == "ray"
    assert json.dumps(timing_free(local)) == json.dumps(timing_free(on_ray))
