"""Batches: the same figures whatever the number of workers, and figures that match the games played."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from analysis_helpers import figures_of, journal_files, play, spec_of
from interpreter.analysis.batch import BatchSpec, engine_for, play_game
from interpreter.analysis.figures import timing_free
from interpreter.analysis.parallel import run_batch
from interpreter.analysis.restrict import Restriction
from interpreter.analysis.tally import LeadWatch, Tally, option_keys
from interpreter.core.journal import Journal, replay


def _json(data: dict[str, object]) -> str:
    return json.dumps(timing_free(data), indent=1, ensure_ascii=False)


@pytest.mark.parametrize("game,games", [("downtown", 40), ("city", 12)])
def test_two_workers_give_byte_identical_figures(game: str, games: int) -> None:
    spec = spec_of(game, games, keep_games=True)
    one, two = run_batch(spec, 1), run_batch(spec, 2)
    assert two.jobs == 2
    assert _json(figures_of(one)) == _json(figures_of(two))
    assert one.tally.per_game == two.tally.per_game


def test_slices_depend_on_the_batch_only() -> None:
    spec = spec_of("downtown", 1000)
    slices = spec.slices()
    assert [s[0] for s in slices] == list(range(0, 1000, 4)) and sum(len(s) for s in slices) == 1000
    assert len(spec_of("downtown", 10**6).slices()[0]) == 64


def test_figures_agree_with_the_journals(tmp_path: Path) -> None:
    spec = spec_of("downtown", 6, journals=str(tmp_path))
    data = play(spec)
    files = journal_files(tmp_path)
    assert len(files) == 6
    chosen: Counter[str] = Counter()
    wins = [0] * 4
    engine, _ = engine_for(spec.folder, None)
    for f in files:
        journal = Journal.load(f)
        state = replay(engine, journal)
        assert state["result"] == journal.result
        for w in journal.result["winners"]:  # type: ignore[index]
            wins[w] += 1
        for _, option in journal.choices:
            for key in option_keys(option):
                chosen[key] += 1
    assert data["wins"] == wins
    options = {o["id"]: o["chosen"] for o in data["options"]}
    assert options == dict(chosen)
    assert data["decisions"]["mean"] == pytest.approx(sum(len(Journal.load(f).choices) for f in files) / 6)


def test_economy_by_phase_adds_up_to_the_ledger() -> None:
    spec = spec_of("downtown", 1)
    engine, ledger = engine_for(spec.folder, None)
    record, _ = play_game(engine, ledger, spec, 3)
    paid = [sum(flow[0][s] for (f, _), flow in record.flows.items() if f == "money") for s in range(4)]
    gained = [sum(flow[1][s] for (f, _), flow in record.flows.items() if f == "money") for s in range(4)]
    # Money starts at 30 for every seat and changes only by pay and gain.
    assert [30 - p + g for p, g in zip(paid, gained)] == record.scores
    assert {phase for (_, phase) in record.flows} == {"buying", "pay_out"}


def test_lead_changes_are_counted_between_rounds() -> None:
    watch = LeadWatch("score", "round")
    for rnd, scores in ((1, [0, 0]), (1, [5, 0]), (2, [5, 1]), (3, [5, 9]), (4, [9, 9]), (5, [12, 9])):
        watch.at_decision({"global": {"round": rnd}, "seat": {"score": scores}})
    # Round 2: seat 0 leads alone; round 3: seat 1 takes the lead; round 4 a tie; round 5 seat 0 again.
    assert watch.changes == 2 and watch.change_rounds == [3, 5]


def test_tallies_merge_like_one_tally() -> None:
    spec = spec_of("downtown", 8)
    engine, ledger = engine_for(spec.folder, None)
    records = [play_game(engine, ledger, spec, s)[0] for s in range(8)]
    whole, first, second = Tally(4), Tally(4), Tally(4)
    for r in records:
        whole.add(r)
    for r in records[:3]:
        first.add(r)
    for r in records[3:]:
        second.add(r)
    first.merge(second)
    assert first == whole


def test_restricted_seat_never_chooses_the_forbidden_option(tmp_path: Path) -> None:
    spec = spec_of("downtown", 8, journals=str(tmp_path), restrictions=(Restriction(0, "use_lobby:yes"),))
    data = play(spec)
    for f in journal_files(tmp_path):
        journal = Journal.load(f)
        assert (0, "use_lobby:yes") not in journal.choices
        # The journal of a restricted game replays as an ordinary game.
        assert replay(engine_for(spec.folder, None)[0], journal)["result"] == journal.result
    assert data["restrictions"] == ["0:use_lobby:yes"] and data["restricted"]["forced_decisions"] == 0


def test_a_restriction_that_leaves_nothing_is_counted() -> None:
    data = play(spec_of("downtown", 3, restrictions=(Restriction(1, "side:*"),)))
    assert data["restricted"]["forced_decisions"] > 0 and data["restricted"]["games"] >= 1


def test_interrupted_batch_keeps_the_finished_slices() -> None:
    spec = spec_of("downtown", 40)
    seen = []

    def stop_after_two(done: int, total: int) -> None:
        seen.append(done)
        if len(seen) == 2:
            raise KeyboardInterrupt

    for jobs in (1, 2):
        seen.clear()
        result = run_batch(spec, jobs, progress=stop_after_two)
        assert result.interrupted and 0 < result.tally.games < 40
        played = sum(b - a + 1 for a, b in result.seed_ranges)
        assert played == result.tally.games


def test_rotated_lineup_sits_every_bot_at_every_seat() -> None:
    spec = spec_of("downtown", 8, bots=("greedy", "random", "random", "random"), rotate=True)
    assert [spec.lineup(s).index("greedy") for s in range(4)] == [0, 1, 2, 3]
    assert isinstance(spec, BatchSpec)


def test_skill_gap_batch_rotates_one_bot_against_random_ones() -> None:
    from interpreter.analysis.skill import skill_gap_figure, skill_gap_spec

    base = spec_of("downtown", 80, restrictions=(Restriction(0, "use_lobby:yes"),))
    # "random" against random bots: the measured gap must then be no gap at all.
    gap = skill_gap_spec(base, "random")
    assert gap is not None and gap.bots == ("random",) * 4 and gap.rotate
    assert gap.restrictions == ()
    data = play(gap, 2)
    figure = skill_gap_figure(data, "random")
    assert figure["fair_share"] == 0.25
    assert next(b for b in data["by_bot"] if b["bot"] == "random")["seat_games"] == 320
    lo, hi = figure["win_rate_ci"]
    assert lo <= 0.25 <= hi and not figure["rewards_skill"]


def test_skill_gap_finds_that_a_searching_bot_beats_random_ones() -> None:
    from interpreter.analysis.skill import skill_gap_figure, skill_gap_spec

    gap = skill_gap_spec(spec_of("downtown", 8), "greedy")
    assert gap is not None and gap.bots == ("greedy", "random", "random", "random")
    figure = skill_gap_figure(play(gap, 2), "greedy")
    assert figure["win_rate"] > figure["fair_share"]


def test_option_patterns_count_the_ids_they_match() -> None:
    from fnmatch import fnmatchcase

    data = play(spec_of("downtown", 10, patterns=("target:1?", "parcels:[23]")))
    ids = {o["id"]: o for o in data["options"] if not o["id"].endswith(":*")}
    rows = {o["id"]: o for o in data["option_patterns"]}
    for pattern in ("target:1?", "parcels:[23]"):
        assert rows[pattern]["chosen"] == sum(o["chosen"] for i, o in ids.items() if fnmatchcase(i, pattern))
        assert 0 < rows[pattern]["seat_games"] <= 40 and rows[pattern]["win_rate_ci"] is not None


def test_first_seat_interval_never_leaves_the_possible_range() -> None:
    # Two games give a t-interval many times wider than a win-rate difference can ever be.
    data = play(spec_of("downtown", 2))
    lo, hi = data["first_seat_advantage"]["ci"]
    assert -1.0 <= lo <= data["first_seat_advantage"]["value"] <= hi <= 1.0


@pytest.mark.parametrize("game,seats", [("downtown", 4), ("london", 3), ("city", 3)])
def test_random_bots_on_the_fast_path_give_the_figures_of_step_by_step_play(game: str, seats: int) -> None:
    # A restriction that forbids nothing sends the batch step by step; without one, random bots
    # answer inside the rules' own choose. Every figure must be the same.
    fast = play(spec_of(game, 6, seats))
    slow = play(spec_of(game, 6, seats, restrictions=(Restriction(0, "no-such-option:*"),)))
    for key in ("wins", "score", "margin", "decisions", "rounds", "options_per_decision", "lead_changes",
                "options", "economy", "by_bot", "unfinished"):
        assert fast[key] == slow[key], key
