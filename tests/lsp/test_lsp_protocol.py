"""The server's framing of messages: a malformed message is answered and skipped; `exit` always ends it."""

from __future__ import annotations

import json
from pathlib import Path

from interpreter.load.loader import games_root
from lsp_helpers import Client
from workbench_helpers import game_copy


def _hover_body(client: Client, u: str) -> bytes:
    client.next_id += 1
    return json.dumps({"jsonrpc": "2.0", "id": client.next_id, "method": "textDocument/hover",
                       "params": client.position(u, 0, 0)}).encode()


def test_a_header_block_without_content_length_is_answered_and_the_server_goes_on(tmp_path: Path) -> None:
    folder = game_copy(tmp_path, games_root() / "downtown")
    client = Client(folder.parent)
    try:
        u = client.open(folder / "round.rules")
        client.wait_diagnostics(u, 0)
        client.send_raw(b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + _hover_body(client, u))
        error = client.next_error()
        assert error["code"] == -32700 and "Content-Length" in error["message"]
        # The skipped body ran into the next message's header: that message is still read.
        client.send_raw(b"Content-Length: 5\r\n\r\n{oops")
        assert "not JSON" in client.next_error()["message"]
        assert client.request("textDocument/hover", client.position(u, 0, 0)) is None
        assert client.request("shutdown", {}, timeout=10) is None
        client.notify("exit", {})
        assert client.proc.wait(timeout=10) == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()


def test_exit_ends_the_server_without_shutdown_and_with_stdin_still_open(tmp_path: Path) -> None:
    folder = game_copy(tmp_path, games_root() / "downtown")
    client = Client(folder.parent)
    try:
        client.send_raw(b"X-Nonsense: 1\r\n\r\n{\"jsonrpc\": \"2.0\"}")
        client.next_error()
        client.notify("exit", {})
        assert client.proc.wait(timeout=10) == 1   # LSP: exit without shutdown ends with 1
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
