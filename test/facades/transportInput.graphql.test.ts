// Malformed /graphql requests get a 4xx that says what is wrong, never a 500: a content type with no parser is
// the spec's error object (415), a body or query string Yoga's parsers cannot read is a GraphQL-over-HTTP 400,
// and a NUL character written into the document is refused like one sent as a variable.
import { describe, expect, it } from 'vitest';
import { useWorkspace } from '../support/workspace.js';

const shop = useWorkspace({ name: 'Transport input' });

async function answer(path: string, init: RequestInit) {
  const response = await shop.harness.fetch(path, { key: shop.key, ...init });
  const text = await response.text();
  return {
    status: response.status,
    requestId: response.headers.get('x-request-id'),
    body: text ? (JSON.parse(text) as Record<string, any>) : null,
  };
}

describe('/graphql transport input', () => {
  it('answers a content type it cannot read with 415 and the spec error object, with or without a content type', async () => {
    const contentTypes: Record<string, string>[] = [{ 'content-type': 'text/plain' }, {}];
    for (const headers of contentTypes) {
      const refused = await answer('/graphql', { method: 'POST', headers, body: new TextEncoder().encode('{"query":"{ __typename }"}') });
      expect(refused.status).toBe(415);
      expect(refused.body).toEqual({
        error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.any(String), request_id: refused.requestId },
      });
    }
  });

  it('answers variables that are not JSON in a GET query string with 400 BAD_REQUEST', async () => {
    const refused = await answer(`/graphql?query=${encodeURIComponent('{ __typename }')}&variables={`, { method: 'GET' });
    expect(refused.status).toBe(400);
    expect(refused.body!.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', request_id: refused.requestId });
  });

  it('answers a broken multipart body with 400 BAD_REQUEST', async () => {
    const refused = await answer('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=xx' },
      body: '--xx\r\nbroken',
    });
    expect(refused.status).toBe(400);
    expect(refused.body!.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('refuses a NUL character in a literal argument with VALIDATION_ERROR naming it before anything runs', async () => {
    const refused = await shop.harness.graphql(shop.key, 'mutation { tagCreate(name: "a\\u0000b") { id } }');
    // GraphQL-over-HTTP: a document that fails validation is answered 200 with errors (application/json).
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { name: 'must not contain NUL characters' },
    });
    expect(await shop.prisma.tag.count({ where: { company_id: shop.workspace.workspace_id } })).toBe(0);
  });
});
