#!/usr/bin/env python3
# Acceptance test of `rulebook lsp`: a scripted editor session over stdio, positions exact.
#
# Usage: lsp_session.py RULEBOOK SOURCE_DIR. A temp copy of variants/sudoku-fill (the 6x6
# variant extends the 4x4 game) gets a typo and a metric that uses names of the base; the
# session checks diagnostics, a quick fix, hover, definition, completion, references,
# rename across both files, formatting, error answers and the shutdown handshake.
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse


class Client:
    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 1
        self.pending = []  # notifications read while waiting for a response

    def send_raw(self, body: bytes):
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def send(self, message):
        message["jsonrpc"] = "2.0"
        self.send_raw(json.dumps(message).encode())

    def read(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError("server closed its output")
            line = line.strip()
            if not line:
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        return json.loads(self.proc.stdout.read(length))

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"id": rid, "method": method, "params": params})
        while True:
            m = self.read()
            if m.get("id") == rid:
                return m
            self.pending.append(m)

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def diagnostics(self, uri):
        while True:
            for i, m in enumerate(self.pending):
                if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                    return self.pending.pop(i)["params"]
            self.pending.append(self.read())


def pos(line, character):
    return {"line": line, "character": character}


def rng(line, start, end):
    return {"start": pos(line, start), "end": pos(line, end)}


def check(label, got, want):
    if got != want:
        print(f"FAIL {label}:\n  got  {json.dumps(got)}\n  want {json.dumps(want)}")
        sys.exit(1)
    print(f"ok   {label}")


def main():
    rulebook, source_dir = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="rulebook lsp ")  # a space, so that URIs must be encoded
    try:
        run(rulebook, source_dir, tmp)
    finally:
        shutil.rmtree(tmp)


