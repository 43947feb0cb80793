// How the extension starts the language server and which documents it
// sends it. No `vscode` import here, so the round-trip test
// (test/roundtrip.test.js) starts the server exactly as the extension does.

/** Protocol files, and the other files of an agent folder: agentc's
 * language server checks a protocol with its folder, and re-checks it as
 * its `settings.json` or a prompt, reference or skill is edited (with the
 * unsaved text). A `settings.json` or Markdown file beside no
 * `protocol.yaml` is not the server's, and it leaves it alone; other
 * YAML files are not sent. */
export const documentSelector = [
  { scheme: "file", pattern: "**/protocol.yaml" },
  { scheme: "file", pattern: "**/settings.json" },
  { scheme: "file", pattern: "**/{prompts,references,skills}/**/*.md" },
] as const;

export interface Command {
  command: string;
  args: string[];
  options: { env: NodeJS.ProcessEnv };
}

/** `agentc lsp` on standard input and output, without colour. */
export function serverCommand(binary: string, env: NodeJS.ProcessEnv): Command {
  return { command: binary, args: ["lsp"], options: { env: { ...env, NO_COLOR: "1" } } };
}
