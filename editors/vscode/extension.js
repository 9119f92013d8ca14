// A dependency-free VS Code client of `rulebook lsp`: it starts the server and maps its
// answers onto the editor's providers, so the folder installs by copying (no npm step).
'use strict';
const vscode = require('vscode');
const { spawn } = require('child_process');

let server = null;
let nextId = 1;
const waiting = new Map();
let buffer = Buffer.alloc(0);

function send(message) {
  const body = Buffer.from(JSON.stringify(Object.assign({ jsonrpc: '2.0' }, message)), 'utf8');
  server.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
  server.stdin.write(body);
}

function request(method, params) {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
}

function notify(method, params) {
  send({ method, params });
}

// Splits the server's output into messages by their Content-Length headers.
function receive(chunk, onMessage) {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf('\r\n\r\n');
    if (end < 0) return;
    const match = /content-length:\s*(\d+)/i.exec(buffer.slice(0, end).toString('ascii'));
    const length = match ? Number(match[1]) : 0;
    if (buffer.length < end + 4 + length) return;
    const body = buffer.slice(end + 4, end + 4 + length).toString('utf8');
    buffer = buffer.slice(end + 4 + length);
    try {
      onMessage(JSON.parse(body));
    } catch (e) {
      console.error('rulebook lsp: bad message', e);
    }
  }
}

const position = (p) => new vscode.Position(p.line, p.character);
const range = (r) => new vscode.Range(position(r.start), position(r.end));
const toPosition = (p) => ({ line: p.line, character: p.character });
const toRange = (r) => ({ start: toPosition(r.start), end: toPosition(r.end) });
const at = (doc, pos) => ({ textDocument: { uri: doc.uri.toString() }, position: toPosition(pos) });
const location = (l) => new vscode.Location(vscode.Uri.parse(l.uri), range(l.range));

function workspaceEdit(edit) {
  const out = new vscode.WorkspaceEdit();
  for (const uri of Object.keys((edit && edit.changes) || {}))
    for (const e of edit.changes[uri]) out.replace(vscode.Uri.parse(uri), range(e.range), e.newText);
  return out;
}

function activate(context) {
  const command = vscode.workspace.getConfiguration('rulebook').get('path') || 'rulebook';
  server = spawn(command, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
  server.on('error', (e) => vscode.window.showErrorMessage(`rulebook lsp: ${e.message}`));
  const diagnostics = vscode.languages.createDiagnosticCollection('rulebook');
  context.subscriptions.push(diagnostics);

  server.stdout.on('data', (chunk) =>
    receive(chunk, (m) => {
      if (m.id !== undefined && waiting.has(m.id)) {
        const w = waiting.get(m.id);
        waiting.delete(m.id);
        if (m.error) w.reject(new Error(m.error.message));
        else w.resolve(m.result);
      } else if (m.method === 'textDocument/publishDiagnostics') {
        diagnostics.set(
          vscode.Uri.parse(m.params.uri),
          m.params.diagnostics.map((d) => {
            const diag = new vscode.Diagnostic(range(d.range), d.message, d.severity - 1);
            diag.source = d.source;
            return diag;
          })
        );
      }
    })
  );

  const selector = { language: 'rules' };
  const open = (doc) => {
    if (doc.languageId !== 'rules') return;
    notify('textDocument/didOpen', {
      textDocument: { uri: doc.uri.toString(), languageId: 'rules', version: doc.version, text: doc.getText() },
    });
  };
  request('initialize', { processId: process.pid, rootUri: null, capabilities: {} }).then(() => {
    notify('initialized', {});
    vscode.workspace.textDocuments.forEach(open);
  });
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument(open),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.languageId !== 'rules') return;
      notify('textDocument/didChange', {
        textDocument: { uri: e.document.uri.toString(), version: e.document.version },
        contentChanges: [{ text: e.document.getText() }],
      });
    }),
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (doc.languageId === 'rules') notify('textDocument/didSave', { textDocument: { uri: doc.uri.toString() } });
    }),
    vscode.workspace.onDidCloseTextDocument((doc) => {
      if (doc.languageId === 'rules') notify('textDocument/didClose', { textDocument: { uri: doc.uri.toString() } });
    }),
    vscode.languages.registerHoverProvider(selector, {
      provideHover: (doc, pos) =>
        request('textDocument/hover', at(doc, pos)).then((h) =>
          h ? new vscode.Hover(new vscode.MarkdownString(h.contents.value), range(h.range)) : null
        ),
    }),
    vscode.languages.registerDefinitionProvider(selector, {
      provideDefinition: (doc, pos) =>
        request('textDocument/definition', at(doc, pos)).then((ls) => (ls || []).map(location)),
    }),
    vscode.languages.registerReferenceProvider(selector, {
      provideReferences: (doc, pos, ctx) =>
        request('textDocument/references', Object.assign(at(doc, pos), { context: ctx })).then((ls) =>
          (ls || []).map(location)
        ),
    }),
    vscode.languages.registerRenameProvider(selector, {
      provideRenameEdits: (doc, pos, newName) =>
        request('textDocument/rename', Object.assign(at(doc, pos), { newName })).then(workspaceEdit),
    }),
    vscode.languages.registerCompletionItemProvider(selector, {
      provideCompletionItems: (doc, pos) =>
        request('textDocument/completion', at(doc, pos)).then((list) =>
          list.items.map((i) => {
            const item = new vscode.CompletionItem(i.label, i.kind - 1);
            item.detail = i.detail;
            return item;
          })
        ),
    }),
    vscode.languages.registerDocumentFormattingEditProvider(selector, {
      provideDocumentFormattingEdits: (doc, options) =>
        request('textDocument/formatting', { textDocument: { uri: doc.uri.toString() }, options }).then((edits) =>
          edits.map((e) => vscode.TextEdit.replace(range(e.range), e.newText))
        ),
    }),
    vscode.languages.registerCodeActionsProvider(selector, {
      provideCodeActions: (doc, r) =>
        request('textDocument/codeAction', {
          textDocument: { uri: doc.uri.toString() },
          range: toRange(r),
          context: { diagnostics: [] },
        }).then((actions) =>
          actions.map((a) => {
            const action = new vscode.CodeAction(a.title, vscode.CodeActionKind.QuickFix);
            action.edit = workspaceEdit(a.edit);
            action.isPreferred = a.isPreferred;
            return action;
          })
        ),
    })
  );
}

function deactivate() {
  if (!server) return undefined;
  return request('shutdown', null)
    .then(() => notify('exit', null))
    .catch(() => server.kill());
}

module.exports = { activate, deactivate };
