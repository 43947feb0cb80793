// The agentc extension: starts `agentc lsp` (found by ./binary) for
// protocol.yaml files, restarts it on the command and when agentc.path
// changes, and says what to do when no binary is found.
import * as vscode from "vscode";
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import { findBinary, NotFound } from "./binary";
import { documentSelector, serverCommand } from "./server";

let client: LanguageClient | undefined;

async function start(): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const setting = vscode.workspace.getConfiguration("agentc").get<string>("path");
  let binary: string;
  try {
    binary = findBinary({ setting, folders, env: process.env, platform: process.platform }).path;
  } catch (error) {
    if (!(error instanceof NotFound)) throw error;
    const open = "Open Settings";
    const choice = await vscode.window.showErrorMessage(error.message, open);
    if (choice === open) {
      await vscode.commands.executeCommand("workbench.action.openSettings", "agentc.path");
    }
    return;
  }
  const run = serverCommand(binary, process.env);
  const serverOptions: ServerOptions = { command: run.command, args: run.args, options: run.options };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [...documentSelector],
    outputChannelName: "agentc",
  };
  client = new LanguageClient("agentc", "agentc", serverOptions, clientOptions);
  await client.start();
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running !== undefined) await running.stop();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("agentc.restart", async () => {
      await stop();
      await start();
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("agentc.path")) {
        await stop();
        await start();
      }
    }),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}
