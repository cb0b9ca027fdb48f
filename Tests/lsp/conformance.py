#!/usr/bin/env python3
"""Drives `animc lsp` as three real clients would and validates every message it sends.

Usage: conformance.py ANIMC [FILE.anim ...]

Each client profile (a full LSP 3.17 client; one with no snippets and plaintext only,
as Eglot without yasnippet or ALE; Neovim 0.7's default capabilities) opens every file
and asks for every feature the server advertises at many positions: hover, completion,
signature help, definition, references, highlights, symbols, workspace symbols,
formatting, range formatting, code actions (and their commands, which make the server
send `workspace/applyEdit`), code lenses, inlay hints, semantic tokens (full, delta and
range), folding ranges, document links, prepare rename and rename, then edits the
document. Every message from the server is structured into its lsprotocol type (the
LSP 3.17 meta-model, as pytest-lsp does); one that does not fit is a failure. What a
profile did not declare must not be sent to it (snippets, markdown, hierarchical
symbols, code action literals).

The same session sends `Content-Type` headers as pygls-based clients do, a 1 MiB burst
of notifications in one write, and a frame with a bad `Content-Length`; the request
after each is answered. Last, a hover sent while a slow document is being checked is
answered within 200 ms (a release binary is what users run: pass one).

Exit status 0 when every check passed, 1 otherwise.
"""
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time

from lsprotocol import converters, types

CONVERTER = converters.get_converter()


def _strict(kind, accepts):
    def hook(value, _type):
        if not accepts(value):
            raise TypeError(f"{value!r} is not {kind}")
        return value
    return hook


# cattrs converts primitives ("1" to 1, 5 to "5"); the meta-model does not.
CONVERTER.register_structure_hook(str, _strict("a string", lambda v: isinstance(v, str)))
CONVERTER.register_structure_hook(bool, _strict("a boolean", lambda v: isinstance(v, bool)))
CONVERTER.register_structure_hook(int, _strict("an integer", lambda v: isinstance(v, int) and not isinstance(v, bool)))
CONVERTER.register_structure_hook(float, _strict("a number", lambda v: isinstance(v, (int, float))
                                                 and not isinstance(v, bool)))
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# ---------------------------------------------------------------------------------
# Client capability profiles.

SYMBOL_KINDS = list(range(1, 27))
COMPLETION_KINDS = list(range(1, 26))
CODE_ACTION_KINDS = ["", "quickfix", "refactor", "refactor.extract", "refactor.inline",
                     "refactor.rewrite", "source", "source.organizeImports"]

FULL = {
    "general": {"positionEncodings": ["utf-16"]},
    "workspace": {"applyEdit": True, "workspaceEdit": {"documentChanges": True},
                  "symbol": {"symbolKind": {"valueSet": SYMBOL_KINDS}},
                  "didChangeWatchedFiles": {"dynamicRegistration": False},
                  "executeCommand": {}, "semanticTokens": {"refreshSupport": False}},
    "textDocument": {
        "synchronization": {"didSave": True},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "completion": {"completionItem": {"snippetSupport": True, "documentationFormat": ["markdown", "plaintext"],
                                          "labelDetailsSupport": True},
                       "completionItemKind": {"valueSet": COMPLETION_KINDS}, "contextSupport": True},
        "signatureHelp": {"signatureInformation": {"documentationFormat": ["markdown", "plaintext"],
                                                   "parameterInformation": {"labelOffsetSupport": True},
                                                   "activeParameterSupport": True}},
        "definition": {"linkSupport": True},
        "references": {}, "documentHighlight": {},
        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True, "symbolKind": {"valueSet": SYMBOL_KINDS}},
        "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": CODE_ACTION_KINDS}},
                       "isPreferredSupport": True},
        "codeLens": {}, "documentLink": {"tooltipSupport": True},
        "formatting": {}, "rangeFormatting": {},
        "rename": {"prepareSupport": True},
        "publishDiagnostics": {"relatedInformation": True, "versionSupport": True,
                               "codeDescriptionSupport": True, "dataSupport": True},
        "foldingRange": {"lineFoldingOnly": False},
        "semanticTokens": {"requests": {"range": True, "full": {"delta": True}},
                           "tokenTypes": ["keyword", "number", "string", "comment", "variable", "function",
                                          "property", "type", "operator", "parameter", "enumMember", "macro"],
                           "tokenModifiers": ["declaration", "readonly"], "formats": ["relative"]},
        "inlayHint": {},
    },
    "window": {"showDocument": {"support": True}, "showMessage": {}},
}

