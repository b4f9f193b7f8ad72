// Authentication, scopes and tenancy, driven through HTTP like an integrator would.
import { describe, expect, it } from 'vitest';
import { schema } from '../../schema/index.js';
import { openHarness } from '../support/harness.js';
import { revokeApiKey } from '../../resolvers/workspace/apiKeys.js';

const harness = await openHarness({ apiKeyCacheSeconds: 60 });
const acme = await harness.workspace('Acme');
const globex = await harness.workspace('Globex');

async function addContact(workspaceId: string, name: string) {
  return harness.db.prisma.customer.create({ data: { company_id: workspaceId, name, phone_number: '+15550001111' } });
}

describe('API keys', () => {
  const unauthorized = { error: { code: 'UNAUTHORIZED', message: 'Unauthorized' } };

  it.each([
    ['no Authorization header', undefined],
    ['a non-bearer scheme', 'Basic dXNlcjpwYXNz'],
    ['an unknown key', 'Bearer mcrm_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a malformed key', 'Bearer not-a-key'],
  ])('answers 401 with the spec error object for %s', async (_case, authorization) => {
    const response = await harness.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify({ query: '{ users { id } }' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    const body = await response.json();
    expect(body).toMatchObject(unauthorized);
    expect(body.error.request_id).toBe(response.headers.get('x-request-id'));
  });

  it('refuses a revoked key though its authentication is remembered (the revocation is heard), and keeps accepting the others', async () => {
    const key = await harness.key(acme.workspace_id, ['users']);
    expect((await harness.graphql(key, '{ users { id } }')).status).toBe(200);
    const keys = await harness.db.prisma.apiKey.findMany({ where: { company_id: acme.workspace_id }, orderBy: { id: 'desc' } });
    await revokeApiKey(harness.db.prisma, acme.workspace_id, keys[0]!.id);
    // Remembered for API_KEY_CACHE_SECONDS, but the revocation's notice makes the instance forget it at commit.
    await expect.poll(async () => (await harness.graphql(key, '{ users { id } }')).status, { timeout: 500, interval: 20 }).toBe(401);
    expect((await harness.graphql(acme.api_key, '{ users { id } }')).status).toBe(200);
  });

  it('refuses a revoked key at once when API keys are not remembered (API_KEY_CACHE_SECONDS=0)', async () => {
    const uncached = await openHarness({ apiKeyCacheSeconds: 0 });
    const initech = await uncached.workspace('Initech');
    const key = await uncached.key(initech.workspace_id, ['users']);
    expect((await uncached.graphql(key, '{ users { id } }')).status).toBe(200);
    const [latest] = await uncached.db.prisma.apiKey.findMany({
      where: { company_id: initech.workspace_id },
      orderBy: { id: 'desc' },
      take: 1,
    });
    await revokeApiKey(uncached.db.prisma, initech.workspace_id, latest!.id);
    expect((await uncached.graphql(key, '{ users { id } }')).status).toBe(401);
  });

  it('stores only a hash of the key and records its last use', async () => {
    const keys = await harness.db.prisma.apiKey.findMany({ where: { company_id: globex.workspace_id } });
    expect(keys).toHaveLength(1);
    expect(keys[0]!.hash).not.toContain(globex.api_key);
    expect(globex.api_key.startsWith(keys[0]!.prefix)).toBe(true);
    await harness.graphql(globex.api_key, '{ users { id } }');
    await expect
      .poll(async () => (await harness.db.prisma.apiKey.findUnique({ where: { id: keys[0]!.id } }))?.last_used_at)
      .toBeInstanceOf(Date);
  });

  it('needs no key for GET /health', async () => {
    const response = await harness.fetch('/health');
    expect(response.status).toBe(200);
  });
});

describe('scopes', () => {
  it('answers 403 INSUFFICIENT_SCOPE, naming the scope, when the key lacks it', async () => {
    const key = await harness.key(acme.workspace_id, ['users']);
    const { status, body } = await harness.graphql(key, '{ contacts { data { id } } }');
    // A failed field of an answer with data: 200, the error carrying its code (infra/graphql/partialAnswers.ts).
    expect(status).toBe(200);
    expect(body.errors?.[0]?.extensions).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: { required_scope: ['customers:read'] },
    });
    expect(body.errors?.[0]?.message).toBe('This API key lacks the customers:read scope');
  });

  it('accepts contacts:read (the machine-readable name) for reading contacts, and nothing more', async () => {
    const contact = await addContact(acme.workspace_id, 'Reader Test');
    const key = await harness.key(acme.workspace_id, ['contacts:read']);
    const read = await harness.graphql(key, 'query($id: ID!) { contact(id: $id) { id name } }', { id: contact.id });
    expect(read.body.data).toEqual({ contact: { id: contact.id, name: 'Reader Test' } });
    const write = await harness.graphql(key, 'mutation { tagCreate(name: "x") { id } }');
    expect(write.body.errors?.[0]?.extensions.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('declares an auth scope on every Query and Mutation field (secure by default)', () => {
    const roots = [schema.getQueryType(), schema.getMutationType()].filter((type) => type !== null && type !== undefined);
    const undeclared = roots.flatMap((type) =>
      Object.values(type.getFields())
        .filter((field) => !(field.extensions as { pothosOptions?: { authScopes?: unknown } }).pothosOptions?.authScopes)
        .map((field) => `${type.name}.${field.name}`),
    );
    expect(undeclared).toEqual([]);
  });
});

describe('tenancy', () => {
  it('shows a key only its own workspace, and answers 404 for another workspace record as for a missing one', async () => {
    const foreign = await addContact(globex.workspace_id, 'Globex Only');
    const own = await addContact(acme.workspace_id, 'Acme Only');

    const list = await harness.graphql<{ contacts: { data: { id: string }[] } }>(acme.api_key, '{ contacts(limit: 100) { data { id } } }');
    const ids = list.body.data!.contacts.data.map((contact) => contact.id);
    expect(ids).toContain(own.id);
    expect(ids).not.toContain(foreign.id);

    const query = 'query($id: ID!) { contact(id: $id) { id } }';
    const foreignResult = await harness.graphql(acme.api_key, query, { id: foreign.id });
    const missingResult = await harness.graphql(acme.api_key, query, { id: '01a1fc9c-0000-7000-8000-000000000000' });
    // A failed field of an answer with data: 200, the error carrying its code (infra/graphql/partialAnswers.ts).
    expect(foreignResult.status).toBe(200);
    expect(foreignResult.body.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    expect(foreignResult.body.errors?.[0]?.message).toBe(missingResult.body.errors?.[0]?.message);
  });

  it('lists only the users of the key workspace', async () => {
    const result = await harness.graphql<{ users: { id: string }[] }>(globex.api_key, '{ users { id } }');
    expect(result.body.data!.users.map((user) => user.id)).toEqual([globex.user_id]);
  });
});
