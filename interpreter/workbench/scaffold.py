"""`cityrules new`: a small game folder that validates, plays, simulates and passes its own scenario.

It is the first step of docs/tutorial.md: every file is commented for a designer who has not
read the language reference yet, and shows each part a game is made of once.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

NAME = re.compile(r"^[a-z][a-z0-9_-]*$")

GAME_YAML = """\
# {title}: a new game, made by `cityrules new`. Everything the game is lives in this folder:
#   game.yaml    this file: the seats, the state that changes during a game, the numbers
#   game.rules   what happens, in the rules language (docs/language.md)
#   tests/       scenarios: the rules' examples, played by `cityrules test {folder}`
# docs/tutorial.md grows it into a complete game, one checked step at a time.
name: {name}
title: {title}
seats: {{min: 2, max: 4}}
rules: [game.rules]
start: game                  # the phase that runs when a game begins (in game.rules)
currency: coins              # the seat field that is the game's money
summary: {{score: points, rounds: round}}   # what `cityrules simulate` reports

# The state: what changes during a game. Seat fields exist once per seat (the rules write
# s.coins), global fields once per game (round).
state:
  seat:
    coins: {{type: int, initial: 3, ledger: true, description: "money: changes only by pay and gain"}}
    points: {{type: int, initial: 0, description: "the score: the most points wins"}}
  global:
    round: {{type: int, initial: 0}}

# Tables: the game's numbers, read by the rules by name. Change a number here, not in the rules.
tables:
  last_round: 5
  wage: 2                    # coins earned by working
  price: 3                   # coins paid for one point
"""

GAME_RULES = """\
# Each round, every seat in turn works (earning `wage` coins) or, if it has `price` coins,
# buys a point. After the last round the most points wins; seats with as many share the win.

# The start phase (named in game.yaml): rounds until the last, then the winners.
phase game:
    while round < last_round:
        round += 1
        log round(round=round) "Round {round}"
        for s in seats:
            run turn(s)
    let best = max([s.points for s in seats])
    end winners [s for s in seats if s.points == best]

# One seat's turn. `choose` waits for the seat's answer; a seat with a single option is not
# asked. Each option has an id, `action:work` or `action:buy`: players may type it, and the
# scenarios in tests/ use it.
phase turn(s: seat):
    let actions = ["work"]
    if s.coins >= price:
        add "buy" to actions
    choose action from actions by s "{s}: work for {wage} coins, or buy a point for {price}? You have {s.coins}."
    if action == "work":
        gain wage to s.coins
        log work(seat=s, coins=wage) "{s} works and earns {wage}"
    else:
        pay price from s.coins
        s.points += 1
        log buy(seat=s, points=s.points) "{s} buys a point ({s.points} now)"
"""

FIRST_SCENARIO = """\
# Scenarios: the rules' examples as tests, played by `cityrules test {folder}`. Each one sets up a
# game, plays choices (option ids such as action:work, or their labels) and says what must follow:
# the decision asked, its options, the events logged, the fields' values, the winners.
# docs/scenarios.md describes them all.
scenarios:
  - name: "Buying a point costs {price} coins; working earns {wage}"
    seats: 2                         # the seats are called Ana and Ben unless `names` says otherwise
    steps:
      - expect:
          decision: action
          asks: [Ana]
          options: [action:work, action:buy]
      - play: [action:buy, action:work]       # Ana buys a point, then Ben works
      # After each answer the game runs on until somebody must choose. In round 2 Ana, with no
      # coins left, can only work: a single option is taken without asking, so Ben is asked next.
      - expect:
          events:
            - round: {{round: 1}}
            - buy: {{seat: Ana, points: 1}}
            - work: {{seat: Ben, coins: {wage}}}
            - round: {{round: 2}}
            - work: {{seat: Ana}}
          fields:
            Ana.points: 1
            Ana.coins: {wage}                    # 3 - {price} + {wage}
            Ben.coins: 5
          asks: [Ben]
"""


class ScaffoldError(Exception):
    """The folder cannot be written (it is not empty, or its name cannot name a game)."""


def game_name(folder: Path) -> str:
    """The game's name from its folder's: plain lowercase letters and digits, words joined by '-'
    (`Café Royal` gives cafe-royal); ScaffoldError when it would not start with a letter."""
    plain = unicodedata.normalize("NFKD", folder.name).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[a-z0-9]+", plain.lower())
    name = "-".join(words)
    if not NAME.match(name):
        raise ScaffoldError(f"'{folder.name}' cannot name a game: use a folder name starting with a letter, "
                            "like my-game")
    return name


def write_game(folder: Path, title: str | None = None) -> Path:
    """Write a new game folder (never over anything that exists) and return it."""
    name = game_name(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ScaffoldError(f"{folder} already exists and is not empty: nothing was written")
    shown_title = title or " ".join(w.capitalize() for w in name.replace("_", "-").split("-"))
    if any(ch in shown_title for ch in "\n\r\"\\") or not shown_title.strip():
        raise ScaffoldError("the title must be one line of text, without quotes or backslashes")
    files = {
        "game.yaml": GAME_YAML.format(name=name, title=_quoted(shown_title), folder=folder.name),
        "game.rules": GAME_RULES,
        "tests/first.yaml": FIRST_SCENARIO.format(folder=folder.name, price=3, wage=2),
    }
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8") as handle:   # "x": never replace a file
            handle.write(text)
    return folder


def _quoted(title: str) -> str:
    """The title as a YAML value: quoted when YAML would read it as something else."""
    plain = re.fullmatch(r"[A-Za-z][A-Za-z0-9 '_-]*", title) and title.lower() not in ("yes", "no", "on", "off",
                                                                                       "true", "false", "null")
    return title if plain else '"' + title + '"'
