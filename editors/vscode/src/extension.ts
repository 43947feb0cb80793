// The agentc extension: starts `agentc lsp` (found by ./binary) for
// protocol.yaml files, restarts it on the command and when agentc.path
// changes, and says what to do when no binary is found. Where the editor
// has the API (VS Code 1.101 or newer), it also registers `agentc mcp`,
// the same binary, for the agent mode (./mcp).
import * as vscode from "vscode";
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import { findBinary, NotFound } from "./binary";
import { registerMcp, type McpApi, type McpTarget } from "./mcp";
import { documentSelector, serverCommand } from "./server";

let client: LanguageClient | undefined;

function lookup(): string {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const setting = vscode.workspace.getConfiguration("agentc").get<string>("path");
  return findBinary({ setting, folders, env: process.env, platform: process.platform }).path;
}

/** The MCP server's binary and folder; no binary when none is found (the
 * language server's start has said so already). */
function mcpTarget(): McpTarget {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  try {
    return { binary: lookup(), cwd: folder };
  } catch (error) {
    if (error instanceof NotFound) return { binary: undefined };
    throw error;
  }
}

async function start(): Promise<void> {
  let binary: string;
  try {
    binary = lookup();
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
  const mcpChanged = new vscode.EventEmitter<void>();
  const mcp = registerMcp(vscode as unknown as McpApi, mcpTarget, mcpChanged.event);
  if (mcp !== undefined) context.subscriptions.push(mcp);
  context.subscriptions.push(
    mcpChanged,
    vscode.commands.registerCommand("agentc.restart", async () => {
      await stop();
      await start();
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("agentc.path")) {
        mcpChanged.fire();
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
