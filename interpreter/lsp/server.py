"""The language server over stdio (pygls): diagnostics as you type, definitions, hovers, completion.

Each open file belongs to a game folder (the nearest folder above it with a game.yaml); a change
re-checks that folder from the editor's texts (see `project.GameProject`) shortly after the last
keystroke, and publishes validate's diagnostics for every file of the game, including files that
are not open (a change in game.yaml can break a rule). A broken file, or a failure inside the
checker, never stops the server: the failure becomes a diagnostic on the file being edited.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from ruledsl.diagnostics import Diagnostic, Span

from .infer import receiver
from .project import GameProject, Report, file_of, game_folder
from .references import RENAMABLE, occurrences, outline, valid_name
from .stdio import serve_forever
from .symbols import Cursor, Symbol, Symbols, file_at, word_at

SOURCE = "cityrules"
# Wait this long after a keystroke before checking: a burst of typing is checked once, at its end.
DEBOUNCE_SECONDS = 0.05
_KINDS = {
    "phase": T.CompletionItemKind.Function, "formula": T.CompletionItemKind.Function,
    "builtin": T.CompletionItemKind.Function, "table": T.CompletionItemKind.Constant,
    "constant": T.CompletionItemKind.Constant, "collection": T.CompletionItemKind.Constant,
    "component kind": T.CompletionItemKind.Class, "local": T.CompletionItemKind.Variable,
    "parameter": T.CompletionItemKind.Variable, "keyword": T.CompletionItemKind.Keyword,
    "decision": T.CompletionItemKind.EnumMember,
}
_SYMBOL_KINDS = {
    "phase": T.SymbolKind.Function, "formula": T.SymbolKind.Function, "table": T.SymbolKind.Constant,
    "collection": T.SymbolKind.Array, "component kind": T.SymbolKind.Class, "decision": T.SymbolKind.EnumMember,
}
R = TypeVar("R")


class CityrulesServer(LanguageServer):
    """The server's state: a project per game folder, the last report of each, what was published."""

    def __init__(self) -> None:
        super().__init__("cityrules", "0.1.0", text_document_sync_kind=T.TextDocumentSyncKind.Incremental)
        self.projects: dict[Path, GameProject] = {}
        self.reports: dict[Path, Report] = {}
        self.symbols: dict[Path, tuple[Report, Symbols]] = {}
        self.published: dict[Path, set[str]] = {}
        self.pending: dict[Path, asyncio.Task[None]] = {}
        self.timings: list[float] = []   # seconds per check, for `--stats` and the benchmark

    # ------------------------------------------------------------ checking
    def texts(self, folder: Path) -> dict[Path, str]:
        """The open buffers of files inside a game folder, by path."""
        found = {}
        for uri, doc in self.workspace.text_documents.items():
            path = _path(uri)
            if path is not None and folder in path.parents:
                found[path] = doc.source
        return found

    def check_now(self, folder: Path, edited: str | None) -> None:
        """Check a game folder from the open buffers and publish every file's diagnostics."""
        started = time.perf_counter()
        project = self.projects.setdefault(folder, GameProject(folder))
        texts = self.texts(folder)
        try:
            report = project.check(texts)
        except Exception as err:  # the checker's own failure must not take the editor's server down
            self.projects[folder] = GameProject(folder)
            self._publish_failure(edited, err)
            return
        self.reports[folder] = report
        uris: dict[str, list[T.Diagnostic]] = {}
        for path, diags in report.diagnostics.items():
            uri = from_fs_path(str(path))
            if uri is not None:
                uris[uri] = [self.to_lsp(d, report.sources) for d in diags]
        # Open files and files that had problems are told when they have none (left: clear them).
        for uri in self.published.get(folder, set()) | {from_fs_path(str(p)) or "" for p in texts}:
            uris.setdefault(uri, [])
        uris.pop("", None)
        for uri, items in uris.items():
            self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=items))
        self.published[folder] = {uri for uri, items in uris.items() if items}
        self.timings.append(time.perf_counter() - started)

    def _publish_failure(self, uri: str | None, err: Exception) -> None:
        if uri is None:
            return
        where = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
        message = f"cityrules could not check this game: {type(err).__name__}: {err}" + (
            f" (at {Path(where.filename).name}:{where.lineno}; please report it)" if where else "")
        item = T.Diagnostic(range=T.Range(T.Position(0, 0), T.Position(0, 0)), message=message,
                            severity=T.DiagnosticSeverity.Error, code="internal", source=SOURCE)
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[item]))

    def schedule(self, uri: str) -> None:
        """Check the game of a document shortly, once the typing pauses."""
        path = _path(uri)
        folder = game_folder(path) if path is not None else None
        if folder is None:
            return
        waiting = self.pending.pop(folder, None)
        if waiting is not None:
            waiting.cancel()

        async def later() -> None:
            await asyncio.sleep(DEBOUNCE_SECONDS)
            self.pending.pop(folder, None)
            self.check_now(folder, uri)

        self.pending[folder] = asyncio.get_event_loop().create_task(later())

    # ------------------------------------------------------------ conversions
    def to_range(self, span: Span, sources: dict[str, str]) -> T.Range:
        """A span (1-based, end inclusive, in characters) as an LSP range in the client's units."""
        lines = sources.get(span.file, "").splitlines(True)
        start = T.Position(max(0, span.line - 1), max(0, span.column - 1))
        end = T.Position(max(0, span.end_line - 1), max(0, span.end_column))
        if not lines or start.line >= len(lines) or end.line >= len(lines):
            return T.Range(start, end)
        return self.workspace.position_codec.range_to_client_units(lines, T.Range(start, end))

    def to_lsp(self, d: Diagnostic, sources: dict[str, str]) -> T.Diagnostic:
        """A diagnostic as validate prints it: message and hint, code, severity, related places."""
        related = []
        for note in d.related:
            uri = from_fs_path(str(file_of(note.span.file)))
            if uri is not None:
                related.append(T.DiagnosticRelatedInformation(
                    T.Location(uri, self.to_range(note.span, sources)), note.message))
        return T.Diagnostic(
            range=self.to_range(d.span, sources),
            message=d.message + (f" ({d.hint})" if d.hint else ""),
            severity=T.DiagnosticSeverity.Error if d.severity == "error" else T.DiagnosticSeverity.Warning,
            code=d.code, source=SOURCE, related_information=related or None)

    # ------------------------------------------------------------ questions about names
    def at(self, uri: str, position: T.Position) -> tuple[Symbols, Cursor | None, str, int, Report] | None:
        """The symbols of the document's game and the word at a position (None outside any game)."""
        path = _path(uri)
        folder = game_folder(path) if path is not None else None
        if path is None or folder is None:
            return None
        if folder not in self.reports:
            self.check_now(folder, uri)
        report = self.reports.get(folder)
        if report is None:
            return None
        cached = self.symbols.get(folder)
        if cached is None or cached[0] is not report:
            cached = (report, Symbols(folder, report.sources, report.game))
            self.symbols[folder] = cached
        doc = self.workspace.get_text_document(uri)
        lines = doc.lines
        server = self.workspace.position_codec.position_from_client_units(lines, position)
        shown = next((s for s in report.sources if file_of(s) == path), str(path))
        cursor = word_at(doc.source, shown, server.line + 1, server.character + 1)
        return cached[1], cursor, shown, server.line + 1, report

    def receiver_at(self, uri: str, cursor: Cursor) -> list[str] | None:
        """The names written before the '.' in front of the word under the cursor (`s.hand` in `s.hand.x`)."""
        if not cursor.after_dot:
            return None
        lines = self.workspace.get_text_document(uri).source.splitlines()
        here = lines[cursor.span.line - 1] if cursor.span.line <= len(lines) else ""
        return receiver(here[:cursor.span.column - 1])

    def file_named(self, uri: str, position: T.Position) -> T.Location | None:
        """The start of a game file whose name is written at a position (`board: board.yaml`)."""
        path = _path(uri)
        folder = game_folder(path) if path is not None else None
        if folder is None:
            return None
        doc = self.workspace.get_text_document(uri)
        server = self.workspace.position_codec.position_from_client_units(doc.lines, position)
        name = file_at(doc.source, server.line + 1, server.character + 1)
        target = (folder / name).resolve() if name is not None else None
        if target is None or folder not in target.parents or not target.is_file():
            return None
        found = from_fs_path(str(target))
        return T.Location(found, T.Range(T.Position(0, 0), T.Position(0, 0))) if found else None

    def target(self, uri: str, position: T.Position) -> tuple[Symbols, Symbol, Report] | None:
        """The definition a designer may rename or look for the uses of, at a place (None: no such name)."""
        found = self.at(uri, position)
        if found is None or found[1] is None:
            return None
        symbols, cursor, shown, line, report = found
        assert cursor is not None
        meant = symbols.lookup(cursor, shown, line, self.receiver_at(uri, cursor))
        mine = [s for s in meant if s.kind in RENAMABLE and s.span is not None]
        return (symbols, mine[0], report) if mine else None

    def places(self, spans: list[Span], report: Report) -> dict[str, list[T.Range]]:
        """Spans as LSP ranges, by file URI."""
        found: dict[str, list[T.Range]] = {}
        for span in spans:
            uri = from_fs_path(str(file_of(span.file)))
            if uri is not None:
                found.setdefault(uri, []).append(self.to_range(span, report.sources))
        return found

    def location(self, symbol: Symbol, report: Report) -> T.Location | None:
        """Where a symbol is defined, as an LSP location."""
        if symbol.span is None:
            return None
        uri = from_fs_path(str(file_of(symbol.span.file)))
        return T.Location(uri, self.to_range(symbol.span, report.sources)) if uri else None


