"""`cardrules lsp` spoken to as an editor does: JSON-RPC with Content-Length framing over the
real stdin and stdout of a server process. One server serves the module's tests (starting it
costs a second); each request waits at most a few seconds."""
from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading

import pytest
from pygments.token import Token

from cardrules.cli.highlight import RulesLexer

from .conftest import REPO, RULESETS, cli

TIMEOUT = 20  # seconds for one answer: a loaded machine, never a hang


class Client:
    """A tiny LSP client: requests with ids, notifications, and the server's messages read on
    a thread so that a silent server ends a test by timeout, not by hanging it."""

    def __init__(self):
        env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
        self.process = subprocess.Popen([sys.executable, "-m", "cardrules.cli.main", "lsp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO, env=env)
        self.messages: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            headers = {}
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                headers[name.strip().lower()] = value.strip()
            self.messages.put(json.loads(stream.read(int(headers["content-length"])).decode("utf-8")))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict | None = None):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        answer = self.wait(lambda m: m.get("id") == self.next_id and "method" not in m)
        assert "error" not in answer, answer["error"]
        return answer["result"]

    def wait(self, wanted, timeout: float = TIMEOUT) -> dict:
        """The first message `wanted` accepts, skipping the others (logs, other notifications)."""
        import time

        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError("the server did not answer in time")
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                raise AssertionError("the server did not answer in time") from None
            if wanted(message):
                return message

    def diagnostics(self, uri: str) -> list[dict]:
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                         and m["params"]["uri"] == uri)["params"]["diagnostics"]

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cardrules",
                                                              "version": version, "text": text}})


def _start(capabilities: dict) -> Client:
    client = Client()
    result = client.request("initialize", {"processId": None, "rootUri": None, "capabilities": capabilities})
    client.notify("initialized", {})
    client.capabilities = result["capabilities"]
    return client


def _stop(client: Client) -> None:
    try:
        assert client.request("shutdown") is None
        client.notify("exit", {})
        assert client.process.wait(timeout=TIMEOUT) == 0
    finally:
        if client.process.poll() is None:
            client.process.kill()
        client.process.wait()
        client.process.stdin.close()
        client.process.stdout.close()
        client.process.stderr.close()


@pytest.fixture(scope="module")
def server():
    client = _start({})
    yield client
    _stop(client)


KLATS = (RULESETS / "klats.rules").read_text(encoding="utf-8")
URI = "file:///tmp/broken_klats.rules"


def _broken() -> str:
    """Klats with a syntax error in one clause and a misspelt name in another."""
    text = KLATS.replace("winner highest", "winner higest", 1)
    text = text.replace("deal hand_size from draw", "deal hand_sz from draw", 1)
    assert "higest" in text and "hand_sz" in text
    return text


def _utf16(line: str, column: int) -> int:
    """A 1-based character column as LSP's 0-based UTF-16 one."""
    return len(line[:column - 1].encode("utf-16-le")) // 2


def _place(text: str, needle: str, nth: int = 0, into: int = 1) -> dict:
    """The LSP position `into` characters into the nth `needle` of the text."""
    at = [m.start() for m in re.finditer(re.escape(needle), text)][nth] + into
    line = text.count("\n", 0, at)
    column = at - (text.rfind("\n", 0, at) + 1)
    return {"line": line, "character": _utf16(text.split("\n")[line], column + 1)}


def test_the_server_says_what_it_can_do(server):
    caps = server.capabilities
    for capability in ("hoverProvider", "completionProvider", "definitionProvider", "referencesProvider",
                       "documentSymbolProvider"):
        assert caps.get(capability), capability


def test_diagnostics_of_a_broken_file_have_the_ranges_check_gives(server, tmp_path):
    text = _broken()
    server.open(URI, text)
    got = server.diagnostics(URI)
    # what `cardrules check` says: the parse error first; fixed, the checker's error
    path = tmp_path / "broken.rules"
    path.write_text(text, encoding="utf-8")
    r = cli("check", path)
    assert r.code == 1
    first = re.search(r":(\d+):(\d+): error: (.+)\n", r.stderr)
    path.write_text(text.replace("higest", "highest"), encoding="utf-8")
    fixed = cli("check", "--json", path)
    second = re.search(r":(\d+):(\d+): error: (.+)\n", fixed.stderr)
    lines = text.split("\n")
    expected = []
    for found in (first, second):
        line, column = int(found.group(1)), int(found.group(2))
        expected.append((found.group(3), line - 1, _utf16(lines[line - 1], column)))
    shown = [(d["message"].split("\n")[0], d["range"]["start"]["line"], d["range"]["start"]["character"]) for d in got]
    assert shown == expected
    # each range ends where the offending token ends, and carries its hint and source
    higest, sz = got
    assert higest["range"]["end"] == {"line": higest["range"]["start"]["line"],
                                      "character": higest["range"]["start"]["character"] + len("higest")}
    assert sz["range"]["end"]["character"] - sz["range"]["start"]["character"] == len("hand_sz")
    assert all(d["source"] == "cardrules" and d["severity"] == 1 for d in got)
    assert "did you mean 'hand_size'" in sz["relatedInformation"][0]["message"]


