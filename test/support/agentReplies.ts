// A workspace whose knowledge agent has answered: the "Shipping and returns" document and an FAQ on shipping costs,
// and two contacts with the agent on. The first asks the FAQ's question (answered from the FAQ) and about Sunday
// (answered from the opening-hours sentence); the second asks the FAQ's question, then twice what the knowledge
// cannot answer (the polite line, then a hand-off). Five runs: four replied (FAQ, sentence, FAQ, no answer) and one
// handed off, made one after another so their order is known.
import { randomInt } from 'node:crypto';
import { inboundPayload } from './whatsappPayloads.js';
import type { openAgentWorld } from './agent.js';

type AgentWorld = Awaited<ReturnType<typeof openAgentWorld>>;

export const SHIPPING_TITLE = 'Shipping and returns';
export const HOURS = 'Our customer service is open Monday to Saturday from 9:00 to 18:00 and closed on Sundays.';
const SHIPPING =
  'We ship to Spain, Portugal, France and Germany, and delivery takes 2 to 4 working days. ' +
  'Shipping is free for orders over 50 euros; below that it costs 4.90 euros. ' +
  `Returns are accepted within 30 days if the item is unused and still has its labels. ${HOURS}`;
export const FAQ_QUESTION = 'How much does shipping cost?';
export const FAQ_ANSWER = 'Shipping costs 4.90 euros, and nothing from 50 euros up.';

export async function repliedWorkspace(agent: AgentWorld) {
  const first = await agent.conversation();
  const { ws } = first;
  const { knowledgeDocumentCreate: document } = await agent.gql<{ knowledgeDocumentCreate: { id: string } }>(
    ws.apiKey,
    'mutation($title: String!, $content: String!) { knowledgeDocumentCreate(title: $title, content: $content) { id } }',
    { title: SHIPPING_TITLE, content: SHIPPING },
  );
  const { knowledgeFaqCreate: faq } = await agent.gql<{ knowledgeFaqCreate: { id: string } }>(
    ws.apiKey,
    'mutation($q: String!, $a: String!) { knowledgeFaqCreate(question: $q, answer: $a) { id } }',
    { q: FAQ_QUESTION, a: FAQ_ANSWER },
  );

  const secondFrom = `1555${randomInt(1_000_000, 9_999_999)}`;
  await agent.world.webhook(inboundPayload(ws.phoneNumberId, { from: secondFrom, text: 'Hi' }), ws.appSecret);
  const second = await agent.prisma.conversation.findFirstOrThrow({
    where: { company_id: ws.workspaceId, id: { not: first.conversationId } },
    select: { id: true },
  });
  await agent.gql(ws.apiKey, 'mutation($id: ID!) { conversationUpdate(id: $id, service_enabled: true) { id } }', { id: second.id });

  const sayOnSecond = async (text: string) => {
    await agent.world.webhook(inboundPayload(ws.phoneNumberId, { from: secondFrom, text }), ws.appSecret);
  };
  const questions: [conversationId: string, say: (text: string) => Promise<void>, text: string][] = [
    [first.conversationId, first.say, 'How much is the shipping cost to Spain?'],
    [first.conversationId, first.say, 'Are you open on Sunday?'],
    [second.id, sayOnSecond, 'How much is the shipping cost to Spain?'],
    [second.id, sayOnSecond, 'Do you sell bicycles?'],
    [second.id, sayOnSecond, 'Do you sell gift cards?'],
  ];
  const settled = new Map<string, number>();
  for (const [conversationId, say, text] of questions) {
    await say(text);
    settled.set(conversationId, (settled.get(conversationId) ?? 0) + 1);
    await agent.settledRuns(conversationId, settled.get(conversationId)!);
  }
  const runs = await agent.prisma.agentRun.findMany({ where: { company_id: ws.workspaceId }, orderBy: { id: 'asc' } });
  return { ws, document, faq, conversationIds: [first.conversationId, second.id], runs };
}
