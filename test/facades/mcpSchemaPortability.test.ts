// Tool schemas every MCP client can read, checked as the MCP Inspector's CLI checks them (`--method tools/list
// --strict`, its schema-portability lint): no `type` array, no `$ref` outside the document, no schema that
// constrains nothing, no bare boolean where a schema object is expected, in any tool's input or output schema.
// The tools come from the server's own tools/list, read by the SDK's client.
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openHarness } from '../support/harness.js';

const h = await openHarness();

/** The keywords that make a schema constrain its value (the Inspector's CONSTRAINING_KEYWORDS). */
const CONSTRAINING = new Set(
  'type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength pattern format maxItems minItems uniqueItems maxContains minContains maxProperties minProperties required dependentRequired allOf anyOf oneOf not items prefixItems contains additionalItems unevaluatedItems properties patternProperties additionalProperties unevaluatedProperties propertyNames dependentSchemas dependencies $ref $dynamicRef $recursiveRef'.split(
    ' ',
  ),
);
const BOOLEAN_ALLOWED = new Set(['additionalProperties', 'unevaluatedProperties', 'items', 'additionalItems', 'unevaluatedItems']);
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const LISTS = ['anyOf', 'allOf', 'oneOf', 'prefixItems'];
const SINGLES = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedItems'];

function findings(node: unknown, path: string, keyword?: string): string[] {
  if (typeof node === 'boolean') return keyword && BOOLEAN_ALLOWED.has(keyword) ? [] : [`${path}: boolean-schema`];
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return [];
  const schema = node as Record<string, unknown>;
  const found: string[] = [];
  if (Array.isArray(schema['type'])) found.push(`${path}: type-union ${JSON.stringify(schema['type'])}`);
  if (typeof schema['$ref'] === 'string' && !schema['$ref'].startsWith('#')) found.push(`${path}: remote-ref`);
  if (keyword !== 'not' && !Object.keys(schema).some((key) => CONSTRAINING.has(key))) found.push(`${path}: untyped-schema`);
  for (const key of MAPS) {
    const map = schema[key];
    if (map && typeof map === 'object')
      for (const [name, sub] of Object.entries(map)) found.push(...findings(sub, `${path}.${key}.${name}`, key));
  }
  for (const key of LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((sub, index) => found.push(...findings(sub, `${path}.${key}[${index}]`, key)));
  }
  for (const key of SINGLES) if (key in schema) found.push(...findings(schema[key], `${path}.${key}`, key));
  return found;
}

describe('MCP tool schemas', () => {
  it('pass the Inspector’s portability check with no warning', async () => {
    const workspace = await h.workspace();
    const transport = new StreamableHTTPClientTransport(new URL('http://service.test/mcp'), {
      fetch: (url, init) => h.fetch(new URL(url).pathname, { ...init, key: workspace.api_key }),
    });
    const client = new Client({ name: 'portability-check', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    await transport.terminateSession();
    await client.close();
    expect(tools.length).toBeGreaterThan(30);
    const problems = tools.flatMap((tool) => [
      ...findings(tool.inputSchema, `${tool.name} inputSchema`),
      ...(tool.outputSchema ? findings(tool.outputSchema, `${tool.name} outputSchema`) : []),
    ]);
    expect(problems).toEqual([]);
    // Null stays allowed where it was: an optional argument still takes null, as a branch of its own.
    const conversations = tools.find((tool) => tool.name === 'conversations_list')!;
    expect(conversations.inputSchema.properties!['limit']).toMatchObject({ anyOf: expect.arrayContaining([{ type: 'null' }]) });
  });
});
