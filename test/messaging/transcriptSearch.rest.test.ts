// Message search and conversation search answer exactly what a case-insensitive substring match answers, in their
// lists' order, for every kind of term, through every step of resolvers/shared/substringSearch.ts: terms common
// among the newest rows (the recent window), terms seen there but not often enough (the further window), and rare
// or absent ones found through the trigram and short-gram indexes among older rows. 1,480 messages (more than the
// message window of 1,000) in 370 conversations with messages (more than the conversation window of 300), then 50
// conversations without any, are written with createMany; every page is read over HTTP and the whole walk compared
// with the same match computed here; so is every page of the search statements themselves, each way their index step
// can ask the indexes (for the workspace's rows, or the term's alone).
import { beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { openHarness, type Harness } from '../support/harness.js';
import { getJson } from '../support/restFixtures.js';
import { matchingNewestFirst } from '../../resolvers/shared/substringSearch.js';
import { MESSAGES } from '../../resolvers/messaging/search.js';
import { matchingConversationIds } from '../../resolvers/conversations/search.js';

const TIMED = 370;
const UNTIMED = 50;
const MESSAGES_PER_CONVERSATION = 4;
const FIRST = ['Ana', 'Bruno', 'Chen', 'Dara', 'Élodie', 'Femi', 'Gita', 'Hugo', 'Ines', 'Jonas'];
const BODIES = ['Where is my order?', 'Thanks, that helps', 'Can I change the delivery day', 'Order confirmed: see you soon'];

type Contact = { id: string; name: string; phone_number: string; email: string | null };
type Message = { id: string; conversation_id: string; body: string };
type Conversation = { id: string; customer_id: string; last_message_at: Date | null };

let h: Harness;
let key: string;
let workspaceId: string;
const contacts: Contact[] = [];
const conversations: Conversation[] = [];
const messages: Message[] = [];

/** The data, oldest first. Rare words live only in the oldest conversations (and in a few without messages), so
 * only the index step finds them; one word is in one message in twenty, so the recent window sees it too rarely. */
function build(start: number) {
  for (let index = 0; index < TIMED + UNTIMED; index += 1) {
    const timed = index < TIMED;
    const rareContact = index < 6 || (index >= TIMED && index < TIMED + 3);
    const contact: Contact = {
      id: uuidv7({ msecs: start + index }),
      name: rareContact ? `Zephyr Qoo ${index}` : `${FIRST[index % FIRST.length]!} Silva ${index}`,
      phone_number: `+1555${String(index).padStart(7, '0')}`,
      email: index % 4 === 0 ? null : `${FIRST[index % FIRST.length]!.toLowerCase()}${index}@example.com`,
    };
    contacts.push(contact);
    // Conversations with messages are created first, so that their ids are older than those without any.
    const conversation: Conversation = { id: uuidv7({ msecs: start + 1000 + index }), customer_id: contact.id, last_message_at: null };
    conversations.push(conversation);
    if (!timed) continue;
    for (let turn = 0; turn < MESSAGES_PER_CONVERSATION; turn += 1) {
      const sequence = index * MESSAGES_PER_CONVERSATION + turn;
      const rare = index < 8 && turn === 1 ? `Quokka xj refund ${index}` : null;
      const sometimes = sequence % 20 === 7 ? ' (kiwi fruit)' : '';
      messages.push({
        id: uuidv7({ msecs: start + 10_000 + sequence }),
        conversation_id: conversation.id,
        body: rare ?? `${BODIES[turn]!}${sometimes} #${sequence}`,
      });
    }
    // Every tenth pair of conversations shares its last instant, so that ties are ordered by id.
    const instant = index % 10 === 1 ? index - 1 : index;
    conversation.last_message_at = new Date(start + 100_000 + instant * 1000);
  }
}

/** ILIKE '%term%' on one value, as PostgreSQL reads it: both sides lower-cased. */
const contains = (value: string | null, term: string) => value !== null && value.toLowerCase().includes(term.toLowerCase());

/** The conversation list's order: by last_message_at then id, newest first; those without a message last, by id. */
function conversationOrder(a: Conversation, b: Conversation): number {
  if (a.last_message_at && b.last_message_at && a.last_message_at.getTime() !== b.last_message_at.getTime()) {
    return b.last_message_at.getTime() - a.last_message_at.getTime();
  }
  if (!a.last_message_at !== !b.last_message_at) return a.last_message_at ? -1 : 1;
  return a.id < b.id ? 1 : -1;
}

beforeAll(async () => {
  h = await openHarness({ rateLimitPerMinute: 100_000 });
  const workspace = await h.workspace();
  key = workspace.api_key;
  const start = Date.now() - 1_000_000;
  build(start);
  const company_id = workspace.workspace_id;
  workspaceId = company_id;
  await h.db.prisma.customer.createMany({ data: contacts.map((contact) => ({ ...contact, company_id })) });
  await h.db.prisma.conversation.createMany({
    data: conversations.map((conversation) => ({ ...conversation, company_id, provider: 'sandbox' })),
  });
  await h.db.prisma.message.createMany({
    data: messages.map((message) => ({ ...message, company_id, direction: 'inbound', status: 'received' })),
  });
  // Another workspace holds the same words, older than every row of this one (so that only the index step, which
  // reads older rows, could meet them), and is never found.
  const other = await h.workspace();
  const older = (offset: number) => uuidv7({ msecs: start - 100_000 + offset });
  const stranger = await h.db.prisma.customer.create({
    data: { id: older(0), company_id: other.workspace_id, name: 'Zephyr Qoo', phone_number: '+15550000001' },
  });
  const elsewhere = await h.db.prisma.conversation.create({
    data: {
      id: older(1),
      company_id: other.workspace_id,
      customer_id: stranger.id,
      provider: 'sandbox',
      last_message_at: new Date(start - 100_000),
    },
  });
  await h.db.prisma.message.createMany({
    data: ['Quokka xj refund', 'Where is my order? (kiwi fruit)'].map((body, index) => ({
      id: older(2 + index),
      company_id: other.workspace_id,
      conversation_id: elsewhere.id,
      body,
      direction: 'inbound',
      status: 'received',
    })),
  });
}, 120_000);

/** Every result of a search, page by page through next_cursor (sent as `cursorName`), from `start` when given. */
async function walk(path: string, term: string, limit: number, cursorName: string, start?: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = start ?? null;
  for (;;) {
    const query = new URLSearchParams({ q: term, limit: String(limit), ...(cursor ? { [cursorName]: cursor } : {}) });
    const page = await getJson(h, `${path}?${query}`, { key });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    ids.push(...(page.body.data as { id: string }[]).map((row) => row.id));
    cursor = page.body.next_cursor as string | null;
    if (!page.body.has_more) return ids;
  }
}

const terms = {
  'one character, common': 'o',
  'one character, rare (only among the oldest)': 'x',
  'one character, absent': 'ж',
  'two characters, common': 'or',
  'two characters, rare': 'xj',
  'two characters, absent': 'qj',
  'three or more, common': 'order',
  'three or more, in one message in twenty': 'kiwi',
  'three or more, rare': 'quokka',
  absent: 'nobody-here',
  'several words': 'is my order',
  'several words, one of them rare': 'Quokka xj',
  'another case': 'THANKS, THAT',
  'LIKE wildcards taken literally': '%',
  'a number': '#14',
};

/** The messages whose body contains the term, newest first. */
const matchingMessages = (term: string) =>
  messages
    .filter((message) => contains(message.body, term))
    .map((message) => message.id)
    .reverse();

describe('message search', () => {
  const matching = matchingMessages;

  it.each(Object.entries(terms))(
    '%s (%s): exactly the messages whose body contains it, newest first, over every page',
    async (_kind, term) => {
      expect(await walk('/api/v1/messages/search', term, 100, 'cursor')).toEqual(matching(term));
    },
  );

  it('pages a rare term found only among the oldest messages in small pages without gap or repeat', async () => {
    const expected = matching('xj refund');
    expect(expected.length).toBe(8);
    expect(await walk('/api/v1/messages/search', 'xj refund', 3, 'cursor')).toEqual(expected);
  });
});

describe('a search term too long', () => {
  it.each(['/api/v1/messages/search', '/api/v1/conversations/search', '/api/v1/contacts/search'])(
    '%s: 400 saying how long it may be',
    async (path) => {
      const page = await getJson(h, `${path}?q=${'a'.repeat(201)}`, { key });
      expect(page.status).toBe(400);
      expect(page.body.error.code).toBe('VALIDATION_ERROR');
      expect(page.body.error.details).toEqual({ q: 'must be at most 200 characters' });
    },
  );
});

/** The conversations whose contact or messages contain the term (among those `from` keeps), in the list's order. */
function matchingConversations(term: string, from: (conversation: Conversation) => boolean = () => true): string[] {
  const contactOf = new Map(contacts.map((contact) => [contact.id, contact]));
  const withMessage = new Set(messages.filter((message) => contains(message.body, term)).map((message) => message.conversation_id));
  return conversations
    .filter((conversation) => {
      const contact = contactOf.get(conversation.customer_id)!;
      const byContact = contains(contact.name, term) || contains(contact.phone_number, term) || contains(contact.email, term);
      return (byContact || withMessage.has(conversation.id)) && from(conversation);
    })
    .sort(conversationOrder)
    .map((conversation) => conversation.id);
}

const conversationTerms = {
  ...terms,
  "a contact's name, also without messages": 'zephyr qoo',
  'a phone fragment': '+1555000036',
  'a phone fragment of six digits or fewer': '00036',
  'an e-mail fragment': 'gita17@',
};

describe('conversation search', () => {
  const matching = matchingConversations;

  it.each(Object.entries(conversationTerms))(
    "%s (%s): exactly the conversations whose contact or messages contain it, in the list's order, over every page",
    async (_kind, term) => {
      expect(await walk('/api/v1/conversations/search', term, 100, 'before')).toEqual(matching(term));
    },
  );

  it('pages from the oldest conversations with messages into those without, in small pages, without gap or repeat', async () => {
    const expected = matching('zephyr');
    expect(expected.length).toBe(9);
    expect(await walk('/api/v1/conversations/search', 'zephyr', 2, 'before')).toEqual(expected);
  });

  it('starts at a date-time: only conversations whose last message is older, never those without messages', async () => {
    const at = conversations[200]!.last_message_at!;
    const expected = matching('o', (conversation) => conversation.last_message_at !== null && conversation.last_message_at < at);
    expect(expected.length).toBeGreaterThan(100);
    expect(await walk('/api/v1/conversations/search', 'o', 30, 'before', at.toISOString())).toEqual(expected);
    expect(await walk('/api/v1/conversations/search', 'quokka', 30, 'before', at.toISOString())).toEqual(matching('quokka'));
  });

  it('answers nothing, not an error, for a walk kept to conversations with a message that is past all of them', async () => {
    const untimed = conversations.find((conversation) => conversation.last_message_at === null)!;
    const page = await getJson(h, `/api/v1/conversations/search?q=o&before=c1.${untimed.id}.-.m`, { key });
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ data: [], has_more: false, next_cursor: null });
  });
});

