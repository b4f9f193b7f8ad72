// Conversations managed through GraphQL, as dashboards do: search, update, close/reopen under the one
// transition table, notes and summaries.
import { describe, expect, it } from 'vitest';
import { useWorkspace } from '../support/workspace.js';
import { seedConversation } from '../support/conversations.js';
import { CONVERSATION_TRANSITIONS } from '../../resolvers/conversations/status.js';

const shop = useWorkspace();

async function contact(name: string, email?: string) {
  return shop.harness.db.prisma.customer.create({ data: { company_id: shop.workspace.workspace_id, name, email: email ?? null } });
}

describe('conversationSearch', () => {
  it("finds conversations by the contact's name or email, or by the text of a message, newest first", async () => {
    const tag = `z${Date.now()}`;
    const byName = await seedConversation(shop.harness.db.prisma, shop.workspace, (await contact(`Grace ${tag}`)).id, {
      lastMessageAt: new Date(Date.now() - 3000),
    });
    const byEmail = await seedConversation(shop.harness.db.prisma, shop.workspace, (await contact('Alan', `${tag}@example.com`)).id, {
      lastMessageAt: new Date(Date.now() - 2000),
    });
    const byMessage = await seedConversation(shop.harness.db.prisma, shop.workspace, (await contact('Edsger')).id, {
      messages: [`my order ${tag.toUpperCase()} is late`],
      lastMessageAt: new Date(Date.now() - 1000),
    });
    await seedConversation(shop.harness.db.prisma, shop.workspace, (await contact('Nobody')).id);
    const { body } = await shop.harness.graphql<{
      conversationSearch: { data: { id: string; customer: { name: string } }[]; has_more: boolean };
    }>(shop.key, 'query($q: String!) { conversationSearch(q: $q, limit: 2) { data { id customer { name } } has_more next_cursor } }', {
      q: tag,
    });
    expect(body.data!.conversationSearch.data.map((row) => row.id)).toEqual([byMessage.id, byEmail.id]);
    expect(body.data!.conversationSearch.has_more).toBe(true);
    const next = await shop.harness.graphql<{ conversationSearch: { data: { id: string }[]; has_more: boolean } }>(
      shop.key,
      'query($q: String!, $before: String) { conversationSearch(q: $q, limit: 2, before: $before) { data { id } has_more } }',
      { q: tag, before: (body.data!.conversationSearch as unknown as { next_cursor: string }).next_cursor },
    );
    expect(next.body.data!.conversationSearch).toEqual({ data: [{ id: byName.id }], has_more: false });
  });

  it("never finds another workspace's conversations", async () => {
    const other = await shop.harness.workspace();
    const tag = `y${Date.now()}`;
    await seedConversation(shop.harness.db.prisma, shop.workspace, (await contact(`Hidden ${tag}`)).id);
    const { body } = await shop.harness.graphql(other.api_key, 'query($q: String!) { conversationSearch(q: $q) { data { id } } }', {
      q: tag,
    });
    expect(body.data).toEqual({ conversationSearch: { data: [] } });
  });
});

describe('conversationUpdate', () => {
  it('assigns a user of the workspace, switches the AI agent and replaces details, leaving omitted fields alone', async () => {
    const conversation = await seedConversation(shop.harness.db.prisma, shop.workspace, (await contact('Update me')).id);
    const mutation = `mutation($id: ID!, $user: ID, $on: Boolean, $details: JSON) {
      conversationUpdate(id: $id, assigned_user_id: $user, service_enabled: $on, details: $details) { assigned_user_id service_enabled details }
    }`;
    const first = await shop.harness.graphql(shop.key, mutation, {
      id: conversation.id,
      user: shop.workspace.user_id,
      on: true,
      details: { topic: 'billing' },
    });
    expect(first.body.data).toEqual({
      conversationUpdate: { assigned_user_id: shop.workspace.user_id, service_enabled: true, details: { topic: 'billing' } },
    });
    const second = await shop.harness.graphql(
      shop.key,
      'mutation($id: ID!) { conversationUpdate(id: $id, assigned_user_id: null) { assigned_user_id service_enabled details } }',
      {
        id: conversation.id,
      },
    );
    expect(second.body.data).toEqual({
      conversationUpdate: { assigned_user_id: null, service_enabled: true, details: { topic: 'billing' } },
    });
  });

  it('refuses an assignee who is not a user of the workspace', async () => {
    const other = await shop.harness.workspace();
    const conversation = await seedConversation(shop.harness.db.prisma, shop.workspace, (await contact('Guarded')).id);
    const { body } = await shop.harness.graphql(
      shop.key,
      'mutation($id: ID!, $user: ID) { conversationUpdate(id: $id, assigned_user_id: $user) { id } }',
      {
        id: conversation.id,
        user: other.user_id,
      },
    );
    expect(body.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { assigned_user_id: 'must be the id of a user of this workspace' },
    });
  });
});

