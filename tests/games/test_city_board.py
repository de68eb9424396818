"""The City board data (games/city/board.yaml): a reconstructed street plan checked against the
shared board reference (section "City") and the side choices documented in the file's header."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from interpreter.load.schema_check import check_schema
from interpreter.load.yamlsource import load_yaml

BOARD = Path(__file__).resolve().parents[2] / "games" / "city" / "board.yaml"

ROWS, COLS = 9, 7
LAYOUT = [
    "RggRggR",
    "g..g..g",
    "g..g..g",
    "g..g..g",
    "RggXggR",
    "g..g..g",
    "g..g..g",
    "g..g..g",
    "RggRggR",
]
CROSSINGS = {(0, 3), (8, 3), (4, 0), (4, 6), (4, 3)}
CORNERS = {(0, 0), (0, 6), (8, 0), (8, 6)}
STEP = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}


def sid(rc: tuple[int, int]) -> str:
    return f"r{rc[0]}c{rc[1]}"


def rc_of(street_id: str) -> tuple[int, int]:
    row, col = street_id[1:].split("c")
    return int(row), int(col)


@pytest.fixture(scope="module")
def board() -> dict[str, Any]:
    data, _pos, diags = load_yaml(BOARD, "board.yaml")
    assert not diags, diags
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def graph(board: dict[str, Any]) -> "nx.DiGraph[str]":
    g: "nx.DiGraph[str]" = nx.DiGraph()
    for node in board["nodes"]:
        assert node["id"] not in g, f"duplicate node id {node['id']}"
        g.add_node(node["id"], **{k: v for k, v in node.items() if k != "id"})
    for edge in board["edges"]:
        assert isinstance(edge, dict)
        assert edge["from"] in g and edge["to"] in g, edge
        assert not g.has_edge(edge["from"], edge["to"]), f"duplicate edge {edge}"
        g.add_edge(edge["from"], edge["to"], **{k: v for k, v in edge.items() if k not in ("from", "to")})
    return g


def nodes_of(g: "nx.DiGraph[str]", kind: str) -> dict[str, dict[str, Any]]:
    return {n: a for n, a in g.nodes(data=True) if a["kind"] == kind}


def edges_of(g: "nx.DiGraph[str]", kind: str) -> list[tuple[str, str, dict[str, Any]]]:
    return [(a, b, d) for a, b, d in g.edges(data=True) if d["kind"] == kind]


def test_file_passes_the_schema_and_is_marked_reconstructed(board: dict[str, Any]) -> None:
    data, pos, diags = load_yaml(BOARD, "board.yaml")
    assert not diags and not check_schema(data, pos, "board", "board.yaml")
    assert board["directed"] is True
    assert board["reconstructed"] is True
    assert "econstruct" in board["note"]
    assert "RECONSTRUCTION" in BOARD.read_text(encoding="utf-8").split("\n", 3)[1]


def test_every_node_and_edge_has_a_known_kind(graph: "nx.DiGraph[str]") -> None:
    assert {a["kind"] for _, a in graph.nodes(data=True)} == {"street", "shop"}
    assert {d["kind"] for _, _, d in graph.edges(data=True)} == {"street", "front", "beside"}
    assert graph.number_of_nodes() == 39 + 38
    assert len(edges_of(graph, "street")) == 2 * 42
    assert len(edges_of(graph, "front")) == 38
    assert len(edges_of(graph, "beside")) == 2 * (26 + 8)


def test_street_cells_match_the_layout(graph: "nx.DiGraph[str]") -> None:
    streets = nodes_of(graph, "street")
    expected = {(r, c): ch for r, line in enumerate(LAYOUT) for c, ch in enumerate(line) if ch != "."}
    assert len(streets) == len(expected) == 39
    assert {rc_of(n) for n in streets} == set(expected)
    colour = {"R": "red", "g": "grey", "X": "plain"}
    for n, a in streets.items():
        rc = rc_of(n)
        assert n == sid(rc)
        assert a["cells"] == [list(rc)]
        assert a["colour"] == colour[expected[rc]], n
        assert a["crossing"] is (rc in CROSSINGS), n
        assert a["corner"] is (rc in CORNERS), n
    colours = [a["colour"] for a in streets.values()]
    assert (colours.count("red"), colours.count("grey"), colours.count("plain")) == (8, 30, 1)
    assert {rc_of(n) for n, a in streets.items() if a["crossing"]} == CROSSINGS
    assert {rc_of(n) for n, a in streets.items() if a["corner"]} == CORNERS
    assert streets["r4c3"]["colour"] == "plain"


def test_ring_has_28_border_cells_forming_a_cycle(graph: "nx.DiGraph[str]") -> None:
    streets = nodes_of(graph, "street")
    ring = {n for n in streets if rc_of(n)[0] in (0, ROWS - 1) or rc_of(n)[1] in (0, COLS - 1)}
    assert len(ring) == 28
    sub = graph.subgraph(ring).to_undirected()
    assert nx.is_connected(sub)
    assert all(d == 2 for _, d in sub.degree())
    # The red cells are the four corners and the four points where the cross streets meet the ring.
    red = {rc_of(n) for n, a in streets.items() if a["colour"] == "red"}
    assert red == CORNERS | (CROSSINGS - {(4, 3)})


def test_street_edges_follow_the_compass(graph: "nx.DiGraph[str]") -> None:
    streets = nodes_of(graph, "street")
    for a, b, d in edges_of(graph, "street"):
        assert a in streets and b in streets
        (ra, ca), (rb, cb) = rc_of(a), rc_of(b)
        assert (rb - ra, cb - ca) == STEP[d["dir"]], (a, b, d)
        back = graph.get_edge_data(b, a)
        assert back is not None and back["kind"] == "street" and back["dir"] == OPPOSITE[d["dir"]]
    # Every pair of orthogonally adjacent street cells is joined, and nothing else.
    for n in streets:
        r, c = rc_of(n)
        around = {sid((r + dr, c + dc)) for dr, dc in STEP.values()} & set(streets)
        street_succ = {m for m in graph.successors(n) if graph.nodes[m]["kind"] == "street"}
        assert street_succ == around, n
        assert all(graph.edges[n, m]["kind"] == "street" for m in around)


def test_street_graph_is_strongly_connected(graph: "nx.DiGraph[str]") -> None:
    sub = graph.edge_subgraph((a, b) for a, b, _ in edges_of(graph, "street"))
    assert set(sub.nodes) == set(nodes_of(graph, "street"))
    assert nx.is_strongly_connected(sub)


def test_crossings_are_the_cells_with_more_than_two_ways(graph: "nx.DiGraph[str]") -> None:
    streets = nodes_of(graph, "street")
    for n, a in streets.items():
        ways = sum(1 for m in graph.successors(n) if graph.nodes[m]["kind"] == "street")
        assert (ways > 2) is a["crossing"], n
        assert ways >= 2, n


def test_shops_front_the_street_cells(graph: "nx.DiGraph[str]") -> None:
    streets = nodes_of(graph, "street")
    shops = nodes_of(graph, "shop")
    assert len(shops) == 38
    stores = {n for n, a in shops.items() if a["store"]}
    assert len(stores) == 8 and len(shops) - len(stores) == 30
    for n, a in shops.items():
        front = a["front"]
        assert n == f"shop-{front}"
        assert front in streets
        assert a["store"] is (streets[front]["colour"] == "red"), n
        assert a["side"] in STEP
        others = set(graph.predecessors(n)) - {front}
        assert others <= set(shops), n  # besides its street cell, only shops beside it lead to a shop
        assert graph.get_edge_data(front, n) == {"kind": "front"}
    for n in streets:
        fronted = [m for m in graph.successors(n) if graph.edges[n, m]["kind"] == "front"]
        if n == "r4c3":
            assert fronted == []
        else:
            assert fronted == [f"shop-{n}"], n
    for cell, shop, _ in edges_of(graph, "front"):
        assert cell in streets and shop in shops and shops[shop]["front"] == cell


def test_shop_sides_and_blocks(graph: "nx.DiGraph[str]") -> None:
    streets = nodes_of(graph, "street")
    for n, a in nodes_of(graph, "shop").items():
        r, c = rc_of(a["front"])
        dr, dc = STEP[a["side"]]
        beyond = (r + dr, c + dc)
        # A shop never stands on a street: the cell on its side is a block or off the board.
        assert sid(beyond) not in streets, n
        inside = 0 <= beyond[0] < ROWS and 0 <= beyond[1] < COLS
        if inside:
            assert LAYOUT[beyond[0]][beyond[1]] == "."
            assert a["block"] == [list(beyond)], n
        else:
            assert "block" not in a, n
        # Shops are shown on their street cell's box, so they are not drawn on their own.
        assert "cells" not in a, n
    side = {a["front"]: a["side"] for a in nodes_of(graph, "shop").values()}
    # Ring cells face inward; where inward is a street (T-junctions, corners) the store is outside.
    assert all(side[sid((0, c))] == "south" for c in (1, 2, 4, 5))
    assert all(side[sid((8, c))] == "north" for c in (1, 2, 4, 5))
    assert all(side[sid((r, 0))] == "east" for r in (1, 2, 3, 5, 6, 7))
    assert all(side[sid((r, 6))] == "west" for r in (1, 2, 3, 5, 6, 7))
    assert (side["r0c3"], side["r8c3"], side["r4c0"], side["r4c6"]) == ("north", "south", "west", "east")
    assert (side["r0c0"], side["r0c6"], side["r8c0"], side["r8c6"]) == ("north", "north", "south", "south")
    # Cross streets: one frontage on each of the four inner blocks.
    assert all(side[sid((r, 3))] == "east" for r in (1, 2, 3))
    assert all(side[sid((r, 3))] == "west" for r in (5, 6, 7))
    assert (side["r4c1"], side["r4c2"], side["r4c4"], side["r4c5"]) == ("north", "north", "south", "south")


def _streets_through(rc: tuple[int, int]) -> set[str]:
    """Names of the streets (ring sides and cross streets) a cell lies on."""
    r, c = rc
    names = set()
    if r == 0:
        names.add("ring-top")
    if r == ROWS - 1:
        names.add("ring-bottom")
    if c == 0:
        names.add("ring-left")
    if c == COLS - 1:
        names.add("ring-right")
    if c == 3:
        names.add("cross-col3")
    if r == 4:
        names.add("cross-row4")
    return names


def test_beside_edges_follow_the_chain_rule(graph: "nx.DiGraph[str]") -> None:
    # Two shops touch (RULINGS, chains): consecutive shops on the same side of a street; a corner
    # store and the two shops beside it; and the two shops whose buildings meet at the corner of a
    # block (they share a block cell, e.g. shop-r0c1 and shop-r1c0 at [1, 1]).
    shops = nodes_of(graph, "shop")
    beside = edges_of(graph, "beside")
    pairs = {frozenset((a, b)) for a, b, _ in beside}
    for a, b, _ in beside:
        assert a in shops and b in shops and a != b
        assert graph.get_edge_data(b, a) == {"kind": "beside"}, (a, b)
        fa, fb = rc_of(shops[a]["front"]), rc_of(shops[b]["front"])
        if abs(fa[0] - fb[0]) == 1 and abs(fa[1] - fb[1]) == 1:
            assert shops[a]["block"] == shops[b]["block"], (a, b)
            continue
        assert abs(fa[0] - fb[0]) + abs(fa[1] - fb[1]) == 1, (a, b)
        if fa in CORNERS or fb in CORNERS:
            corner, other = (a, b) if fa in CORNERS else (b, a)
            assert shops[corner]["store"]
            assert rc_of(shops[other]["front"]) not in CROSSINGS
        else:
            assert shops[a]["side"] == shops[b]["side"], (a, b)
            assert _streets_through(fa) & _streets_through(fb), (a, b)
    # And every such pair is listed: the rule computed afresh gives exactly the file's pairs.
    by_front = {rc_of(attrs["front"]): n for n, attrs in shops.items()}
    expected = set()
    for here, shop in by_front.items():
        for dr, dc in STEP.values():
            there = (here[0] + dr, here[1] + dc)
            mate = by_front.get(there)
            if mate is None:
                continue
            if here in CORNERS or there in CORNERS:
                expected.add(frozenset((shop, mate)))
            elif shops[shop]["side"] == shops[mate]["side"] and _streets_through(here) & _streets_through(there):
                expected.add(frozenset((shop, mate)))
    by_block: dict[tuple[int, int], list[str]] = {}
    for n, attrs in shops.items():
        if "block" in attrs:
            by_block.setdefault(tuple(attrs["block"][0]), []).append(n)
    at_corners = {frozenset(group) for group in by_block.values() if len(group) == 2}
    assert all(len(group) <= 2 for group in by_block.values())
    assert len(at_corners) == 8
    assert pairs == expected | at_corners
    assert len(pairs) == 26 + 8
    assert frozenset(("shop-r0c1", "shop-r1c0")) in pairs    # the ruling's example

    def mates_of(shop: str) -> set[str]:
        return {m for m in graph.successors(shop) if graph.edges[shop, m]["kind"] == "beside"}

    assert all(len(mates_of(n)) <= 3 for n in shops)
    for rc in CORNERS:
        assert len(mates_of(f"shop-{sid(rc)}")) == 2, rc


def test_only_street_cells_lead_anywhere_but_shops_to_shops(graph: "nx.DiGraph[str]") -> None:
    for a, b, d in graph.edges(data=True):
        ka, kb = graph.nodes[a]["kind"], graph.nodes[b]["kind"]
        assert (ka, kb, d["kind"]) in {("street", "street", "street"), ("street", "shop", "front"),
                                       ("shop", "shop", "beside")}


def test_edges_name_existing_nodes(board: dict[str, Any]) -> None:
    ids = [n["id"] for n in board["nodes"]]
    assert len(ids) == len(set(ids))
    for edge in board["edges"]:
        assert edge["from"] in ids and edge["to"] in ids, edge
    for node in board["nodes"]:
        if node["kind"] == "shop":
            assert node["front"] in ids
