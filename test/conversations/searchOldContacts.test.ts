// Conversation search for a term whose many matching contacts are all older than its windows (a phone fragment of
// ten thousand old contacts, at a million): the index step reads the conversations of only the contacts that can be
// on the page, bounded by the contacts' last_message_at (resolvers/conversations/search.ts, conversationsOfContacts),
// and still answers exactly the match over every page. 240 matching contacts: some with two conversations with a
// message (the older one among other contacts' newer ones), some with one with a message and one without, some with
// only one without, three contacts to an instant (ties ordered by id), and some whose last_message_at is later than
// any of their conversations' (the bound is a bound, not an equality); then 320 newer contacts that do not match, so
// that the windows find none.
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { getJson } from '../support/restFixtures.js';
import { conversationSearch } from '../../resolvers/conversations/search.js';

const MATCHING = 240;
const NEWER = 320;
const TAKE = 51;

const h = await openHarness({ rateLimitPerMinute: 100_000 });
const ws = await h.workspace('Old contacts');
const start = Date.now() - 100_000_000;

type Conversation = { id: string; customer_id: string; last_message_at: Date | null };
const contactIds: string[] = [];
const names: string[] = [];
const conversations: Conversation[] = [];
/** Contacts whose last_message_at is set later than any of their conversations' (one was deleted, say): a bound. */
const laterBounds: { id: string; at: Date }[] = [];
const instant = (second: number) => new Date(start + 1_000_000 + second * 1000);
/** A contact and its conversations (their last_message_at, null for one without a message), in creation order. */
function addContact(name: string, lastMessages: (Date | null)[]): string {
  const id = uuidv7({ msecs: start + contactIds.length });
  contactIds.push(id);
  names.push(name);
  for (const at of lastMessages)
    conversations.push({ id: uuidv7({ msecs: start + 10_000 + conversations.length }), customer_id: id, last_message_at: at });
  return id;
}
for (let index = 0; index < MATCHING; index += 1) {
  const at = instant(Math.floor(index / 3));
  // Two with a message, the second older, among other contacts' instants; one with a message and one without; one
  // with a message; one without.
  const lastMessages = [[at, instant(Math.floor(((index * 7) % MATCHING) / 3))], [at, null], [at], [null]][index % 4]!;
  const id = addContact(`Kestrel Vale ${index}`, lastMessages);
  if (index % 10 === 5) laterBounds.push({ id, at: new Date(at.getTime() + 86_400_000) });
}
// The contact whose last message is exactly the bound: seven contacts whose last_message_at is later than their
// conversations' (still older than the windows' end, so read first by it, not as contacts with a message after the
// position), and one a millisecond later than its conversation at T (read first too), make T the last of the first
// eight conversations; the contact written after, whose conversation at T comes first by id, is then read for its
// last_message_at T, though it was not read first.
const T = instant(5_000);
for (let index = 0; index < 7; index += 1) {
  const at = instant(5_100 + index);
  laterBounds.push({ id: addContact(`Merlin Early ${index}`, [at]), at: instant(6_100 + index) });
}
laterBounds.push({ id: addContact('Merlin Tied Before', [T]), at: new Date(T.getTime() + 1) });
addContact('Merlin Tied After', [T]);
for (let index = 0; index < NEWER; index += 1) addContact(`Other Person ${index}`, [instant(10_000 + index)]);
await h.db.sql.query(
  `INSERT INTO customers (id, company_id, name, created_at, updated_at)
   SELECT id, $1::uuid, name, now(), now() FROM unnest($2::uuid[], $3::text[]) AS given(id, name)`,
  [ws.workspace_id, contactIds, names],
);
// The trigger of migration 0050 moves each contact's last_message_at to its latest conversation's.
await h.db.sql.query(
  `INSERT INTO conversations (id, company_id, customer_id, provider, last_message_at, created_at, updated_at)
   SELECT id, $1::uuid, customer_id, 'sandbox', at, now(), now()
   FROM unnest($2::uuid[], $3::uuid[], $4::timestamptz[]) AS given(id, customer_id, at)`,
  [ws.workspace_id, conversations.map((c) => c.id), conversations.map((c) => c.customer_id), conversations.map((c) => c.last_message_at)],
);
await h.db.sql.query(
  `UPDATE customers SET last_message_at = later.at FROM unnest($1::uuid[], $2::timestamptz[]) AS later(id, at) WHERE customers.id = later.id`,
  [laterBounds.map((later) => later.id), laterBounds.map((later) => later.at)],
);