describe('conversation status transitions', () => {
  const close = 'mutation($id: ID!) { conversationClose(id: $id) { status } }';
  const reopen = 'mutation($id: ID!) { conversationReopen(id: $id) { status } }';

  it('closes an active or pending conversation and reopens a closed one as active', async () => {
    for (const status of CONVERSATION_TRANSITIONS.close.from) {
      const conversation = await seedConversation(shop.harness.db.prisma, shop.workspace, (await contact(`Close ${status}`)).id, {
        status,
      });
      expect((await shop.harness.graphql(shop.key, close, { id: conversation.id })).body.data).toEqual({
        conversationClose: { status: 'closed' },
      });
      expect((await shop.harness.graphql(shop.key, reopen, { id: conversation.id })).body.data).toEqual({
        conversationReopen: { status: 'active' },
      });
    }
  });

  it('answers INVALID_TRANSITION for closing a closed or reopening an open conversation, changing nothing', async () => {
    const conversation = await seedConversation(shop.harness.db.prisma, shop.workspace, (await contact('Twice')).id, { status: 'closed' });
    const closed = await shop.harness.graphql(shop.key, close, { id: conversation.id });
    expect(closed.body.errors?.[0]).toMatchObject({
      message: 'Cannot close a conversation whose status is closed',
      extensions: { code: 'INVALID_TRANSITION', details: { status: 'closed', action: 'close', allowed_from: ['active', 'pending'] } },
    });
    await shop.harness.graphql(shop.key, reopen, { id: conversation.id });
    const reopened = await shop.harness.graphql(shop.key, reopen, { id: conversation.id });
    expect(reopened.body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_TRANSITION', details: { status: 'active' } });
  });

  it("answers NOT_FOUND for another workspace's conversation", async () => {
    const other = await shop.harness.workspace();
    const conversation = await seedConversation(shop.harness.db.prisma, shop.workspace, (await contact('Not yours')).id);
    const { body } = await shop.harness.graphql(other.api_key, close, { id: conversation.id });
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
    expect((await shop.harness.db.prisma.conversation.findUniqueOrThrow({ where: { id: conversation.id } })).status).toBe('active');
  });
});

describe.each([
  {
    kind: 'note',
    list: 'conversationNotes',
    create: 'conversationNoteCreate',
    update: 'conversationNoteUpdate',
    remove: 'conversationNoteDelete',
  },
  {
    kind: 'summary',
    list: 'conversationSummaries',
    create: 'conversationSummaryCreate',
    update: 'conversationSummaryUpdate',
    remove: 'conversationSummaryDelete',
  },
])('conversation $kind records', ({ list, create, update, remove }) => {
  it('creates, lists newest first with paging, updates and deletes them', async () => {
    const conversation = await seedConversation(shop.harness.db.prisma, shop.workspace, (await contact('Recorded')).id);
    const ids: string[] = [];
    for (const text of ['first', 'second', 'third']) {
      const created = await shop.harness.graphql<Record<string, { id: string; body: string; conversation_id: string }>>(
        shop.key,
        `mutation($c: ID!, $b: String!) { ${create}(conversation_id: $c, body: $b) { id body conversation_id } }`,
        { c: conversation.id, b: text },
      );
      expect(created.body.data![create]).toMatchObject({ body: text, conversation_id: conversation.id });
      ids.push(created.body.data![create]!.id);
    }
    const page = await shop.harness.graphql<Record<string, { data: { id: string }[]; next_cursor: string; has_more: boolean }>>(
      shop.key,
      `query($c: ID!) { ${list}(conversation_id: $c, limit: 2) { data { id } next_cursor has_more } }`,
      { c: conversation.id },
    );
    expect(page.body.data![list]).toEqual({ data: [{ id: ids[2] }, { id: ids[1] }], next_cursor: ids[1], has_more: true });

    const updated = await shop.harness.graphql(shop.key, `mutation($id: ID!) { ${update}(id: $id, body: "edited") { id body } }`, {
      id: ids[0],
    });
    expect(updated.body.data).toEqual({ [update]: { id: ids[0], body: 'edited' } });
    const deleted = await shop.harness.graphql(shop.key, `mutation($id: ID!) { ${remove}(id: $id) { id deleted } }`, { id: ids[0] });
    expect(deleted.body.data).toEqual({ [remove]: { id: ids[0], deleted: true } });
    const gone = await shop.harness.graphql(shop.key, `mutation($id: ID!) { ${remove}(id: $id) { id } }`, { id: ids[0] });
    expect(gone.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
  });

  it("refuses an empty body, and another workspace's records answer NOT_FOUND", async () => {
    const conversation = await seedConversation(shop.harness.db.prisma, shop.workspace, (await contact('Guarded records')).id);
    const empty = await shop.harness.graphql(shop.key, `mutation($c: ID!) { ${create}(conversation_id: $c, body: "  ") { id } }`, {
      c: conversation.id,
    });
    expect(empty.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: { body: 'must not be empty' } });

    const other = await shop.harness.workspace();
    const created = await shop.harness.graphql<Record<string, { id: string }>>(
      shop.key,
      `mutation($c: ID!) { ${create}(conversation_id: $c, body: "mine") { id } }`,
      {
        c: conversation.id,
      },
    );
    const foreignList = await shop.harness.graphql(other.api_key, `query($c: ID!) { ${list}(conversation_id: $c) { data { id } } }`, {
      c: conversation.id,
    });
    expect(foreignList.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
    const foreignUpdate = await shop.harness.graphql(other.api_key, `mutation($id: ID!) { ${update}(id: $id, body: "x") { id } }`, {
      id: created.body.data![create]!.id,
    });
    expect(foreignUpdate.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
  });
});

it('a note records the user behind the API key that wrote it', async () => {
  const conversation = await seedConversation(shop.harness.db.prisma, shop.workspace, (await contact('Authored')).id);
  const { body } = await shop.harness.graphql(
    shop.key,
    'mutation($c: ID!) { conversationNoteCreate(conversation_id: $c, body: "call back") { author_user_id } }',
    {
      c: conversation.id,
    },
  );
  expect(body.data).toEqual({ conversationNoteCreate: { author_user_id: shop.workspace.user_id } });
});