def _path(uri: str) -> Path | None:
    fs = to_fs_path(uri)
    return Path(fs).resolve() if fs else None


def _guarded(handler: Callable[..., R]) -> Callable[..., R | None]:
    """A request handler that answers nothing rather than fail on anything unforeseen."""

    @functools.wraps(handler)
    def run(*args: object) -> R | None:
        try:
            return handler(*args)
        except JsonRpcException:
            raise   # an answer meant for the editor (a name that cannot be used)
        except Exception:
            traceback.print_exc()   # to the editor's server log (stderr); stdout is the protocol
            return None

    return run


def _hover_text(symbol: Symbol) -> str:
    text = f"```\n{symbol.detail}\n```"
    return text + (f"\n\n{symbol.doc}" if symbol.doc else "")


def build_server() -> CityrulesServer:
    """The server with every feature registered."""
    server = CityrulesServer()

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: CityrulesServer, params: T.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: CityrulesServer, params: T.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: CityrulesServer, params: T.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: CityrulesServer, params: T.DidCloseTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)   # the file on disk counts again

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    @_guarded
    def definition(ls: CityrulesServer, params: T.DefinitionParams) -> list[T.Location] | None:
        named = ls.file_named(params.text_document.uri, params.position)
        if named is not None:
            return [named]
        found = ls.at(params.text_document.uri, params.position)
        if found is None or found[1] is None:
            return None
        symbols, cursor, shown, line, report = found
        assert cursor is not None
        meant = symbols.lookup(cursor, shown, line, ls.receiver_at(params.text_document.uri, cursor))
        places = [ls.location(s, report) for s in meant]
        return [p for p in places if p is not None] or None

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    @_guarded
    def hover(ls: CityrulesServer, params: T.HoverParams) -> T.Hover | None:
        found = ls.at(params.text_document.uri, params.position)
        if found is None or found[1] is None:
            return None
        symbols, cursor, shown, line, report = found
        assert cursor is not None
        meant = symbols.lookup(cursor, shown, line, ls.receiver_at(params.text_document.uri, cursor))
        if not meant:
            return None
        text = "\n\n---\n\n".join(_hover_text(s) for s in meant)
        source = ls.workspace.get_text_document(params.text_document.uri).source
        return T.Hover(T.MarkupContent(T.MarkupKind.Markdown, text), ls.to_range(cursor.span, {shown: source}))

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["."]))
    @_guarded
    def completion(ls: CityrulesServer, params: T.CompletionParams) -> T.CompletionList | None:
        found = ls.at(params.text_document.uri, params.position)
        if found is None:
            return None
        symbols, cursor, shown, line, _ = found
        doc = ls.workspace.get_text_document(params.text_document.uri)
        here = doc.lines[params.position.line] if params.position.line < len(doc.lines) else ""
        before = here[:params.position.character]
        if cursor is not None:
            before = here[:cursor.span.column - 1]
        after_dot = before.rstrip().endswith(".")
        after_run = before.rstrip().endswith("run") and (before.rstrip()[:-3][-1:] in ("", " ", "\t"))
        seen: set[str] = set()
        items = []
        owner = receiver(before) if after_dot else None
        for rank, s in enumerate(symbols.visible(shown, line, after_dot, after_run, owner)):
            if s.name in seen:
                continue
            seen.add(s.name)
            items.append(T.CompletionItem(
                s.name, kind=_KINDS.get(s.kind, T.CompletionItemKind.Field), detail=s.detail,
                documentation=T.MarkupContent(T.MarkupKind.Markdown, s.doc) if s.doc else None,
                sort_text=f"{rank:05d}"))
        return T.CompletionList(is_incomplete=False, items=items)

    @server.feature(T.TEXT_DOCUMENT_REFERENCES)
    @_guarded
    def references(ls: CityrulesServer, params: T.ReferenceParams) -> list[T.Location] | None:
        found = ls.target(params.text_document.uri, params.position)
        if found is None:
            return None
        symbols, target, report = found
        spans = occurrences(symbols, target)
        if not params.context.include_declaration:
            spans = spans[1:]
        return [T.Location(uri, r) for uri, ranges in ls.places(spans, report).items() for r in ranges]

    @server.feature(T.TEXT_DOCUMENT_PREPARE_RENAME)
    @_guarded
    def prepare_rename(ls: CityrulesServer, params: T.PrepareRenameParams) -> T.PrepareRenamePlaceholder | None:
        found = ls.at(params.text_document.uri, params.position)
        if found is None or found[1] is None or ls.target(params.text_document.uri, params.position) is None:
            return None
        cursor = found[1]
        source = ls.workspace.get_text_document(params.text_document.uri).source
        return T.PrepareRenamePlaceholder(ls.to_range(cursor.span, {found[2]: source}), cursor.word)

    @server.feature(T.TEXT_DOCUMENT_RENAME)
    @_guarded
    def rename(ls: CityrulesServer, params: T.RenameParams) -> T.WorkspaceEdit | None:
        problem = valid_name(params.new_name)
        if problem is not None:
            raise JsonRpcInvalidParams(problem)
        found = ls.target(params.text_document.uri, params.position)
        if found is None:
            raise JsonRpcInvalidParams("no name of the game here that can be renamed")
        symbols, target, report = found
        edits = ls.places(occurrences(symbols, target), report)
        return T.WorkspaceEdit(changes={uri: [T.TextEdit(r, params.new_name) for r in ranges]
                                        for uri, ranges in edits.items()})

    @server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @_guarded
    def document_symbol(ls: CityrulesServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol] | None:
        found = ls.at(params.text_document.uri, T.Position(0, 0))
        if found is None:
            return None
        symbols, _, shown, _, report = found
        items = []
        for s in outline(symbols, shown):
            assert s.span is not None
            where = ls.to_range(s.span, report.sources)
            items.append(T.DocumentSymbol(s.name, _SYMBOL_KINDS.get(s.kind, T.SymbolKind.Field), where, where,
                                          detail=s.detail))
        return items

    return server


def serve() -> None:
    """Run the server on standard input and output until the editor sends `exit` or closes it."""
    server = build_server()
    # What is loaded by now (the server's code and libraries) lives as long as the process: kept out
    # of the collector's full passes, which would otherwise walk it again every few keystrokes.
    gc.collect()
    gc.freeze()
    serve_forever(server)
