// A contact's whole story (issue 38): contactTimeline lists its conversations, campaigns received, appointments,
// consent changes (recorded by the consent write path), notes and tags newest first, ties in kind order; walking
// it two entries at a time with next_cursor gives the same list; REST GET /contacts/{id}/timeline and the MCP tool
// contacts_timeline answer what the GraphQL operation answers; a bad cursor is 400, another workspace's contact
// 404, no key 401 and a key without the contacts scope 403.
import { print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { useWorkspace } from '../support/workspace.js';
import { seedContactStory } from '../support/contactStory.js';
import { expectError, getJson, operationResult, sendJson } from '../support/restFixtures.js';
import { openMcpClient } from '../support/mcpClient.js';
import { operation } from '../../facades/core/operations.js';

const shop = useWorkspace();

type Entry = { kind: string; id: string; at: string } & Record<string, Record<string, unknown> | string | null>;
type Page = { data: Entry[]; next_cursor: string | null; has_more: boolean };

async function timeline(variables: Record<string, unknown>): Promise<Page> {
  return (await operationResult(shop.harness, shop.key, 'ContactTimeline', variables)) as Page;
}

async function storyWithConsent() {
  const story = await seedContactStory(shop.prisma, shop.workspace.workspace_id);
  const consent = await sendJson(shop.harness, 'PUT', `/api/v1/contacts/${story.contactId}/consent`, shop.key, { status: 'opted_out' });
  expect(consent.status).toBe(200);
  const change = await shop.prisma.consentChange.findFirstOrThrow({ where: { contact_id: story.contactId } });
  return { ...story, expected: [{ kind: 'consent', id: change.id }, ...story.expected] };
}

describe("a contact's timeline", () => {
  it('lists every kind newest first with its item, and a walk by next_cursor gives the same list', async () => {
    const story = await storyWithConsent();
    const page = await timeline({ id: story.contactId });
    expect(page.has_more).toBe(false);
    expect(page.next_cursor).toBeNull();
    expect(page.data.map(({ kind, id }) => ({ kind, id }))).toEqual(story.expected);

    const [consent, note, tag, appointment, campaign, conversation] = page.data;
    expect(consent!['consent']).toMatchObject({ status: 'opted_out', previous_status: 'unknown', source: 'api', message_id: null });
    expect(consent!['note']).toBeNull();
    expect(note!['note']).toMatchObject({
      body: 'Prefers mornings',
      conversation_id: story.conversationId,
      author_user_id: expect.any(String),
    });
    expect(note!.at).toBe(tag!.at);
    expect(tag!['tag']).toMatchObject({ id: story.tagId, name: expect.stringMatching(/^vip /), color: '#1e88e5' });
    expect(appointment!['appointment']).toMatchObject({ id: story.appointmentId, status: 'cancelled' });
    expect((appointment!['appointment'] as Record<string, unknown>)['appointment_type_name']).toMatch(/^Fitting /);
    expect(campaign!['campaign']).toMatchObject({ campaign_id: story.campaignId, status: 'read', template_name: 'spring_offer' });
    expect(conversation!['conversation']).toMatchObject({ id: story.conversationId, status: 'closed', provider: 'sandbox' });
    const times = page.data.map((entry) => Date.parse(entry.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const walked: Entry[] = [];
    let cursor: string | null = null;
    do {
      const next: Page = await timeline({ id: story.contactId, limit: 2, cursor });
      walked.push(...next.data);
      expect(next.has_more).toBe(next.next_cursor !== null);
      cursor = next.next_cursor;
    } while (cursor);
    expect(walked).toEqual(page.data);
  });

  it('answers the same on REST and MCP as the GraphQL operation', async () => {
    const story = await storyWithConsent();
    const first = await timeline({ id: story.contactId, limit: 3 });
    expect(first.data).toHaveLength(3);
    const rest = await getJson(shop.harness, `/api/v1/contacts/${story.contactId}/timeline?limit=3`, { key: shop.key });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(first);
    const second = await getJson(
      shop.harness,
      `/api/v1/contacts/${story.contactId}/timeline?limit=3&cursor=${encodeURIComponent(first.next_cursor!)}`,
      { key: shop.key },
    );
    expect(second.body).toEqual(await timeline({ id: story.contactId, limit: 3, cursor: first.next_cursor }));
    expect(second.body.data.map((entry: Entry) => entry.kind)).toEqual(['appointment', 'campaign', 'conversation']);

    const mcp = await openMcpClient(shop.harness, shop.key);
    try {
      const tool = await mcp.call('contacts_timeline', { id: story.contactId, limit: 3 });
      expect(tool.isError).toBe(false);
      expect(tool.json).toEqual(first);
    } finally {
      await mcp.close();
    }
  });

  it('refuses a bad cursor or limit (400), another workspace’s contact (404), no key (401) and a key without the contacts scope (403)', async () => {
    const story = await seedContactStory(shop.prisma, shop.workspace.workspace_id);
    const path = `/api/v1/contacts/${story.contactId}/timeline`;
    expectError(await getJson(shop.harness, `${path}?cursor=nonsense`, { key: shop.key }), 400, {
      code: 'VALIDATION_ERROR',
      details: { cursor: 'must be the next_cursor of a previous page' },
    });
    expect((await getJson(shop.harness, `${path}?limit=0`, { key: shop.key })).status).toBe(400);
    expectError(await getJson(shop.harness, '/api/v1/contacts/not-a-uuid/timeline', { key: shop.key }), 400, { code: 'VALIDATION_ERROR' });

    const other = await shop.harness.workspace('Elsewhere');
    expectError(await getJson(shop.harness, path, { key: other.api_key }), 404, { code: 'NOT_FOUND' });
    expect((await getJson(shop.harness, path)).status).toBe(401);
    const tagsOnly = await shop.harness.key(shop.workspace.workspace_id, ['tags']);
    expectError(await getJson(shop.harness, path, { key: tagsOnly }), 403, { code: 'INSUFFICIENT_SCOPE' });
    const reader = await shop.harness.key(shop.workspace.workspace_id, ['contacts:read']);
    expect((await getJson(shop.harness, path, { key: reader })).status).toBe(200);

    const graphql = await shop.harness.graphql(other.api_key, print(operation('ContactTimeline')), { id: story.contactId });
    expect(graphql.body.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
  });
});
