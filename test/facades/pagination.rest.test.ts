import { beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { openHarness, type Harness } from '../support/harness.js';
import { GUIDE, getJson } from '../support/restFixtures.js';

// A few thousand contacts and conversations, written with createMany (setup); every page is read over HTTP.
const CONTACTS = 3000;
const CONVERSATIONS = 2500;
const STATUSES = ['active', 'pending', 'closed'] as const;

type Row = { id: string; last_message_at: Date | null; status: string; assigned_user_id: string | null; name: string; tagged: boolean };

let h: Harness;
let key: string;
let userId: string;
let tagId: string;
let contacts: Row[];
let conversations: Row[];

/** Newest first: ids descending (UUIDv7, so creation order), as strings compare like PostgreSQL's uuids. */
const byIdDesc = (a: Row, b: Row) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Conversations: latest message first, ties by id descending, conversations without a message last. */
function byActivity(a: Row, b: Row): number {
  if (a.last_message_at && b.last_message_at) {
    return b.last_message_at.getTime() - a.last_message_at.getTime() || byIdDesc(a, b);
  }
  if (a.last_message_at || b.last_message_at) return a.last_message_at ? -1 : 1;
  return byIdDesc(a, b);
}

beforeAll(async () => {
  h = await openHarness({ rateLimitPerMinute: 100_000 });
  const workspace = await h.workspace();
  key = workspace.api_key;
  userId = workspace.user_id;
  const company_id = workspace.workspace_id;
  const prisma = h.db.prisma;
  tagId = (await prisma.tag.create({ data: { company_id, name: 'walk' } })).id;

  contacts = Array.from({ length: CONTACTS }, (_, index) => ({
    id: uuidv7(),
    name: index % 3 === 0 ? `Walker ${index}` : `Other ${index}`,
    tagged: index % 4 === 0,
    last_message_at: null,
    status: '',
    assigned_user_id: null,
  }));
  await prisma.customer.createMany({
    data: contacts.map(({ id, name }, index) => ({ id, company_id, name, phone_number: `+1555${String(index).padStart(7, '0')}` })),
  });
  await prisma.customerTag.createMany({
    data: contacts.filter((row) => row.tagged).map((row) => ({ customer_id: row.id, tag_id: tagId })),
  });

  // 40 distinct timestamps for 2500 conversations: every page boundary falls inside a run of ties. One in
  // eight conversations has no message at all.
  const base = Date.parse('2026-05-01T00:00:00Z');
  conversations = Array.from({ length: CONVERSATIONS }, (_, index) => ({
    id: uuidv7(),
    last_message_at: index % 8 === 0 ? null : new Date(base + (index % 40) * 60_000),
    status: STATUSES[index % 3]!,
    assigned_user_id: index % 5 === 0 ? userId : null,
    name: '',
    tagged: false,
  }));
  await prisma.conversation.createMany({
    data: conversations.map(({ id, last_message_at, status, assigned_user_id }, index) => ({
      id,
      company_id,
      customer_id: contacts[index % CONTACTS]!.id,
      provider: 'sandbox',
      status,
      last_message_at,
      assigned_user_id,
    })),
  });
});

/** Follows the pages of a schema-form list until has_more is false; returns the ids in the order seen. */
async function walk(path: string, cursorParameter: 'cursor' | 'before', limit: number, start: string | null = null): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = start;
  for (let page = 0; page < 1000; page++) {
    const separator = path.includes('?') ? '&' : '?';
    const url: string = `${path}${separator}limit=${limit}${cursor ? `&${cursorParameter}=${encodeURIComponent(cursor)}` : ''}`;
    const { status, body } = await getJson(h, url, { key });
    expect(status).toBe(200);
    expect(body.data.length).toBeLessThanOrEqual(limit);
    seen.push(...body.data.map((item: { id: string }) => item.id));
    if (!body.has_more) {
      expect(body.next_cursor).toBeNull();
      return seen;
    }
    expect(body.data).toHaveLength(limit);
    expect(typeof body.next_cursor).toBe('string');
    cursor = body.next_cursor;
  }
  throw new Error(`${path} did not end`);
}

function expectEachOnceInOrder(seen: string[], expected: Row[]) {
  expect(new Set(seen).size).toBe(seen.length);
  expect(seen).toEqual(expected.map((row) => row.id));
}

describe('pagination walks every page and sees each record exactly once, newest first', () => {
  it.each([
    ['all contacts', '/api/v1/contacts', () => contacts],
    ['search', '/api/v1/contacts?search=walker', () => contacts.filter((row) => row.name.startsWith('Walker'))],
    ['tag_id', () => `/api/v1/contacts?tag_id=${tagId}`, () => contacts.filter((row) => row.tagged)],
    ['q on /contacts/search', '/api/v1/contacts/search?q=Walker', () => contacts.filter((row) => row.name.startsWith('Walker'))],
    ['the deprecated /customers', '/api/v1/customers?search=walker', () => contacts.filter((row) => row.name.startsWith('Walker'))],
  ] as const)('contacts: %s, by cursor = the last id', async (_name, path, expected) => {
    const seen = await walk(typeof path === 'function' ? path() : path, 'cursor', 100);
    expectEachOnceInOrder(seen, [...expected()].sort(byIdDesc));
  });

  it.each([
    ['all', '', () => conversations],
    ['status=active', 'status=active', () => conversations.filter((row) => row.status === 'active')],
    ['status=open', 'status=open', () => conversations.filter((row) => row.status === 'active')],
    ['status=pending', 'status=pending', () => conversations.filter((row) => row.status === 'pending')],
    ['status=closed', 'status=closed', () => conversations.filter((row) => row.status === 'closed')],
    ['assigned_user_id', () => `assigned_user_id=${userId}`, () => conversations.filter((row) => row.assigned_user_id === userId)],
    [
      'status=pending and assigned_user_id',
      () => `status=pending&assigned_user_id=${userId}`,
      () => conversations.filter((row) => row.status === 'pending' && row.assigned_user_id === userId),
    ],
  ] as const)('conversations: %s, by before = next_cursor, across ties and into those without messages', async (_name, query, expected) => {
    const filter = typeof query === 'function' ? query() : query;
    const seen = await walk(`/api/v1/conversations${filter ? `?${filter}` : ''}`, 'before', 37);
    const rows = [...expected()].sort(byActivity);
    expect(rows.some((row) => row.last_message_at === null)).toBe(true);
    expectEachOnceInOrder(seen, rows);
  });

  it('a guide-form client walks the contacts with hasMore and the last id', async () => {
    const seen: string[] = [];
    let cursor = '';
    for (let hasMore = true; hasMore;) {
      const { body } = await getJson(h, `/api/v1/contacts?limit=100${cursor}`, { key, headers: { accept: GUIDE } });
      seen.push(...body.customers.map((item: { id: string }) => item.id));
      hasMore = body.hasMore;
      cursor = `&cursor=${seen.at(-1)}`;
    }
    expectEachOnceInOrder(seen, [...contacts].sort(byIdDesc));
  });

  it('before as an ISO 8601 date-time returns only conversations whose last message is older', async () => {
    const before = '2026-05-01T00:20:00Z';
    const seen = await walk('/api/v1/conversations', 'before', 100, before);
    const rows = conversations.filter((row) => row.last_message_at && row.last_message_at < new Date(before));
    expectEachOnceInOrder(seen, rows.sort(byActivity));
  });
});
