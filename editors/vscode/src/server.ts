// How the extension starts the language server and which documents it
// sends it. No `vscode` import here, so the round-trip test
// (test/roundtrip.test.js) starts the server exactly as the extension does.

/** Protocol files only: agentc's language server checks a protocol with
 * its agent folder, and other YAML files are not its business. */
export const documentSelector = [{ scheme: "file", pattern: "**/protocol.yaml" }] as const;

export interface Command {
  command: string;
  args: string[];
  options: { env: NodeJS.ProcessEnv };
}

/** `agentc lsp` on standard input and output, without colour. */
export function serverCommand(binary: string, env: NodeJS.ProcessEnv): Command {
  return { command: binary, args: ["lsp"], options: { env: { ...env, NO_COLOR: "1" } } };
}
