// Reads cases (a JSON list of { module, value }) and prints, as a JSON
// list, whether each module's `toolArgs.t` (zod) accepts each value: what
// tests/codegen.rs compares with agentc's validator.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const modules = new Map();
const verdicts = [];
for (const { module, value } of cases) {
  if (!modules.has(module)) {
    modules.set(module, await import(pathToFileURL(resolve(module)).href));
  }
  verdicts.push(modules.get(module).toolArgs.t.safeParse(value).success);
}
process.stdout.write(JSON.stringify(verdicts));