# Eglot without yasnippet, ALE: no snippets, plaintext only, flat symbols, commands only.
PLAIN = {
    "workspace": {"applyEdit": True, "symbol": {}},
    "textDocument": {
        "synchronization": {"didSave": True},
        "hover": {"contentFormat": ["plaintext"]},
        "completion": {"completionItem": {"snippetSupport": False}},
        "signatureHelp": {"signatureInformation": {"parameterInformation": {"labelOffsetSupport": True}}},
        "definition": {}, "references": {}, "documentHighlight": {}, "documentSymbol": {},
        "codeAction": {}, "formatting": {}, "rangeFormatting": {}, "rename": {"prepareSupport": True},
        "publishDiagnostics": {}, "foldingRange": {"lineFoldingOnly": True},
    },
}

# vim.lsp.protocol.make_client_capabilities() of Neovim 0.7.
NVIM_07 = {
    "workspace": {"applyEdit": True, "workspaceFolders": True, "configuration": True,
                  "workspaceEdit": {"resourceOperations": ["rename", "create", "delete"]},
                  "symbol": {"dynamicRegistration": False, "hierarchicalWorkspaceSymbolSupport": True,
                             "symbolKind": {"valueSet": SYMBOL_KINDS}}},
    "textDocument": {
        "synchronization": {"dynamicRegistration": False, "willSave": False, "willSaveWaitUntil": False,
                            "didSave": True},
        "codeAction": {"dynamicRegistration": False,
                       "codeActionLiteralSupport": {"codeActionKind": {"valueSet": CODE_ACTION_KINDS}},
                       "isPreferredSupport": True, "dataSupport": True,
                       "resolveSupport": {"properties": ["edit"]}},
        "completion": {"dynamicRegistration": False,
                       "completionItem": {"snippetSupport": False, "commitCharactersSupport": False,
                                          "preselectSupport": False, "deprecatedSupport": False,
                                          "documentationFormat": ["markdown", "plaintext"]},
                       "completionItemKind": {"valueSet": COMPLETION_KINDS}, "contextSupport": False},
        "declaration": {"linkSupport": True}, "definition": {"linkSupport": True},
        "implementation": {"linkSupport": True}, "typeDefinition": {"linkSupport": True},
        "hover": {"dynamicRegistration": False, "contentFormat": ["markdown", "plaintext"]},
        "signatureHelp": {"dynamicRegistration": False,
                          "signatureInformation": {"activeParameterSupport": True,
                                                   "documentationFormat": ["markdown", "plaintext"],
                                                   "parameterInformation": {"labelOffsetSupport": True}}},
        "references": {"dynamicRegistration": False}, "documentHighlight": {"dynamicRegistration": False},
        "documentSymbol": {"dynamicRegistration": False, "symbolKind": {"valueSet": SYMBOL_KINDS},
                           "hierarchicalDocumentSymbolSupport": True},
        "rename": {"dynamicRegistration": False, "prepareSupport": True},
        "publishDiagnostics": {"relatedInformation": True, "tagSupport": {"valueSet": [1, 2]}},
        "callHierarchy": {"dynamicRegistration": False},
    },
    "window": {"workDoneProgress": True, "showMessage": {"messageActionItem": {"additionalPropertiesSupported": False}},
               "showDocument": {"support": False}},
}

# The examples, the language server's fixtures, and fixtures whose findings carry fix-its
# (for code actions and their commands).
DEFAULT_FILES = sorted(os.path.join(ROOT, "examples", f) for f in os.listdir(os.path.join(ROOT, "examples"))
                       if f.endswith(".anim")) + [
    os.path.join(ROOT, "Tests/AnimcLanguageServerTests/Fixtures/lsp", f) for f in ("rename.anim", "words.anim")] + [
    os.path.join(ROOT, "Tests/AnimcCheckerTests/Fixtures/rules", f + ".anim")
    for f in ("E0301-unknown-name", "E0302-unknown-property", "E0304-unit-mismatch", "E0323-swift-spelling",
              "W0504-first-value-pop", "W0510-default-duration", "W0701-unused-suppression")]

PROFILES = [("full", FULL), ("no snippets, plaintext", PLAIN), ("Neovim 0.7", NVIM_07)]

