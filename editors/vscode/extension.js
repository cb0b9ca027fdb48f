// Starts `animc lsp` for .anim files. The server does the rest.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("animc").get("path") || "animc";
  client = new LanguageClient("animc", "animc", { command, args: ["lsp"] }, { documentSelector: [{ language: "anim" }] });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
