"""The language server's message loop over stdin and stdout: frames JSON-RPC messages itself.

pygls' own loop, given a header block without `Content-Length`, loses track of where messages start
and stops answering anything, `shutdown` and `exit` included. This loop answers such a block (and
a body that is not JSON) with a JSON-RPC error, skips ahead to the next `Content-Length` header and
goes on; `exit` always ends the process, whatever the server is doing and whether or not the
editor closes its end of the pipe.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
from typing import BinaryIO

from pygls.io_ import StdinAsyncReader, StdoutWriter
from pygls.lsp.server import LanguageServer

PARSE_ERROR = -32700
_LENGTH = re.compile(rb"content-length:[ \t]*(\d+)[ \t]*\r?\n?$", re.IGNORECASE)
_HEADER = re.compile(rb"content-length:", re.IGNORECASE)
_MAX_HEADER_LINES = 32
logger = logging.getLogger(__name__)


def error_message(text: str) -> bytes:
    """A framed JSON-RPC error answer to a message that could not be read (its id is unknown: null)."""
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": PARSE_ERROR, "message": text}}).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class _Framer:
    """Reads one message at a time; after a bad header block, resynchronises on the next Content-Length."""

    def __init__(self, reader: StdinAsyncReader):
        self.reader = reader
        self.carry: bytes | None = None    # a header line found glued to the end of a skipped body

    async def _line(self) -> bytes:
        if self.carry is not None:
            line, self.carry = self.carry, None
            return line
        return await self.reader.readline()

    async def next(self) -> tuple[bytes | None, str | None, bool]:
        """(body, problem, at end): a message's body, or what was wrong with its framing."""
        length: int | None = None
        lines = 0
        while True:
            line = await self._line()
            if not line:
                return None, None, True
            lines += 1
            if line.strip() == b"":
                if length is None:
                    return None, "a header block without Content-Length: message skipped", False
                body = await self.reader.readexactly(length) if length else b""
                if len(body) < length:
                    return None, None, True
                return body, None, False
            found = _LENGTH.match(line.strip() + b"\n")
            if found:
                length = int(found.group(1))
            elif lines > _MAX_HEADER_LINES:
                return None, "a header block too long to be one: message skipped", False

    async def skip_to_header(self) -> None:
        """Drop bytes until a line holding a Content-Length header (it may follow a body on the same line)."""
        while True:
            line = await self.reader.readline()
            if not line:
                return
            found = _HEADER.search(line)
            if found:
                self.carry = line[found.start():]
                return


async def _serve(server: LanguageServer, reader: StdinAsyncReader, writer: StdoutWriter) -> int:
    framer = _Framer(reader)
    protocol = server.protocol
    while True:
        body, problem, ended = await framer.next()
        if ended:
            return 0 if getattr(protocol, "_shutdown", False) else 1
        if problem is not None:
            writer.write(error_message(problem))
            await framer.skip_to_header()
            continue
        assert body is not None
        try:
            raw = json.loads(body)
        except ValueError as err:
            writer.write(error_message(f"a message that is not JSON ({err}): skipped"))
            continue
        if isinstance(raw, dict) and raw.get("method") == "exit":
            return 0 if getattr(protocol, "_shutdown", False) else 1
        try:
            message = json.loads(body, object_hook=protocol.structure_message)
            protocol.handle_message(message)
        except Exception as err:  # a message the protocol cannot take must not end the session
            logger.exception("unable to handle a message")
            writer.write(error_message(f"a message that could not be handled ({type(err).__name__}): skipped"))
        await asyncio.sleep(0)


def serve_stdio(server: LanguageServer, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """Serve over stdio until `exit` or the end of input; returns the exit status LSP asks for."""
    reader = StdinAsyncReader(stdin or sys.stdin.buffer, server.thread_pool)
    writer = StdoutWriter(stdout or sys.stdout.buffer)
    server.protocol.set_writer(writer)
    try:
        return asyncio.run(_serve(server, reader, writer))
    except BrokenPipeError:
        return 1
    finally:
        (stdout or sys.stdout.buffer).flush()


def serve_forever(server: LanguageServer) -> None:
    """Serve over stdio, then end the process at once: a reader thread may still wait on stdin."""
    code = serve_stdio(server)
    sys.stderr.flush()
    os._exit(code)
