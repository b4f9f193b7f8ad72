// GraphQL answers per field: a root field that fails is null with its error while the others keep their data,
// answered 200 as GraphQL-over-HTTP answers any response with data (REST keeps its 404 for the same failure);
// mutations that ran keep their results when a later one is refused; top-level keys come in selection order.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';

const h = await openHarness({ rateLimitPerMinute: 100_000 });
const ws = await h.workspace('Partial answers');
const key = ws.api_key;
const MISSING = '01960000-0000-7000-8000-000000000000';

type Error = { message: string; path?: string[]; extensions: { code: string; http?: unknown } };

describe('answers per field', () => {
  it('keeps the other fields when one record is missing, with 200 and the error at its path; REST answers 404', async () => {
    const contact = await h.db.prisma.customer.create({ data: { company_id: ws.workspace_id, name: 'Lena' } });
    const answer = await h.graphql<Record<string, unknown>>(
      key,
      'query ($found: ID!, $missing: ID!) { found: contact(id: $found) { name } missing: contact(id: $missing) { name } tags { tags { name } } }',
      { found: contact.id, missing: MISSING },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ found: { name: 'Lena' }, missing: null, tags: { tags: [] } });
    const errors = answer.body.errors as unknown as Error[];
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ path: ['missing'], extensions: { code: 'NOT_FOUND' } });
    expect(errors[0]!.extensions.http).toBeUndefined();

    const rest = await h.fetch(`/api/v1/contacts/${MISSING}`, { key });
    expect(rest.status).toBe(404);
    expect(await rest.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('keeps the result of a mutation that ran when a later one in the same request is refused', async () => {
    const name = `vip-${Date.now()}`;
    const answer = await h.graphql<Record<string, unknown>>(
      key,
      `mutation { first: tagCreate(name: "${name}") { name } again: tagCreate(name: "${name}") { name } }`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ first: { name }, again: null });
    expect(answer.body.errors?.[0]).toMatchObject({ path: ['again'], extensions: { code: 'CONFLICT' } });
  });

  it('answers a request refused as a whole (no data) with its 4xx, as before', async () => {
    const answer = await h.graphql(key, 'query ($limit: Int) { contacts(limit: $limit) { data { id } } }', { limit: 'many' });
    expect(answer.status).toBe(400);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors?.[0]).toMatchObject({ extensions: { code: 'VALIDATION_ERROR' } });
  });

  it('gives top-level keys in the order of the selection, every time', async () => {
    const query = 'query { users { id } tags { tags { id } } contacts { data { id } } health { status } events { data { id } } }';
    for (let run = 0; run < 10; run += 1) {
      const answer = await h.graphql<Record<string, unknown>>(key, query);
      expect(answer.body.errors).toBeUndefined();
      expect(Object.keys(answer.body.data!)).toEqual(['users', 'tags', 'contacts', 'health', 'events']);
    }
  });
});
