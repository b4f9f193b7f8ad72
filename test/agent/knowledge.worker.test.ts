// The `knowledge` agent, the default, end to end: an inbound WhatsApp message on a conversation with
// service_enabled on becomes an agent run in the same transaction, and a worker answers it through the normal send
// path with the one to three sentences of the workspace's documents that answer the question (never the whole
// document), the document's title as the source, greeting once; a follow-up ("and to France?") is read with the
// previous question; a Portuguese question finds a Portuguese document whatever its accents and plurals; an FAQ wins
// over a document. A question without an answer gets the polite line once (the agent stays on), and the second
// miss in a row, or a customer asking for a person, hands the conversation over: the agent switch off, the
// conversation assigned, a note and a conversation.handoff event (valid against docs/webhooks, in the event feed).
// Each run records what it answered from and why. Another workspace's documents are never read.
import { describe, expect, it } from 'vitest';
import { openAgentWorld } from '../support/agent.js';
import { envelopeProblems } from '../support/webhooks.js';

const { prisma, gql, conversation, settledRuns, outbound, harness } = await openAgentWorld();

const SHIPPING =
  'We ship to Spain, Portugal, France and Germany, and delivery takes 2 to 4 working days. ' +
  'Shipping is free for orders over 50 euros; below that it costs 4.90 euros. ' +
  'Returns are accepted within 30 days if the item is unused and still has its labels. ' +
  'Refunds are paid to the original payment method within 5 working days of receiving the return. ' +
  'Our customer service is open Monday to Saturday from 9:00 to 18:00 and closed on Sundays.';

const [COUNTRIES, PRICE, RETURNS, , HOURS] = SHIPPING.split(/(?<=\.) /);

async function addDocument(apiKey: string, title: string, content: string) {
  const data = await gql<{ knowledgeDocumentCreate: { id: string; language: string } }>(
    apiKey,
    'mutation($title: String!, $content: String!) { knowledgeDocumentCreate(title: $title, content: $content) { id language } }',
    { title, content },
  );
  return data.knowledgeDocumentCreate;
}

/** Says each message once the run of the one before has finished, and returns every run, oldest first. */
async function ask(chat: Awaited<ReturnType<typeof conversation>>, ...questions: string[]) {
  const before = await prisma.agentRun.count({ where: { conversation_id: chat.conversationId } });
  for (const [index, question] of questions.entries()) {
    await chat.say(question);
    await settledRuns(chat.conversationId, before + index + 1);
  }
  return prisma.agentRun.findMany({ where: { conversation_id: chat.conversationId }, orderBy: { id: 'asc' } });
}