def test_columns_are_counted_in_utf16_after_wide_characters(server):
    text = KLATS.replace("setup {", "# 🂡🂡 wide\nsetup {", 1).replace("deal hand_size", "deal 🂡", 1)
    uri = "file:///tmp/wide.rules"
    server.open(uri, text)
    got = server.diagnostics(uri)
    start = got[0]["range"]["start"]
    line = text.split("\n")[start["line"]]
    assert "🂡" in line and line.encode("utf-16-le")[2 * start["character"]:].decode("utf-16-le").startswith("🂡")


def test_columns_are_counted_in_utf8_when_the_client_asks_for_it():
    # a card's items on one line after a wide character: the second `colour` is set twice
    text = KLATS.replace('    name ru "карточка"\n    colour each',
                         '    name ru "🂡 карточка" colour each colour each', 1)
    assert "colour each colour each" in text
    client = _start({"general": {"positionEncodings": ["utf-8", "utf-16"]}})
    try:
        assert client.capabilities["positionEncoding"] == "utf-8"
        uri = "file:///tmp/wide8.rules"
        client.open(uri, text)
        error, = client.diagnostics(uri)
        start, line = error["range"]["start"], text.split("\n")[error["range"]["start"]["line"]]
        assert error["message"].startswith("'colour' is set twice")
        assert line.encode("utf-8")[start["character"]:].decode("utf-8") == "colour each"
        first = {"line": start["line"], "character": len(line[:line.index("colour")].encode("utf-8")) + 2}
        hover = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": first})
        assert "**attribute** `colour`" in hover["contents"]["value"]
    finally:
        _stop(client)


def test_closing_a_file_clears_its_diagnostics(server):
    uri = "file:///tmp/closed.rules"
    server.open(uri, _broken())
    assert server.diagnostics(uri) != []
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert server.diagnostics(uri) == []


def test_typing_is_checked_after_a_pause(server):
    uri = "file:///tmp/typed.rules"
    server.open(uri, KLATS)
    assert server.diagnostics(uri) == []
    for version, text in enumerate((KLATS.replace("hand_size from", "hand_s from"),
                                    KLATS.replace("hand_size from", "hand_sz from")), 2):
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"text": text}]})
    got = server.diagnostics(uri)  # one publication for the two quick changes: of the last text
    assert [d["message"].split("\n")[0] for d in got] == ["unknown name 'hand_sz'", "param 'hand_size' is never used"]
    assert got[1]["severity"] == 2  # a warning


def test_hover_on_a_card_tells_its_plays_and_provenance(server):
    uri = "file:///tmp/hover.rules"
    server.open(uri, KLATS)
    server.diagnostics(uri)
    card = server.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": _place(KLATS, "card skull", into=6)})
    value = card["contents"]["value"]
    assert "**card** `skull`" in value and "play put" in value and "90 игровых карточек" in value
    zone = server.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": _place(KLATS, "from hand", into=6)})
    assert "one per seat" in zone["contents"]["value"] and "seen by its owner only" in zone["contents"]["value"]
    param = server.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": _place(KLATS, "deal hand_size", into=6)})
    assert "default 3, range 1..10" in param["contents"]["value"]


def test_completion_offers_the_names_in_scope(server):
    uri = "file:///tmp/complete.rules"
    server.open(uri, KLATS)
    server.diagnostics(uri)
    result = server.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                        "position": _place(KLATS, "card.colour", into=5)})
    labels = [i["label"] for i in result["items"]]
    assert {"colour", "value"} <= set(labels) and "hand" not in labels  # after `card.`: attributes
    inside = server.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                        "position": _place(KLATS, "deal hand_size", into=5)})
    labels = [i["label"] for i in inside["items"]]
    assert {"hand_size", "draw", "hand", "row", "count", "where", "players"} <= set(labels)


def test_definition_and_references_of_a_zone(server):
    uri = "file:///tmp/refs.rules"
    server.open(uri, KLATS)
    server.diagnostics(uri)
    use = _place(KLATS, "from hand", into=6)
    found = server.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": use})
    decl = _place(KLATS, "zone hand", into=5)
    assert [f["range"]["start"] for f in found] == [decl]
    refs = server.request("textDocument/references", {"textDocument": {"uri": uri}, "position": use,
                                                      "context": {"includeDeclaration": False}})
    uses = sum(1 for kind, word in RulesLexer().get_tokens(KLATS) if word == "hand" and kind is Token.Name)
    assert len(refs) == uses > 2  # every use outside comments and strings, not the declaration


def test_document_symbols_outline_the_clauses(server):
    uri = "file:///tmp/outline.rules"
    server.open(uri, KLATS)
    server.diagnostics(uri)
    found = server.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    names = [s["name"] for s in found]
    assert {"card skull", "zone hand", "play put", "param hand_size", "setup"} <= set(names)
    colour = next(s for s in found if s["name"] == "attribute colour")
    assert [c["name"] for c in colour["children"]] == ["blue", "orange", "green"]


def test_without_pygls_the_command_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)  # as if the extra were not installed
    r = cli("lsp")
    assert r.code == 1 and "needs pygls and lsprotocol" in r.stderr and "cardrules[lsp]" in r.stderr