/** The conversation list's order: by last_message_at then id, newest first; those without a message last, by id. */
function conversationOrder(a: Conversation, b: Conversation): number {
  const at = (c: Conversation) => c.last_message_at?.getTime() ?? -Infinity;
  return at(b) - at(a) || (a.id < b.id ? 1 : -1);
}
const nameOf = new Map(contactIds.map((id, index) => [id, names[index]!]));
/** The conversations whose contact's name contains the term, in the list's order. */
const matching = (term: string) =>
  conversations.filter((c) => nameOf.get(c.customer_id)!.toLowerCase().includes(term)).sort(conversationOrder);

async function walk(term: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (;;) {
    const query = new URLSearchParams({ q: term, limit: String(limit), ...(cursor ? { before: cursor } : {}) });
    const page = await getJson(h, `/api/v1/conversations/search?${query}`, { key: ws.api_key });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    ids.push(...(page.body.data as { id: string }[]).map((row) => row.id));
    cursor = page.body.next_cursor as string | null;
    if (!page.body.has_more) return ids;
  }
}

type PlanNode = { 'Relation Name'?: string; 'Index Cond'?: string; 'Actual Loops': number; Plans?: PlanNode[] };

describe('conversation search for a term held by many old contacts', () => {
  it.each([7, 50, 100])('answers exactly the matching conversations over every page of %i', async (limit) => {
    expect(matching('kestrel').length).toBe(MATCHING + MATCHING / 2);
    expect(await walk('kestrel', limit)).toEqual(matching('kestrel').map((c) => c.id));
  });

  it("reads the conversations of only the contacts that can be on the first page, not every matching contact's", async () => {
    // With the tables' statistics, as autovacuum keeps them.
    await h.db.sql.query('ANALYZE customers, conversations');
    const statement = conversationSearch(
      { id: ws.workspace_id, holdsMostOf: new Set() },
      'kestrel',
      { after: null, withMessagesOnly: false },
      TAKE,
    )!;
    const rows = await h.db.sql.query<{ id: string }>(statement.text, statement.values);
    expect(rows.map((row) => row.id)).toEqual(
      matching('kestrel')
        .slice(0, TAKE)
        .map((c) => c.id),
    );
    const [explained] = await h.db.sql.query<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`,
      statement.values,
    );
    const raw = explained!['QUERY PLAN'];
    const [{ Plan }] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
    // The contacts' conversations are read one contact at a time, by the index of the conversation's contact.
    let contactsRead = 0;
    const visit = (node: PlanNode) => {
      if (node['Relation Name'] === 'conversations' && node['Index Cond']?.includes('customer_id')) contactsRead += node['Actual Loops'];
      node.Plans?.forEach(visit);
    };
    visit(Plan);
    expect(contactsRead).toBeGreaterThan(0);
    // The TAKE contacts read first, and those whose last_message_at is not older than the last of their first TAKE
    // conversations (ties, and the contacts whose last_message_at is later than their conversations'); not all 240.
    expect(contactsRead).toBeLessThan(2 * TAKE);
  });

  it('reads a contact whose last_message_at is exactly the last of the first conversations read', async () => {
    const expected = matching('merlin').map((c) => c.id);
    expect(expected.map((id) => nameOf.get(conversations.find((c) => c.id === id)!.customer_id))).toEqual([
      ...[6, 5, 4, 3, 2, 1, 0].map((index) => `Merlin Early ${index}`),
      'Merlin Tied After',
      'Merlin Tied Before',
    ]);
    const statement = conversationSearch(
      { id: ws.workspace_id, holdsMostOf: new Set() },
      'merlin',
      { after: null, withMessagesOnly: false },
      8,
    )!;
    expect((await h.db.sql.query<{ id: string }>(statement.text, statement.values)).map((row) => row.id)).toEqual(expected.slice(0, 8));
    expect(await walk('merlin', 7)).toEqual(expected);
  });
});
