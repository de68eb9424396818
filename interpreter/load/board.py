"""The board file: nodes with attributes and cells, edges with attributes (a `core.board.Board`)."""

from __future__ import annotations

from typing import Any

from ruledsl.diagnostics import Span, did_you_mean
from ruledsl.types import Type, type_of_data, unify
from ruledsl.world import DataSource

from ..core.board import Board
from .base import LoaderBase, _freeze
from .misspelt_keys import check_misspelt_keys
from .yamlsource import PositionMap


class BoardMixin(LoaderBase):
    """Reads the board file into a graph and per-attribute columns."""

    def board(self, data: dict[str, Any], pos: PositionMap) -> tuple[Any, ...] | None:
        graph = Board()
        if "board" not in data:
            return graph, [], {"id": Type("none", (), True)}, {"id": ()}, (), False, {}
        board, bpos, shown = self.yaml(data["board"], "board", pos.nearest(("board",)),
                                       f"board file '{data['board']}' not found")
        if bpos is None:
            return None
        if self.diags.has_errors or not isinstance(board, dict):
            return None
        graph = Board(bool(board.get("directed")))
        node_ids: list[Any] = []
        rows: list[int] = []  # where each node is in the file's list of nodes
        for i, node in enumerate(board["nodes"]):
            nid = node["id"]
            if nid in graph:
                self.diags.error(bpos.nearest(("nodes", i, "id")), "duplicate", f"node id {nid!r} is used twice")
                continue
            self.whole_numbers(node, ("nodes", i), bpos)
            graph.add_node(nid, {k: v for k, v in node.items() if k != "id"})
            node_ids.append(nid)
            rows.append(i)
        check_misspelt_keys(board["nodes"], "node", (), "nodes", bpos, self.diags)
        self.whole_numbers(board.get("edges") or [], ("edges",), bpos)
        for i, edge in enumerate(board.get("edges") or []):
            a, b, extra = (edge[0], edge[1], {}) if isinstance(edge, list) else (
                edge["from"], edge["to"], {k: v for k, v in edge.items() if k not in ("from", "to")})
            for end, key in ((a, 0 if isinstance(edge, list) else "from"), (b, 1 if isinstance(edge, list) else "to")):
                if end not in graph:
                    self.diags.error(bpos.nearest(("edges", i, key)), "unknown-node",
                                     f"edge {i + 1} names node {end!r}, which the board does not have",
                                     did_you_mean(str(end), [str(n) for n in node_ids]))
            if a in graph and b in graph:
                graph.add_edge(a, b, extra)
        if self.diags.has_errors:
            return None
        attrs: dict[str, Type] = {"id": type_of_data(node_ids[0]) if node_ids else Type("any", (), True)}
        for nid in node_ids:
            attrs["id"] = unify(attrs["id"], type_of_data(nid))
        names = sorted({k for n in node_ids for k in graph.nodes[n]})
        values: dict[str, tuple[Any, ...]] = {"id": tuple(node_ids)}
        sources: dict[str, DataSource] = {}
        where = self.positions_later(shown)
        for name in names:
            column = tuple(_freeze(graph.nodes[n].get(name)) for n in node_ids)
            sources[name] = DataSource(column, where, ("nodes",), tuple(rows), (name,))
            attrs[name] = self.column_type("node", name, column, node_ids, sources[name], Span(shown, 1, 1))
            values[name] = column
        cells = tuple(tuple((int(c[0]), int(c[1])) for c in (graph.nodes[n].get("cells") or ())) for n in node_ids)
        return graph, node_ids, attrs, values, cells, bool(board.get("reconstructed")), sources


def _edge_columns(graph: Board, node_ids: list[Any], index: dict[Any, int]) -> tuple[
        dict[str, tuple[tuple[list[object], ...], ...]], dict[str, Type]]:
    """Per edge attribute: for each node, its successors with the attribute's value, in node order."""
    names = sorted({k for _, _, d in graph.edges for k in d})
    columns: dict[str, tuple[tuple[list[object], ...], ...]] = {}
    types: dict[str, Type] = {}
    for name in names:
        per_node = []
        t: Type = Type("none", (), True)
        for nid in node_ids:
            pairs = []
            for succ in sorted(graph.successors(nid), key=lambda m: index[m]):
                value = graph.edge(nid, succ).get(name)
                if value is not None:
                    pairs.append([index[succ], value])
                    t = unify(t, type_of_data(value))
            per_node.append(tuple(pairs))
        columns[name] = tuple(per_node)
        types[name] = t
    return columns, types
