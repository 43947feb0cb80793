// Registers `agentc mcp` for VS Code's agent mode (VS Code 1.101 or newer:
// `vscode.lm.registerMcpServerDefinitionProvider`, with the provider's id
// contributed as `contributes.mcpServerDefinitionProviders` in
// package.json). The extension keeps `engines.vscode` at ^1.82.0, so this
// API is typed here rather than by @types/vscode, and looked for at run
// time: an older editor gets the language server alone. No `vscode` import
// here, so test/mcp.test.js runs this very code under plain Node with a
// stand-in for the API.

/** The provider's id: the one package.json contributes. */
export const mcpProviderId = "agentc";

/** What VS Code 1.101's `McpStdioServerDefinition` holds. */
export interface McpStdioDefinition {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string | number | null>;
  cwd?: unknown;
}

export interface McpProvider {
  onDidChangeMcpServerDefinitions: (listener: () => unknown) => { dispose(): unknown };
  provideMcpServerDefinitions(): McpStdioDefinition[];
}

/** The part of the `vscode` module this uses; each piece may be missing. */
export interface McpApi {
  lm?: {
    registerMcpServerDefinitionProvider?: (id: string, provider: McpProvider) => { dispose(): unknown };
  };
  McpStdioServerDefinition?: new (
    label: string,
    command: string,
    args?: string[],
    env?: Record<string, string | number | null>,
  ) => McpStdioDefinition;
}

/** Where the server runs from: the binary the extension found (none when
 * it found none) and the folder to start it in (a `vscode.Uri`). */
export interface McpTarget {
  binary: string | undefined;
  cwd?: unknown;
}

/** The arguments the definition starts the binary with: `agentc mcp`. */
export function mcpArgs(): string[] {
  return ["mcp"];
}

/** Registers the provider when the editor has the API; `undefined` when it
 * has not (VS Code before 1.101), and nothing is registered. */
export function registerMcp(
  api: McpApi,
  target: () => McpTarget,
  onDidChange: McpProvider["onDidChangeMcpServerDefinitions"],
): { dispose(): unknown } | undefined {
  const register = api.lm?.registerMcpServerDefinitionProvider;
  const Definition = api.McpStdioServerDefinition;
  if (typeof register !== "function" || typeof Definition !== "function") return undefined;
  const provider: McpProvider = {
    onDidChangeMcpServerDefinitions: onDidChange,
    provideMcpServerDefinitions() {
      const { binary, cwd } = target();
      if (binary === undefined) return [];
      const definition = new Definition("agentc", binary, mcpArgs(), { NO_COLOR: "1" });
      if (cwd !== undefined) definition.cwd = cwd;
      return [definition];
    },
  };
  return register.call(api.lm, mcpProviderId, provider);
}
