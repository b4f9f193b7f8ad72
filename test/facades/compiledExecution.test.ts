// A document runs on graphql-js the first time and compiled (graphql-jit) from its second run on
// (infra/graphql/compiledExecution.ts). These tests run the same requests several times and prove that the compiled runs
// answer exactly what the first run answered: data with nested relations and custom scalars, key order, errors at
// their paths with their codes, refused variables, mutations in order, REST routes and their 404s; and that every enum
// of the schema answers its values as their names, which compiled runs send without serializing them.
import { isEnumType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../schema/index.js';
import { openHarness } from '../support/harness.js';
import { seedConversation } from '../support/conversations.js';

const h = await openHarness({ rateLimitPerMinute: 100_000 });
const ws = await h.workspace('Compiled execution');
const key = ws.api_key;
const MISSING = '01960000-0000-7000-8000-000000000000';

/** The answers of the same request run `times` times, as text without each answer's own request id: equal text
 * means equal data, errors and key order. */
async function runs(times: number, request: () => Promise<unknown>): Promise<string[]> {
  const answers: string[] = [];
  for (let run = 0; run < times; run += 1) {
    answers.push(JSON.stringify(await request()).replace(/"request_id":"req_[^"]+"/g, '"request_id":"…"'));
  }
  return answers;
}

const contact = await h.db.prisma.customer.create({
  data: { company_id: ws.workspace_id, name: 'Ada Lovelace', phone_number: '+15550001111', metadata: { plan: 'gold', seats: [1, 2] } },
});
await h.db.prisma.contactChannel.create({
  data: {
    company_id: ws.workspace_id,
    customer_id: contact.id,
    type: 'phone',
    value: '+15550001111',
    provider: 'sandbox',
    is_primary: true,
  },
});
const tag = await h.db.prisma.tag.create({ data: { company_id: ws.workspace_id, name: 'vip' } });
await h.db.prisma.customerTag.create({ data: { customer_id: contact.id, tag_id: tag.id } });
const conversation = await seedConversation(h.db.prisma, ws, contact.id, { messages: ['Hello', 'Are you open today?'] });

describe('compiled execution', () => {
  it('answers a query with relations, lists, custom scalars and a missing record the same on every run', async () => {
    const query = `query ($id: ID!, $missing: ID!, $conversation: ID!) {
      contact(id: $id) { id name metadata tags conversation_count created_at }
      missing: contact(id: $missing) { id }
      contacts(limit: 5) { data { id name phone_number metadata updated_at } has_more next_cursor }
      conversationMessages(conversation_id: $conversation) { data { body direction created_at } has_more }
      contactChannels(customer_id: $id) { channels { type value is_primary } }
    }`;
    const answers = await runs(3, async () => {
      const answer = await h.graphql(key, query, { id: contact.id, missing: MISSING, conversation: conversation.id });
      return { status: answer.status, body: answer.body };
    });
    const first = JSON.parse(answers[0]!) as { status: number; body: { data: Record<string, unknown>; errors: unknown[] } };
    expect(first.status).toBe(200);
    expect(first.body.data['contact']).toMatchObject({
      name: 'Ada Lovelace',
      tags: ['vip'],
      conversation_count: 1,
      metadata: { plan: 'gold' },
    });
    expect(first.body.data['contactChannels']).toMatchObject({ channels: [{ type: 'phone', value: '+15550001111', is_primary: true }] });
    expect(first.body.data['missing']).toBeNull();
    expect(first.body.errors).toMatchObject([{ path: ['missing'], extensions: { code: 'NOT_FOUND' } }]);
    expect(answers[1]).toBe(answers[0]);
    expect(answers[2]).toBe(answers[0]);
  });

  it('refuses bad variables and a missing scope with the same error on every run', async () => {
    const badLimit = await runs(
      3,
      async () => (await h.graphql(key, 'query ($limit: Int) { contacts(limit: $limit) { data { id } } }', { limit: 'many' })).body,
    );
    expect(JSON.parse(badLimit[0]!)).toMatchObject({ errors: [{ extensions: { code: 'VALIDATION_ERROR' } }] });
    expect(new Set(badLimit).size).toBe(1);

    const tagsOnly = await h.key(ws.workspace_id, ['tags']);
    const refused = await runs(
      3,
      async () => (await h.graphql(tagsOnly, 'query { tags { tags { name } } contacts { data { id } } }')).body,
    );
    expect(JSON.parse(refused[0]!)).toMatchObject({
      data: { tags: { tags: [{ name: 'vip' }] }, contacts: null },
      errors: [{ extensions: { code: 'INSUFFICIENT_SCOPE' } }],
    });
    expect(new Set(refused).size).toBe(1);
  });

  it("has no enum whose values differ from their names (compiled runs answer an enum's value as the resolver gives it)", () => {
    const enums = Object.values(schema.getTypeMap()).filter(isEnumType);
    expect(enums.length).toBeGreaterThan(0);
    for (const type of enums) {
      for (const value of type.getValues()) expect(value.value, `${type.name}.${value.name}`).toBe(value.name);
    }
  });

  it('runs a mutation document compiled in order, each run on its own data', async () => {
    const mutation = 'mutation ($name: String!) { first: tagCreate(name: $name) { name } again: tagCreate(name: $name) { name } }';
    const answers = await runs(3, async () => (await h.graphql(key, mutation, { name: `tag-${Math.random()}` })).body);
    for (const answer of answers.map((text) => JSON.parse(text) as { data: Record<string, unknown>; errors: unknown[] })) {
      expect(answer.data['first']).not.toBeNull();
      expect(answer.data['again']).toBeNull();
      expect(answer.errors).toMatchObject([{ path: ['again'], extensions: { code: 'CONFLICT' } }]);
      expect(Object.keys(answer.data)).toEqual(['first', 'again']);
    }
  });

  it('answers a REST route and its 404 the same on every run', async () => {
    for (const path of [
      `/api/v1/contacts/${contact.id}`,
      `/api/v1/contacts/${MISSING}`,
      '/api/v1/contacts?limit=2',
      `/api/v1/contacts?tag_id=${tag.id}`,
    ]) {
      const answers = await runs(3, async () => {
        const response = await h.fetch(path, { key });
        return { status: response.status, body: await response.json() };
      });
      expect(new Set(answers).size, path).toBe(1);
    }
  });
});
