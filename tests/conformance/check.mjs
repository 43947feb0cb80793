// Node half of the provider-conformance suite, fed by check.py.
//
//   node check.mjs MANIFEST.json
//
// MANIFEST.json is {"items": [...]}; each item has check, file, item, kind
// and a payload. One JSON line per item goes to stdout:
// {"status": "ok"|"FAIL", "check", "file", "item", "reason"?}; check.py
// prints them. Kinds:
//   schema      {schema, dialect: "standard"|"gemini"}: Ajv2020 metaschema
//               validation (ajv.validateSchema) and a strict-mode compile.
//   aap-tools   {data}: an AAP ToolSpec[] against aap.schema.json.
//   aap-meta    {data, agentVersion}: a GET /meta body against
//               aap.schema.json's GetMetaResponse.
//   ag-ui-tool  {data}: @ag-ui/core ToolSchema (zod).
//   ag-ui-input {data}: @ag-ui/core RunAgentInputSchema (zod).

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { RunAgentInputSchema, ToolSchema } from "@ag-ui/core/schemas";

const here = dirname(fileURLToPath(import.meta.url));

// One options object for every Ajv instance; README.md explains each choice.
const AJV_OPTIONS = {
  strict: true, // strictSchema, strictNumbers, strictTypes, strictTuples, strictRequired
  allowUnionTypes: true, // `type: ["string", "null"]` is how OpenAI spells nullable
  allErrors: true,
  validateFormats: true,
};

function newAjv({ gemini = false } = {}) {
  const ajv = new Ajv2020(AJV_OPTIONS);
  addFormats(ajv);
  if (gemini) {
    // Gemini's non-standard `propertyOrdering`: known only in the gemini
    // instance. Its value is a list of unique strings that names each key of
    // the same object's `properties` exactly once. It constrains no data.
    ajv.addKeyword({
      keyword: "propertyOrdering",
      schemaType: "array",
      metaSchema: { type: "array", items: { type: "string" }, uniqueItems: true },
      compile(ordering, parentSchema) {
        const keys = Object.keys(parentSchema.properties ?? {});
        const same =
          ordering.length === keys.length &&
          [...ordering].sort().join("\u0000") === [...keys].sort().join("\u0000");
        if (!same) {
          throw new Error(
            `propertyOrdering ${JSON.stringify(ordering)} does not name the properties ${JSON.stringify(keys)} exactly once`,
          );
        }
        return () => true;
      },
    });
  }
  return ajv;
}

function ajvErrors(errors) {
  return (errors ?? [])
    .slice(0, 8)
    .map((e) => `${e.instancePath || "/"} ${e.message} (${e.schemaPath}${e.params ? " " + JSON.stringify(e.params) : ""})`)
    .join("; ");
}

const ajvs = { standard: newAjv(), gemini: newAjv({ gemini: true }) };

function checkSchema(item) {
  const ajv = ajvs[item.dialect] ?? ajvs.standard;
  const schema = item.schema;
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
    return `not a schema object: ${JSON.stringify(schema)?.slice(0, 200)}`;
  }
  if (!ajv.validateSchema(schema)) {
    return `not valid against the 2020-12 metaschema: ${ajvErrors(ajv.errors)}`;
  }
  try {
    ajv.compile(schema);
  } catch (e) {
    return `Ajv2020 strict compile failed: ${e.message}`;
  } finally {
    ajv.removeSchema(schema);
  }
  return null;
}

// AAP: aap.schema.json loaded once into its own instance.
const AAP_ID = "urn:agentc:conformance:aap-v3";
let aap = null;
let aapError = null;
try {
  const ajv = newAjv();
  ajv.addSchema(JSON.parse(readFileSync(join(here, "..", "..", "src", "validate", "aap.schema.json"), "utf8")));
  aap = {
    tools: ajv.compile({ type: "array", items: { $ref: `${AAP_ID}#/$defs/ToolSpec` } }),
    meta: ajv.compile({ $ref: `${AAP_ID}#/$defs/GetMetaResponse` }),
  };
} catch (e) {
  aapError = `aap.schema.json does not compile: ${e.message}`;
}

function checkAapTools(item) {
  if (aapError) return aapError;
  if (!aap.tools(item.data)) return `not a ToolSpec[]: ${ajvErrors(aap.tools.errors)}`;
  return null;
}

function checkAapMeta(item) {
  if (aapError) return aapError;
  if (!aap.meta(item.data)) return `not a GetMetaResponse: ${ajvErrors(aap.meta.errors)}`;
  const versions = item.data.agents.map((a) => a.version);
  if (item.agentVersion !== undefined && !versions.every((v) => v === item.agentVersion)) {
    return `agents[].version ${JSON.stringify(versions)} is not --agent-version ${JSON.stringify(item.agentVersion)}`;
  }
  if (item.data.agents.length !== 1) return `expected exactly one agent, got ${item.data.agents.length}`;
  return null;
}

function zodIssues(error) {
  return error.issues
    .slice(0, 8)
    .map((i) => `${i.path.join(".") || "/"}: ${i.message}`)
    .join("; ");
}

const TOOL_KEYS = new Set(Object.keys(ToolSchema.shape));

// ToolSchema is a looseObject: unknown keys pass through. A key it does not
// declare is reported, since no AG-UI consumer would read it.
function toolProblems(tool, where) {
  const unknown = Object.keys(tool).filter((k) => !TOOL_KEYS.has(k));
  return unknown.length ? `${where} has keys ToolSchema does not declare: ${unknown.join(", ")}` : null;
}

function checkAgUiTool(item) {
  const r = ToolSchema.safeParse(item.data);
  if (!r.success) return `ToolSchema rejects it: ${zodIssues(r.error)}`;
  const extra = toolProblems(item.data, "tool");
  if (extra) return extra;
  if (JSON.stringify(r.data) !== JSON.stringify(item.data)) {
    return `ToolSchema changed it: ${JSON.stringify(r.data).slice(0, 300)}`;
  }
  return null;
}

function checkAgUiInput(item) {
  const r = RunAgentInputSchema.safeParse(item.data);
  if (!r.success) return `RunAgentInputSchema rejects it: ${zodIssues(r.error)}`;
  for (const [i, t] of item.data.tools.entries()) {
    const extra = toolProblems(t, `tools[${i}]`);
    if (extra) return extra;
  }
  if (JSON.stringify(r.data.tools) !== JSON.stringify(item.data.tools)) {
    return `RunAgentInputSchema changed the tools: ${JSON.stringify(r.data.tools).slice(0, 300)}`;
  }
  return null;
}

const KINDS = {
  schema: checkSchema,
  "aap-tools": checkAapTools,
  "aap-meta": checkAapMeta,
  "ag-ui-tool": checkAgUiTool,
  "ag-ui-input": checkAgUiInput,
};

const manifest = JSON.parse(readFileSync(process.argv[2], "utf8"));
for (const item of manifest.items) {
  let reason;
  try {
    const run = KINDS[item.kind];
    reason = run ? run(item) : `unknown manifest kind ${item.kind}`;
  } catch (e) {
    reason = `checker raised: ${e.stack ?? e}`;
  }
  const line = { status: reason ? "FAIL" : "ok", check: item.check, file: item.file, item: item.item };
  if (reason) line.reason = reason;
  process.stdout.write(JSON.stringify(line) + "\n");
}
