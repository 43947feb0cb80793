// Node half of tests/ag_ui_sdks.rs: each payload through @ag-ui/core's
// zod RunAgentInputSchema (exported by `@ag-ui/core/schemas`).
//
//   node ag_ui_verdicts.mjs MANIFEST.json
//
// MANIFEST.json is [{"name", "payload"}, ...]; one JSON line per payload
// goes to stdout: {"name", "accept": true|false, "reason"?}.

import { readFileSync } from "node:fs";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";

const manifest = JSON.parse(readFileSync(process.argv[2], "utf8"));
for (const { name, payload } of manifest) {
  const r = RunAgentInputSchema.safeParse(payload);
  const line = { name, accept: r.success };
  if (!r.success) {
    line.reason = r.error.issues
      .slice(0, 4)
      .map((i) => `${i.path.join(".") || "/"}: ${i.message}`)
      .join("; ");
  }
  process.stdout.write(JSON.stringify(line) + "\n");
}