# ---------------------------------------------------------------------------------
# A client over pipes.

failures = []


def fail(message):
    failures.append(message)
    print("FAIL:", message, file=sys.stderr)


class Client:
    def __init__(self, animc, content_type=False):
        self.process = subprocess.Popen([animc, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self.content_type = content_type
        self.next_id = 0
        self.methods = {}          # request id -> method
        self.inbox = queue.Queue()
        self.validated = 0
        self.applied_edits = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        stream = self.process.stdout
        while True:
            headers = {}
            while True:
                line = stream.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                key, _, value = line.decode("ascii").partition(":")
                headers[key.strip().lower()] = value.strip()
            body = stream.read(int(headers["content-length"]))
            self.inbox.put(json.loads(body))

    def write(self, data):
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def frame(self, message):
        body = json.dumps(message).encode("utf-8")
        header = b"Content-Length: %d\r\n" % len(body)
        if self.content_type:
            header += b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
        return header + b"\r\n" + body

    def notify(self, method, params):
        self.write(self.frame({"jsonrpc": "2.0", "method": method, "params": params}))

    def send(self, method, params):
        self.next_id += 1
        self.methods[self.next_id] = method
        self.write(self.frame({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}))
        return self.next_id

    def request(self, method, params, timeout=30):
        return self.wait_for(self.send(method, params), timeout)

    def wait_for(self, id, timeout=30):
        """Reads messages (validating each) until the response to `id`."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.next(deadline)
            if message is None:
                fail(f"no answer to {self.methods.get(id)} (id {id})")
                return None
            if message.get("id") == id and "method" not in message:
                return message

    def wait_for_notification(self, method, predicate=lambda m: True, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            message = self.next(deadline)
            if message is None:
                return None
            if message.get("method") == method and predicate(message):
                return message

    def next(self, deadline):
        try:
            message = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None
        if message is None:
            return None
        self.validate(message)
        if "method" in message and "id" in message:
            self.answer_server_request(message)
        return message

    def answer_server_request(self, message):
        if message["method"] == "workspace/applyEdit":
            self.applied_edits += 1
            self.write(self.frame({"jsonrpc": "2.0", "id": message["id"], "result": {"applied": False}}))
        else:
            self.write(self.frame({"jsonrpc": "2.0", "id": message["id"], "result": None}))

    def validate(self, message):
        """Structures a message from the server into its lsprotocol type."""
        try:
            if "method" in message:
                method = message["method"]
                if method not in types.METHOD_TO_TYPES:
                    if not method.startswith("$/"):
                        fail(f"the server sent an unknown method {method}")
                    return
                CONVERTER.structure(message, types.METHOD_TO_TYPES[method][0])
            elif "error" in message:
                CONVERTER.structure(message, types.ResponseErrorMessage)
            else:
                method = self.methods.get(message.get("id"))
                if method is None:
                    fail(f"a response to no request: {str(message)[:200]}")
                    return
                CONVERTER.structure(message, types.METHOD_TO_TYPES[method][1])
            self.validated += 1
        except Exception as error:  # cattrs raises several kinds; each is a misfit
            what = message.get("method") or self.methods.get(message.get("id"))
            fail(f"{what}: does not match the LSP 3.17 meta-model: {error!r}: {json.dumps(message)[:400]}")

    def close(self):
        id = self.send("shutdown", None)
        self.wait_for(id)
        self.notify("exit", None)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            fail("the server did not exit after shutdown and exit")
            self.process.kill()
        if self.process.returncode not in (0, None):
            fail(f"the server exited with {self.process.returncode}")


# ---------------------------------------------------------------------------------
# A session over every advertised feature.

def positions(text, limit):
    """Start, middle and end of words, numbers and punctuation, spread over the file."""
    lines = text.split("\n")
    found = []
    for number, line in enumerate(lines):
        for match in re.finditer(r"[A-Za-z_][A-Za-z0-9_.]*|\d[\d.]*[a-z%]*|[:(,{\[\"#]", line):
            for column in (match.start(), (match.start() + match.end()) // 2, match.end()):
                found.append((number, len(line[:column].encode("utf-16-le")) // 2))
    if len(found) > limit:
        step = len(found) / limit
        found = [found[int(i * step)] for i in range(limit)]
    return found


def position(line, character):
    return {"line": line, "character": character}


def session(animc, name, capabilities, files, content_type):
    client = Client(animc, content_type=content_type)
    init = client.request("initialize", {"processId": os.getpid(), "rootUri": "file://" + ROOT,
                                         "capabilities": capabilities,
                                         "clientInfo": {"name": "conformance " + name}})
    if init is None or "result" not in init:
        fail(f"{name}: initialize failed: {init}")
        return
    server = init["result"]["capabilities"]
    client.notify("initialized", {})
    completion = capabilities.get("textDocument", {}).get("completion", {})
    snippets = completion.get("completionItem", {}).get("snippetSupport", False)
    formats = capabilities.get("textDocument", {}).get("hover", {}).get("contentFormat", ["plaintext"])
    hierarchical = capabilities.get("textDocument", {}).get("documentSymbol", {}).get(
        "hierarchicalDocumentSymbolSupport", False)
    literals = "codeActionLiteralSupport" in capabilities.get("textDocument", {}).get("codeAction", {})
    counts = {}

    def ask(method, params):
        counts[method] = counts.get(method, 0) + 1
        return client.request(method, params)

    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        uri = "file://" + os.path.abspath(path)
        doc = {"uri": uri}
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "anim", "version": 1,
                                                                 "text": text}})
        published = client.wait_for_notification("textDocument/publishDiagnostics",
                                                  lambda m: m["params"]["uri"] == uri)
        if published is None:
            fail(f"{name}: no diagnostics published for {path}")
            continue
        diagnostics = published["params"]["diagnostics"]
        lines = text.split("\n")
        everywhere = {"start": position(0, 0), "end": position(len(lines), 0)}

        for line, character in positions(text, 120):
            at = {"textDocument": doc, "position": position(line, character)}
            hover = ask("textDocument/hover", at)
            contents = (hover or {}).get("result") and hover["result"]["contents"]
            if isinstance(contents, dict) and contents.get("kind") == "markdown" and "markdown" not in formats:
                fail(f"{name}: a markdown hover to a plaintext client at {path}:{line + 1}:{character + 1}")
            items = (ask("textDocument/completion", at) or {}).get("result") or []
            if isinstance(items, dict):
                items = items.get("items", [])
            for item in items:
                if not snippets and item.get("insertTextFormat") == 2:
                    fail(f"{name}: a snippet to a client without snippets: {item.get('label')}")
            if server.get("signatureHelpProvider"):
                ask("textDocument/signatureHelp", at)
            ask("textDocument/definition", at)
            ask("textDocument/documentHighlight", at)
        for line, character in positions(text, 30):
            at = {"textDocument": doc, "position": position(line, character)}
            ask("textDocument/references", {**at, "context": {"includeDeclaration": True}})
            prepared = (ask("textDocument/prepareRename", at) or {}).get("result")
            if prepared:
                ask("textDocument/rename", {**at, "newName": "renamedName"})

        symbols = (ask("textDocument/documentSymbol", {"textDocument": doc}) or {}).get("result") or []
        if symbols and not hierarchical and any("selectionRange" in s for s in symbols):
            fail(f"{name}: hierarchical symbols to a client that did not declare them")
        ask("workspace/symbol", {"query": ""})
        ask("workspace/symbol", {"query": "o"})
        ask("textDocument/formatting", {"textDocument": doc, "options": {"tabSize": 2, "insertSpaces": True}})
        ask("textDocument/rangeFormatting", {"textDocument": doc, "range": {"start": position(0, 0),
                                                                              "end": position(len(lines) // 2, 0)},
                                             "options": {"tabSize": 2, "insertSpaces": True}})
        ask("textDocument/foldingRange", {"textDocument": doc})
        if server.get("documentLinkProvider"):
            ask("textDocument/documentLink", {"textDocument": doc})
        if server.get("codeLensProvider"):
            ask("textDocument/codeLens", {"textDocument": doc})
        if server.get("inlayHintProvider"):
            ask("textDocument/inlayHint", {"textDocument": doc, "range": everywhere})
        if server.get("semanticTokensProvider"):
            full = (ask("textDocument/semanticTokens/full", {"textDocument": doc}) or {}).get("result") or {}
            if full.get("resultId"):
                ask("textDocument/semanticTokens/full/delta", {"textDocument": doc,
                                                                "previousResultId": full["resultId"]})
            ask("textDocument/semanticTokens/range", {"textDocument": doc, "range": everywhere})
        for diagnostic in diagnostics[:20]:
            actions = (ask("textDocument/codeAction", {"textDocument": doc, "range": diagnostic["range"],
                                                       "context": {"diagnostics": [diagnostic]}})
                       or {}).get("result") or []
            for action in actions:
                is_literal = "title" in action and ("edit" in action or "kind" in action
                                                     or isinstance(action.get("command"), dict))
                if is_literal and not literals:
                    fail(f"{name}: a code action literal to a client that did not declare them")
                command = action if not is_literal else action.get("command")
                if isinstance(command, dict) and command.get("command") == "animc.applyEdit":
                    ask("workspace/executeCommand", {"command": command["command"],
                                                     "arguments": command.get("arguments", [])})

        # Edits: a character typed at many places, then the text back.
        version = 1
        for line, character in positions(text, 12):
            version += 1
            client.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": position(line, character), "end": position(line, character)},
                                    "text": "x"}]})
            version += 1
            client.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": position(line, character),
                                              "end": position(line, character + 1)}, "text": ""}]})
        last = version
        if client.wait_for_notification("textDocument/publishDiagnostics",
                                        lambda m: m["params"]["uri"] == uri
                                        and m["params"].get("version") == last) is None:
            fail(f"{name}: no diagnostics for the last version of {path}")
        client.notify("textDocument/didClose", {"textDocument": doc})

    framing(client, name)
    client.close()
    asked = sum(counts.values())
    print(f"  {name}: {asked} requests over {len(counts)} methods, {client.validated} messages valid, "
          f"{client.applied_edits} workspace/applyEdit")


def framing(client, name):
    """A 1 MiB burst of notifications in one write, then a bad frame; each time the
    request after it is answered."""
    uri = "file:///conformance/burst.anim"
    text = "composition C {\n  size: 10 x 10\n}\n// " + "x" * 2000 + "\n"
    frames = [client.frame({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                            "params": {"textDocument": {"uri": uri, "languageId": "anim", "version": 1, "text": text}}})]
    version = 1
    while sum(map(len, frames)) < 1 << 20:
        version += 1
        frames.append(client.frame({"jsonrpc": "2.0", "method": "textDocument/didChange",
                                    "params": {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text + f"// {version}\n"}]}}))
    client.write(b"".join(frames))
    if client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": position(0, 2)}) is None:
        fail(f"{name}: the request after a 1 MiB burst was not answered")
    client.write(b"Content-Length: -5\r\n\r\n{}")
    if client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": position(0, 2)}) is None:
        fail(f"{name}: the request after a bad frame was not answered")
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def hover_during_a_slow_check(animc):
    """An edit of a document whose check takes long, then a hover: answered at once."""
    path = os.path.join(ROOT, "Tests/AnimcLanguageServerTests/Fixtures/lsp/slow.anim")
    with open(path, encoding="utf-8") as f:
        text = f.read().replace("150000", "999999")
    client = Client(animc)
    client.request("initialize", {"capabilities": FULL})
    client.notify("initialized", {})
    uri = "file:///conformance/slow.anim"
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "anim", "version": 1,
                                                             "text": text}})
    lines = text.split("\n")
    line = next(i for i, l in enumerate(lines) if "timing _t" in l)
    worst = 0.0
    for version in range(2, 7):
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"text": text.replace("999999", f"99999{version}")}]})
        sent = time.monotonic()
        answer = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                        "position": position(line, lines[line].index("_t"))})
        worst = max(worst, time.monotonic() - sent)
        if not answer or not answer.get("result"):
            fail(f"no hover during a slow check: {answer}")
    client.close()
    print(f"  hover during a slow check: slowest of 5 answered in {worst * 1000:.1f} ms")
    if worst > 0.2:
        fail(f"a hover during a slow check took {worst * 1000:.0f} ms (at most 200)")


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    animc = sys.argv[1]
    files = sys.argv[2:] or DEFAULT_FILES
    for index, (name, capabilities) in enumerate(PROFILES):
        session(animc, name, capabilities, files, content_type=(index == 1))
    hover_during_a_slow_check(animc)
    if failures:
        print(f"{len(failures)} failures", file=sys.stderr)
        return 1
    print("the language server conforms to LSP 3.17 for every profile")
    return 0


if __name__ == "__main__":
    sys.exit(main())
