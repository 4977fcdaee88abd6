// Starts `cardrules lsp` (the command and its arguments come from the settings) for .rules files.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("cardrules");
  const server = { command: settings.get("server.command", "cardrules"), args: settings.get("server.args", ["lsp"]) };
  client = new LanguageClient("cardrules", "cardrules", server, {
    documentSelector: [{ scheme: "file", language: "cardrules" }, { scheme: "untitled", language: "cardrules" }],
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
