// The `knowledge` agent, the default, end to end: an inbound WhatsApp message on a conversation with
// service_enabled on becomes an agent run in the same transaction, a worker answers it with the best passage of
// the workspace's real Markdown documents (greeting once) through the normal send path, or, when no passage
// ranks above the threshold, hands the conversation to a person: the agent switch off, the conversation
// assigned, a note and a conversation.handoff event (valid against docs/webhooks, in the event feed).
// Another workspace's documents are never retrieved; with service_enabled off no run is made.
import { describe, expect, it } from 'vitest';
import { openAgentWorld } from '../support/agent.js';
import { envelopeProblems } from '../support/webhooks.js';

const { prisma, gql, conversation, settledRuns, outbound, world, harness } = await openAgentWorld();

const OPENING_HOURS = `# Opening hours

We are open Monday to Friday from 9:00 to 18:00, and on Saturday from 10:00 to 14:00.

## Holidays

The shop is closed on public holidays.
`;

const RETURNS = `# Returns policy

You can return any item within 30 days of delivery for a full refund. Bring the receipt.

## Shipping costs

Return shipping is free for orders above 50 euros.
`;

async function addDocument(apiKey: string, title: string, content: string) {
  await gql(apiKey, 'mutation($title: String!, $content: String!) { knowledgeDocumentCreate(title: $title, content: $content) { id } }', {
    title,
    content,
  });
}

describe('the knowledge agent', () => {
  it('answers from the best passage of the Markdown documents, greeting once, through the normal send path', async () => {
    const chat = await conversation({ greeting: 'Hello from Acme!' });
    await addDocument(chat.ws.apiKey, 'Opening hours', OPENING_HOURS);
    await addDocument(chat.ws.apiKey, 'Returns', RETURNS);

    await chat.say('What are your opening hours on Saturday?');
    await chat.say('Can I return an item I bought?');
    const runs = await settledRuns(chat.conversationId, 2);
    expect(runs.map((run) => run.status)).toEqual(['replied', 'replied']);
    const replies = await outbound(chat.conversationId);
    expect(replies.map((message) => message.body)).toEqual([
      'Hello from Acme!\n\nWe are open Monday to Friday from 9:00 to 18:00, and on Saturday from 10:00 to 14:00.',
      'You can return any item within 30 days of delivery for a full refund. Bring the receipt.',
    ]);
    expect(runs.map((run) => run.reply_message_id)).toEqual(replies.map((message) => message.id));
    expect(replies.map((message) => [message.sender_type, message.sender_id])).toEqual(runs.map((run) => ['agent', run.id]));
    expect(runs[0]!.passages).toEqual([
      expect.objectContaining({ title: 'Opening hours', rank: 1, text: expect.stringContaining('Saturday from 10:00') }),
      ...(runs[0]!.passages as unknown[]).slice(1),
    ]);
    // The normal send path: the sandbox moves the replies on to read, each with its message.status events.
    await expect.poll(async () => (await outbound(chat.conversationId)).map((message) => message.status)).toEqual(['read', 'read']);
    expect(await prisma.event.count({ where: { company_id: chat.ws.workspaceId, type: 'message.status' } })).toBe(6);
  });

  it('hands off when no passage clears the threshold, and never reads another workspace documents', async () => {
    const other = await conversation();
    await addDocument(other.ws.apiKey, 'Bicycles', 'We sell bicycles and bicycle repairs.');
    const chat = await conversation();
    await addDocument(chat.ws.apiKey, 'Opening hours', OPENING_HOURS);

    await chat.say('Do you sell bicycles?');
    const [run] = await settledRuns(chat.conversationId, 1);
    expect(run).toMatchObject({ status: 'handed_off', handoff_reason: 'no_confident_answer', passages: [], reply: null });
    expect(await outbound(chat.conversationId)).toEqual([]);

    const owner = await prisma.user.findFirstOrThrow({ where: { company_id: chat.ws.workspaceId } });
    const handedOff = await prisma.conversation.findUniqueOrThrow({ where: { id: chat.conversationId } });
    expect(handedOff).toMatchObject({ service_enabled: false, assigned_user_id: owner.id });
    const [note] = await prisma.note.findMany({ where: { conversation_id: chat.conversationId } });
    expect(note!.body).toContain('no_confident_answer');
    const [event] = await prisma.event.findMany({ where: { company_id: chat.ws.workspaceId, type: 'conversation.handoff' } });
    expect(envelopeProblems(JSON.parse(event!.body))).toEqual([]);
    // The event feed carries it too.
    const feed = await harness.fetch('/api/v1/events?type=conversation.handoff', { key: chat.ws.apiKey });
    expect(((await feed.json()) as { data: { id: string }[] }).data.map((item) => item.id)).toEqual([JSON.parse(event!.body).id]);
    expect(JSON.parse(event!.body)).toMatchObject({
      type: 'conversation.handoff',
      data: { conversation_id: chat.conversationId, run_id: run!.id, reason: 'no_confident_answer', assigned_user_id: owner.id },
    });

    // A question the documents answer only in part (one word in three) is not confident either.
    const partial = await conversation({ knowledge_threshold: 0.5 });
    await addDocument(partial.ws.apiKey, 'Opening hours', OPENING_HOURS);
    await partial.say('Do you repair bicycles on Saturday?');
    const [partialRun] = await settledRuns(partial.conversationId, 1);
    expect(partialRun).toMatchObject({ status: 'handed_off', handoff_reason: 'no_confident_answer' });
    expect((partialRun!.passages as { rank: number }[])[0]!.rank).toBeCloseTo(1 / 3);
  });

  it('makes no run while service_enabled is off: after a hand-off the contact is answered by people only', async () => {
    const chat = await conversation();
    await chat.say('Anything about bicycles?');
    await settledRuns(chat.conversationId, 1);
    // The hand-off switched the agent off: the next message is stored, and no run exists for it.
    await chat.say('Hello? Opening hours?');
    expect(await prisma.message.count({ where: { conversation_id: chat.conversationId, direction: 'inbound' } })).toBe(3);
    expect(await prisma.agentRun.count({ where: { conversation_id: chat.conversationId } })).toBe(1);
    expect(world.provider).toBe('sandbox');
  });
});