def run(rulebook, source_dir, tmp):
    fill = os.path.join(source_dir, "variants", "sudoku-fill")
    base_path = os.path.join(tmp, "fill-4x4.rules")
    variant_path = os.path.join(tmp, "fill-6x6.rules")
    shutil.copy(os.path.join(fill, "fill-4x4.rules"), base_path)
    with open(os.path.join(fill, "fill-6x6.rules")) as f:
        shipped = f.read()
    assert "override param box_columns = 3;\n" in shipped
    # Line 13 gets a typo; line 14 is a metric over names of the base, badly spaced.
    text = shipped.replace("override param box_columns = 3;", "override param box_colums = 3;")
    text += "metric share =  (if complete then filled else 0) at end;\n"
    with open(variant_path, "w") as f:
        f.write(text)
    base_uri = "file://" + urllib.parse.quote(base_path)
    uri = "file://" + urllib.parse.quote(variant_path)
    doc = {"uri": uri}

    c = Client([rulebook, "lsp"])
    init = c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    caps = init["result"]["capabilities"]
    check("capabilities", sorted(k for k, v in caps.items() if v),
          ["codeActionProvider", "completionProvider", "definitionProvider",
           "documentFormattingProvider", "hoverProvider", "referencesProvider", "renameProvider",
           "textDocumentSync"])
    c.notify("initialized", {})

    # The diagnostic of the typo: an override of a name the base does not declare.
    c.notify("textDocument/didOpen",
             {"textDocument": {"uri": uri, "languageId": "rules", "version": 1, "text": text}})
    diags = c.diagnostics(uri)
    check("diagnostic count", len(diags["diagnostics"]), 1)
    d = diags["diagnostics"][0]
    check("diagnostic range", d["range"], rng(13, 15, 25))
    check("diagnostic severity", d["severity"], 1)
    check("diagnostic message", d["message"],
          f"nothing to override: no param named 'box_colums' in {base_path}\n"
          "help: did you mean 'box_columns'?")

    # Its quick fix.
    actions = c.request("textDocument/codeAction",
                        {"textDocument": doc, "range": rng(13, 18, 18), "context": {"diagnostics": [d]}})
    check("code action", [(a["title"], a["edit"]) for a in actions["result"]],
          [("Replace 'box_colums' with 'box_columns'",
            {"changes": {uri: [{"range": rng(13, 15, 25), "newText": "box_columns"}]}})])

    # Hover and definition of `filled`, a state of the base, used on line 14 of the variant.
    hover = c.request("textDocument/hover", {"textDocument": doc, "position": pos(14, 37)})
    check("hover range", hover["result"]["range"], rng(14, 34, 40))
    check("hover text", hover["result"]["contents"]["value"],
          "```rules\nstate filled: 0..36\n```\n\ndeclared in `fill-4x4.rules` line 30\n\n"
          "cells filled so far; the next to fill is cell number `filled`\n")
    hover = c.request("textDocument/hover", {"textDocument": doc, "position": pos(14, 26)})
    check("hover of a define", hover["result"]["contents"]["value"].split("\n")[1],
          "define complete: bool")
    definition = c.request("textDocument/definition", {"textDocument": doc, "position": pos(14, 36)})
    check("definition", definition["result"], [{"uri": base_uri, "range": rng(29, 6, 12)}])

    # Completion of the prefix `fil` (cursor inside `filled`): the state, the phase, a keyword.
    comp = c.request("textDocument/completion", {"textDocument": doc, "position": pos(14, 37)})
    check("completion", sorted(i["label"] for i in comp["result"]["items"]),
          ["file", "filled", "filling"])

    # References of the define `complete`: its declaration and uses in both files.
    refs = c.request("textDocument/references", {"textDocument": doc, "position": pos(14, 25),
                                                 "context": {"includeDeclaration": True}})
    where = sorted((r["uri"] == uri, r["range"]["start"]["line"], r["range"]["start"]["character"])
                   for r in refs["result"])
    check("references", where,
          [(False, 32, 7), (False, 50, 9), (False, 52, 13), (False, 56, 65), (True, 14, 20)])

    # Rename it across the variant and its base.
    ren = c.request("textDocument/rename",
                    {"textDocument": doc, "position": pos(14, 22), "newName": "grid_complete"})
    edit = lambda line, a, b: {"range": rng(line, a, b), "newText": "grid_complete"}
    changes = ren["result"]["changes"]
    check("rename files", sorted(changes), sorted([uri, base_uri]))
    check("rename in the variant", changes[uri], [edit(14, 20, 28)])
    check("rename in the base", sorted(changes[base_uri], key=lambda e: e["range"]["start"]["line"]),
          [edit(32, 7, 15), edit(50, 9, 17), edit(52, 13, 21), edit(56, 65, 73)])
    bad = c.request("textDocument/rename", {"textDocument": doc, "position": pos(14, 22), "newName": "if"})
    check("rename to a reserved word", bad["error"]["code"], -32602)

    # Formatting: one edit over the whole document; the metric loses its extra space.
    fmt = c.request("textDocument/formatting",
                    {"textDocument": doc, "options": {"tabSize": 2, "insertSpaces": True}})
    check("formatting edits", len(fmt["result"]), 1)
    check("formatting range", fmt["result"][0]["range"], {"start": pos(0, 0), "end": pos(15, 0)})
    check("formatted line", fmt["result"][0]["newText"].split("\n")[14:16],
          ["", "metric share = (if complete then filled else 0) at end;"])
    printed = subprocess.run([rulebook, "fmt", variant_path], capture_output=True).stdout
    check("formatted as rulebook fmt prints it", fmt["result"][0]["newText"], printed.decode())

    # The typo fixed: the diagnostic goes away.
    fixed = text.replace("box_colums", "box_columns")
    c.notify("textDocument/didChange",
             {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]})
    check("diagnostics after the fix", c.diagnostics(uri)["diagnostics"], [])

    # Errors are answered, not fatal.
    c.send_raw(b"{not json")
    check("bad JSON", c.read()["error"]["code"], -32700)
    check("unknown method", c.request("textDocument/unknownThing", {})["error"]["code"], -32601)
    check("hover of an unopened file",
          c.request("textDocument/hover", {"textDocument": {"uri": base_uri}, "position": pos(0, 0)})
          ["error"]["code"], -32602)

    check("shutdown", c.request("shutdown", None)["result"], None)
    c.notify("exit", None)
    check("exit code", c.proc.wait(timeout=10), 0)


if __name__ == "__main__":
    main()
