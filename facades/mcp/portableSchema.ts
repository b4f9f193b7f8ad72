// Tool input and output schemas every MCP client can read. A `type` array (["string", "null"], how the variables' JSON Schema
// says "or null") is legal JSON Schema, but clients that map tool schemas onto a single-`type` dialect (Gemini's
// OpenAPI subset) reject the tool or drop the constraint; the MCP Inspector's portability check (`--strict`) warns of
// each. Here each becomes `anyOf` branches of one type each, the description kept on the whole.
type Schema = Record<string, unknown>;

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SUBSCHEMA_LISTS = ['anyOf', 'allOf', 'oneOf', 'prefixItems'];
const SUBSCHEMAS = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else'];

export function portableSchema(schema: Schema): Schema {
  const node: Schema = { ...schema };
  for (const key of SUBSCHEMA_MAPS) {
    const map = node[key];
    if (isSchema(map)) node[key] = Object.fromEntries(Object.entries(map).map(([name, sub]) => [name, portable(sub)]));
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) node[key] = list.map(portable);
  }
  for (const key of SUBSCHEMAS) if (key in node) node[key] = portable(node[key]);
  const type = node['type'];
  if (!Array.isArray(type)) return node;
  const { description, enum: values, type: _types, ...constraints } = node;
  const branches = (type as string[]).map((one) => {
    if (one === 'null') return { type: 'null' };
    const kept = Array.isArray(values) ? { enum: values.filter((value) => value !== null) } : {};
    return { ...constraints, ...kept, type: one };
  });
  return { ...(description === undefined ? {} : { description }), anyOf: branches };
}

function portable(value: unknown): unknown {
  return isSchema(value) ? portableSchema(value) : value;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
