// Runs editors/vscode/extension.js against `rulebook lsp` with a stand-in for the `vscode`
// module: the client must frame messages, open the document and map every answer.
// Usage: node vscode_client_test.js RULEBOOK SOURCE_DIR
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const Module = require('module');
const assert = require('assert');

const [rulebook, sourceDir] = process.argv.slice(2);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rulebook-vscode-'));
const fill = path.join(sourceDir, 'variants', 'sudoku-fill');
fs.copyFileSync(path.join(fill, 'fill-4x4.rules'), path.join(tmp, 'fill-4x4.rules'));
const text =
  fs.readFileSync(path.join(fill, 'fill-6x6.rules'), 'utf8').replace('box_columns = 3', 'box_colums = 3') +
  'metric share = (if complete then filled else 0) at end;\n';
const variantPath = path.join(tmp, 'fill-6x6.rules');
fs.writeFileSync(variantPath, text);

// The parts of the VS Code API the extension uses.
class Position { constructor(line, character) { Object.assign(this, { line, character }); } }
class Range { constructor(start, end) { Object.assign(this, { start, end }); } }
const Uri = { parse: (s) => ({ value: s, toString: () => s }), file: (p) => Uri.parse('file://' + p) };
const providers = {};
const diagnostics = new Map();
const disposable = { dispose() {} };
const vscode = {
  Position, Range, Uri,
  Location: class { constructor(uri, range) { Object.assign(this, { uri, range }); } },
  Hover: class { constructor(contents, range) { Object.assign(this, { contents, range }); } },
  MarkdownString: class { constructor(value) { this.value = value; } },
  Diagnostic: class { constructor(range, message, severity) { Object.assign(this, { range, message, severity }); } },
  CompletionItem: class { constructor(label, kind) { Object.assign(this, { label, kind }); } },
  TextEdit: { replace: (range, newText) => ({ range, newText }) },
  CodeAction: class { constructor(title, kind) { Object.assign(this, { title, kind }); } },
  CodeActionKind: { QuickFix: 'quickfix' },
  WorkspaceEdit: class {
    constructor() { this.edits = []; }
    replace(uri, range, newText) { this.edits.push({ uri: uri.toString(), range, newText }); }
  },
  window: { showErrorMessage: (m) => { throw new Error(m); } },
  workspace: {
    getConfiguration: () => ({ get: () => rulebook }),
    textDocuments: [],
    onDidOpenTextDocument: () => disposable,
    onDidChangeTextDocument: () => disposable,
    onDidSaveTextDocument: () => disposable,
    onDidCloseTextDocument: () => disposable,
  },
  languages: {
    createDiagnosticCollection: () => ({ set: (uri, list) => diagnostics.set(uri.toString(), list), dispose() {} }),
  },
};
for (const kind of ['Hover', 'Definition', 'Reference', 'Rename', 'CompletionItem', 'DocumentFormattingEdit', 'CodeActions'])
  vscode.languages[`register${kind}Provider`] = (selector, provider) => {
    providers[kind] = provider;
    return disposable;
  };
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? vscode : load.call(this, request, ...rest);
};

const uri = Uri.file(variantPath);
const doc = { uri, languageId: 'rules', version: 1, getText: () => text };
vscode.workspace.textDocuments.push(doc);
const extension = require(path.join(sourceDir, 'editors', 'vscode', 'extension.js'));

async function main() {
  extension.activate({ subscriptions: [] });
  for (let i = 0; i < 200 && !diagnostics.has(uri.toString()); ++i) await new Promise((r) => setTimeout(r, 25));
  const diags = diagnostics.get(uri.toString());
  assert.strictEqual(diags.length, 1);
  assert.deepStrictEqual(diags[0].range, new Range(new Position(13, 15), new Position(13, 25)));
  assert.strictEqual(diags[0].severity, 0); // vscode.DiagnosticSeverity.Error

  const hover = await providers.Hover.provideHover(doc, new Position(14, 36));
  assert.match(hover.contents.value, /state filled: 0\.\.36/);
  const defs = await providers.Definition.provideDefinition(doc, new Position(14, 36));
  assert.strictEqual(defs.length, 1);
  assert.ok(defs[0].uri.toString().endsWith('/fill-4x4.rules'));
  assert.deepStrictEqual(defs[0].range.start, new Position(29, 6));
  const refs = await providers.Reference.provideReferences(doc, new Position(14, 21), { includeDeclaration: true });
  assert.strictEqual(refs.length, 5);
  const rename = await providers.Rename.provideRenameEdits(doc, new Position(14, 21), 'grid_complete');
  assert.strictEqual(rename.edits.length, 5);
  const items = await providers.CompletionItem.provideCompletionItems(doc, new Position(14, 36));
  assert.deepStrictEqual(items.map((i) => i.label).sort(), ['file', 'filled', 'filling']);
  const edits = await providers.DocumentFormattingEdit.provideDocumentFormattingEdits(doc, { tabSize: 2 });
  assert.strictEqual(edits.length, 1);
  const actions = await providers.CodeActions.provideCodeActions(doc, new Range(new Position(13, 18), new Position(13, 18)));
  assert.deepStrictEqual(actions.map((a) => a.title), ["Replace 'box_colums' with 'box_columns'"]);
  assert.strictEqual(actions[0].edit.edits[0].newText, 'box_columns');
  await extension.deactivate();
  console.log('vscode client: all checks passed');
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(tmp, { recursive: true, force: true }));