// The statements themselves, each way a lookup of the index step can be asked (resolvers/shared/workspaceShares.ts
// chooses for the service): for the workspace's rows, or for the term's alone with the workspace's rows kept after,
// as for a workspace holding most of the table. Both answer exactly the match, over every page.
describe.each([
  ['workspace', []],
  ['term alone', ['customers', 'messages']],
])('the search statements, the index step asking for the %s', (_lookups, tables) => {
  const searched = () => ({ id: workspaceId, holdsMostOf: new Set(tables) });

  it.each(Object.entries(terms))('messages: %s (%s)', async (_kind, term) => {
    const ids: string[] = [];
    for (let page: string[] = []; ids.length === 0 || page.length === 100;) {
      page = await matchingNewestFirst(h.db.searchSql, MESSAGES, searched(), term, ids.at(-1) ?? null, 100);
      ids.push(...page);
      if (page.length === 0) break;
    }
    expect(ids).toEqual(matchingMessages(term));
  });

  it.each(Object.entries(conversationTerms))('conversations: %s (%s)', async (_kind, term) => {
    const byId = new Map(conversations.map((conversation) => [conversation.id, conversation]));
    const ids: string[] = [];
    for (let page: string[] = []; ids.length === 0 || page.length === 100;) {
      const last = byId.get(ids.at(-1) ?? '');
      const after = last ? { at: last.last_message_at, id: last.id } : null;
      page = await matchingConversationIds(h.db.searchSql, searched(), term, { after, withMessagesOnly: false }, 100);
      ids.push(...page);
      if (page.length === 0) break;
    }
    expect(ids).toEqual(matchingConversations(term));
  });
});
