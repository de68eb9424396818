"""The board as plain data: nodes with their attributes, edges with theirs; a networkx graph on demand.

Loading a game only needs each node's neighbours and the edges' attributes, which plain dicts give
at once; building a networkx graph (and importing networkx, a third of the command's start-up) is
left to the code that asks for `graph()`. It is the same graph as adding the nodes, then the edges
in file order, to an `nx.Graph` (`nx.DiGraph` when the board is directed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx


class Board:
    """Nodes and edges in file order; for each node, the nodes its edges lead to."""

    def __init__(self, directed: bool = False):
        self.directed = directed
        self.nodes: dict[Any, dict[str, Any]] = {}
        self.edges: list[tuple[Any, Any, dict[str, Any]]] = []
        # node -> successor -> the edge's attributes (shared by both ends when undirected)
        self.out: dict[Any, dict[Any, dict[str, Any]]] = {}

    def __contains__(self, node: Any) -> bool:
        return node in self.nodes

    def add_node(self, node: Any, attrs: dict[str, Any]) -> None:
        """A node with its attributes."""
        self.nodes[node] = attrs
        self.out[node] = {}

    def add_edge(self, a: Any, b: Any, attrs: dict[str, Any]) -> None:
        """An edge; a second edge between the same nodes adds its attributes to the first's."""
        self.edges.append((a, b, attrs))
        data = self.out[a].get(b)
        if data is None:
            data = {}
            self.out[a][b] = data
            if not self.directed:
                self.out[b][a] = data
        data.update(attrs)

    def successors(self, node: Any) -> list[Any]:
        """The nodes an edge leads to from `node` (its neighbours, when undirected)."""
        return list(self.out[node])

    def edge(self, a: Any, b: Any) -> dict[str, Any]:
        """The attributes of the edge from a to b."""
        return self.out[a][b]

    def graph(self) -> "nx.Graph[Any]":
        """The board as a networkx graph (built on each call; `Game.graph` keeps one)."""
        import networkx as nx

        g: "nx.Graph[Any]" = nx.DiGraph() if self.directed else nx.Graph()
        for node, attrs in self.nodes.items():
            g.add_node(node, **attrs)
        for a, b, attrs in self.edges:
            g.add_edge(a, b, **attrs)
        return g