describe('the knowledge agent', () => {
  it('answers each question of the five-sentence document with its own sentence and the title as source', async () => {
    const chat = await conversation({ greeting: 'Hello from Acme!' });
    const document = await addDocument(chat.ws.apiKey, 'Shipping and returns', SHIPPING);
    expect(document.language).toBe('en');

    const runs = await ask(
      chat,
      'How much is shipping to Spain for a 30 euro order?',
      'and to France?',
      'Can I return a shirt I already wore?',
      'Are you open on Sunday?',
    );
    expect(runs.map((run) => run.status)).toEqual(['replied', 'replied', 'replied', 'replied']);
    const replies = (await outbound(chat.conversationId)).map((message) => message.body);
    expect(replies).toEqual([
      `Hello from Acme!\n\n${PRICE}\n\nSource: Shipping and returns`,
      `${COUNTRIES}\n\nSource: Shipping and returns`,
      `${RETURNS}\n\nSource: Shipping and returns`,
      `${HOURS}\n\nSource: Shipping and returns`,
    ]);
    for (const reply of replies) expect(reply.length).toBeLessThan(SHIPPING.length);
    const [first] = runs;
    expect(first!.answer_source).toMatchObject({ kind: 'sentence', document_id: document.id, title: 'Shipping and returns', text: PRICE });
    expect(first!.explanation).toMatch(/^answered with 1 sentence\(s\) of "Shipping and returns" \(best score 0\.\d+, threshold 0\.57\)/);
    expect(runs[1]!.explanation).toContain("follow-up of the contact's previous question");
    // The normal send path: sent under the agent, which the sandbox moves on to read.
    expect((await outbound(chat.conversationId)).map((message) => message.sender_type)).toEqual(['agent', 'agent', 'agent', 'agent']);
    const listed = await gql<{ agentRuns: { data: { answer_source: unknown; explanation: string }[] } }>(
      chat.ws.apiKey,
      'query($id: ID!) { agentRuns(conversation_id: $id) { data { answer_source explanation } } }',
      { id: chat.conversationId },
    );
    expect(listed.agentRuns.data.at(-1)).toEqual({ answer_source: first!.answer_source, explanation: first!.explanation });
  });

  it('answers a Portuguese question from a Portuguese document, whatever the accents and plural forms', async () => {
    const chat = await conversation();
    const document = await addDocument(
      chat.ws.apiKey,
      'Trocas e devoluções',
      'A devolução é aceita em até 7 dias após o recebimento. O frete é grátis para compras acima de 200 reais. ' +
        'Nossa loja abre de segunda a sábado, das 10h às 22h.',
    );
    await addDocument(chat.ws.apiKey, 'Returns', 'Returns are accepted within 30 days of delivery.');
    expect(document.language).toBe('pt');
    // Plural and without accents against the singular with them; "lojas" against "loja", "sao" a stop word.
    const runs = await ask(chat, 'Vocês aceitam devolucoes?', 'Quais sao as lojas abertas no sábado?');
    expect(runs.map((run) => run.status)).toEqual(['replied', 'replied']);
    expect((await outbound(chat.conversationId)).map((message) => message.body)).toEqual([
      'A devolução é aceita em até 7 dias após o recebimento.\n\nFonte: Trocas e devoluções',
      'Nossa loja abre de segunda a sábado, das 10h às 22h.\n\nFonte: Trocas e devoluções',
    ]);
  });

  it('answers with an FAQ before a document that also answers', async () => {
    const chat = await conversation();
    await addDocument(chat.ws.apiKey, 'Shipping and returns', SHIPPING);
    const faq = await gql<{ knowledgeFaqCreate: { id: string } }>(
      chat.ws.apiKey,
      'mutation($q: String!, $a: String!) { knowledgeFaqCreate(question: $q, answer: $a) { id } }',
      { q: 'How much does shipping cost?', a: 'Shipping costs 4.90 euros, and nothing from 50 euros up.' },
    );
    const [run] = await ask(chat, 'How much is the shipping cost to Spain?');
    expect((await outbound(chat.conversationId)).map((message) => message.body)).toEqual([
      'Shipping costs 4.90 euros, and nothing from 50 euros up.',
    ]);
    expect(run!.answer_source).toMatchObject({ kind: 'faq', faq_id: faq.knowledgeFaqCreate.id, question: 'How much does shipping cost?' });
    expect(run!.explanation).toContain('FAQs are matched before documents');
  });

  it('says so once when it has no answer, and hands off on the second miss in a row', async () => {
    const other = await conversation();
    await addDocument(other.ws.apiKey, 'Bicycles', 'We sell bicycles and bicycle repairs.');
    const chat = await conversation();
    await addDocument(chat.ws.apiKey, 'Shipping and returns', SHIPPING);

    const [missed] = await ask(chat, 'Do you sell bicycles?');
    expect(missed).toMatchObject({ status: 'replied', answer_source: { kind: 'no_answer', best_score: null } });
    expect(missed!.explanation).toBe(
      'no knowledge shares a word with the question: said so and offered a person (a second miss hands off)',
    );
    expect((await outbound(chat.conversationId)).map((message) => message.body)).toEqual([
      "Sorry, I couldn't find the answer to that in our help pages. Could you put it another way, or shall I get a person from our team?",
    ]);
    expect(await prisma.conversation.findUniqueOrThrow({ where: { id: chat.conversationId } })).toMatchObject({ service_enabled: true });

    const runs = await ask(chat, 'Are you open on Sunday?', 'Do you sell gift cards?', 'Yes please');
    expect(runs.slice(1).map((run) => [run.status, (run.answer_source as { kind: string } | null)?.kind ?? null])).toEqual([
      ['replied', 'sentence'],
      ['replied', 'no_answer'],
      ['handed_off', null],
    ]);
    const run = runs.at(-1)!;
    expect(run).toMatchObject({ handoff_reason: 'no_confident_answer', reply: null });
    expect(run.explanation).toMatch(/^handed off \(no_confident_answer\): .*the previous question had no answer either/);

    const owner = await prisma.user.findFirstOrThrow({ where: { company_id: chat.ws.workspaceId } });
    const handedOff = await prisma.conversation.findUniqueOrThrow({ where: { id: chat.conversationId } });
    expect(handedOff).toMatchObject({ service_enabled: false, assigned_user_id: owner.id });
    const [note] = await prisma.note.findMany({ where: { conversation_id: chat.conversationId } });
    expect(note!.body).toContain('no_confident_answer');
    const [event] = await prisma.event.findMany({ where: { company_id: chat.ws.workspaceId, type: 'conversation.handoff' } });
    expect(envelopeProblems(JSON.parse(event!.body))).toEqual([]);
    const feed = await harness.fetch('/api/v1/events?type=conversation.handoff', { key: chat.ws.apiKey });
    expect(((await feed.json()) as { data: { id: string }[] }).data.map((item) => item.id)).toEqual([JSON.parse(event!.body).id]);
    expect(JSON.parse(event!.body)).toMatchObject({
      type: 'conversation.handoff',
      data: { conversation_id: chat.conversationId, run_id: run.id, reason: 'no_confident_answer', assigned_user_id: owner.id },
    });
    // Handed off, the agent is off: the next message makes no run.
    await chat.say('Hello?');
    expect(await prisma.agentRun.count({ where: { conversation_id: chat.conversationId } })).toBe(4);
  });

  it('hands off at once when the customer asks for a person, in their language', async () => {
    const chat = await conversation();
    await addDocument(chat.ws.apiKey, 'Shipping and returns', SHIPPING);
    const [run] = await ask(chat, 'Quero falar com um atendente');
    expect(run).toMatchObject({ status: 'handed_off', handoff_reason: 'keyword' });
    expect(run!.explanation).toBe('handed off (keyword): the contact wrote "atendente" (asked for a person)');
  });

  it('says in which languages it can help when the knowledge has none of the customer', async () => {
    const chat = await conversation();
    await addDocument(chat.ws.apiKey, 'Shipping and returns', SHIPPING);
    const [run] = await ask(chat, '¿Cuánto cuesta el envío a Madrid?');
    expect(run).toMatchObject({ status: 'replied', answer_source: { kind: 'language' } });
    expect((await outbound(chat.conversationId)).map((message) => message.body)).toEqual(['Lo siento, solo puedo ayudar en English.']);
  });
});
