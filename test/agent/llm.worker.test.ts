// The `llm` agent against a local fake OpenAI-compatible server (test/support/fakeModel.ts) that scripts answers
// and tool calls: a question answered from a knowledge document the model cites as [n] (sent with its source), a
// reply citing no passage not sent (the polite line instead, and the run says why); a booking made through the free-slot and
// booking tools (GraphQL operations under the agent's actor); hand-offs by keyword, by the daily budget and by
// model failure after retries; two quick inbound messages answered in order, one at a time.
import { describe, expect, it } from 'vitest';
import { openAgentWorld } from '../support/agent.js';
import type { ChatRequestBody } from '../support/fakeModel.js';

const { prisma, gql, conversation, settledRuns, outbound, llm, model } = await openAgentWorld();

const systemOf = (request: ChatRequestBody) => request.messages.find((message) => message.role === 'system')?.content ?? '';
const toolResults = (request: ChatRequestBody) =>
  request.messages.filter((message) => message.role === 'tool').map((message) => JSON.parse(message.content ?? 'null'));

describe('the llm agent', () => {
  it('answers a question from a knowledge document passed to the model, with the contact, and records the run', async () => {
    const chat = await conversation(llm('kb-answer', { system_prompt: 'You are Acme support.', temperature: 0.2, max_tokens: 300 }));
    await gql(
      chat.ws.apiKey,
      'mutation { knowledgeDocumentCreate(title: "Delivery", content: "Parcels arrive within 3 working days.") { id } }',
    );
    model.script('kb-answer', [
      (request) => ({
        content: systemOf(request).includes('[1] Delivery: Parcels arrive within 3 working days.')
          ? 'Within 3 working days [1].'
          : 'I do not know.',
      }),
    ]);

    await chat.say('How long does delivery of parcels take?');
    const [run] = await settledRuns(chat.conversationId, 1);
    expect(run).toMatchObject({
      status: 'replied',
      kind: 'llm',
      reply: 'Within 3 working days.\n\nSource: Delivery',
      answer_source: { kind: 'model', cited: [{ document_id: expect.any(String), title: 'Delivery' }] },
      explanation: 'the model answered citing "Delivery"',
      model_calls: 1,
      prompt_tokens: 100,
      completion_tokens: 20,
    });
    expect((await outbound(chat.conversationId)).map((message) => message.body)).toEqual(['Within 3 working days.\n\nSource: Delivery']);

    const [request] = model.requests('kb-answer');
    expect(request).toMatchObject({ model: 'kb-answer', temperature: 0.2, max_tokens: 300 });
    expect(systemOf(request!)).toContain('You are Acme support.');
    expect(systemOf(request!)).toContain('Ana Silva');
    expect(systemOf(request!)).toContain('Cite the passage your answer comes from as [n]');
    expect(systemOf(request!)).toContain('Reply in English');
    expect(request!.tools!.map((tool) => tool.function.name)).toEqual([
      'free_slots',
      'book_appointment',
      'update_contact',
      'tag_contact',
      'hand_off',
    ]);
    expect(request!.messages.slice(1)).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'user', content: 'How long does delivery of parcels take?' },
    ]);
  });

  it('does not send a reply that cites no passage: it says it has no answer, and the run says why', async () => {
    const chat = await conversation(llm('uncited'));
    await gql(
      chat.ws.apiKey,
      'mutation { knowledgeDocumentCreate(title: "Delivery", content: "Parcels arrive within 3 working days.") { id } }',
    );
    model.script('uncited', [{ content: 'Parcels usually arrive tomorrow.' }]);
    await chat.say('When do parcels arrive?');
    const [run] = await settledRuns(chat.conversationId, 1);
    expect(run).toMatchObject({ status: 'replied', answer_source: { kind: 'no_answer' } });
    expect(run!.explanation).toBe(
      'the model\'s reply cites no passage, so it was not sent ("Parcels usually arrive tomorrow."): said so and offered a person (a second miss hands off)',
    );
    expect((await outbound(chat.conversationId)).map((message) => message.body)).toEqual([
      "Sorry, I couldn't find the answer to that in our help pages. Could you put it another way, or shall I get a person from our team?",
    ]);
  });

  it('books an appointment through the free-slot and booking tools, and tags the contact', async () => {
    const chat = await conversation(llm('booking'));
    const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
    const { appointmentTypeCreate: type } = await gql<{ appointmentTypeCreate: { id: string } }>(
      chat.ws.apiKey,
      'mutation($availability: [AvailabilityWindowInput!]!) { appointmentTypeCreate(name: "Haircut", duration_minutes: 30, availability: $availability) { id } }',
      { availability: weekdays.map((weekday) => ({ weekday, start: '09:00', end: '17:00' })) },
    );
    let bookedStart = '';
    model.script('booking', [
      { toolCalls: [{ name: 'free_slots', arguments: {} }] },
      (request) => {
        const [types] = toolResults(request);
        return { toolCalls: [{ name: 'free_slots', arguments: { appointment_type_id: types.appointment_types[0].id, days: 3 } }] };
      },
      (request) => {
        const slots = toolResults(request)[1];
        bookedStart = slots.slots[0].start_at;
        return {
          toolCalls: [
            { name: 'book_appointment', arguments: { appointment_type_id: slots.appointment_type_id, start_at: bookedStart } },
            { name: 'tag_contact', arguments: { tag: 'booked' } },
          ],
        };
      },
      (request) => ({ content: toolResults(request)[2].status === 'scheduled' ? `Booked for ${bookedStart}.` : 'Booking failed.' }),
    ]);

    await chat.say('Can I book a haircut?');
    const [run] = await settledRuns(chat.conversationId, 1);
    expect(run).toMatchObject({ status: 'replied', reply: `Booked for ${bookedStart}.`, model_calls: 4 });
    expect((run!.tool_calls as { name: string }[]).map((call) => call.name)).toEqual([
      'free_slots',
      'free_slots',
      'book_appointment',
      'tag_contact',
    ]);
    const contact = await prisma.customer.findFirstOrThrow({
      where: { company_id: chat.ws.workspaceId, wa_id: chat.from },
      include: { appointments: true, tags: { include: { tag: true } } },
    });
    expect(contact.appointments).toEqual([
      expect.objectContaining({ appointment_type_id: type.id, start_at: new Date(bookedStart), status: 'scheduled' }),
    ]);
    expect(contact.tags.map((link) => link.tag.name)).toEqual(['booked']);
  });

  it('runs tools only within the scopes the workspace chose', async () => {
    const chat = await conversation(llm('no-scopes', { tool_scopes: [] }));
    model.script('no-scopes', [{ toolCalls: [{ name: 'tag_contact', arguments: { tag: 'vip' } }] }, { content: 'Done.' }]);
    await chat.say('Tag me');
    const [run] = await settledRuns(chat.conversationId, 1);
    expect((run!.tool_calls as { result: unknown }[])[0]!.result).toMatchObject({ error: { code: 'INSUFFICIENT_SCOPE' } });
    expect(await prisma.customerTag.count({ where: { customer: { company_id: chat.ws.workspaceId } } })).toBe(0);
  });

  it('hands off by keyword without asking the model, and by the model own hand_off call', async () => {
    const chat = await conversation(llm('keyword'));
    await chat.say('I want to talk to a HUMAN please');
    const [run] = await settledRuns(chat.conversationId, 1);
    expect(run).toMatchObject({ status: 'handed_off', handoff_reason: 'keyword', model_calls: 0 });
    expect(model.requests('keyword')).toEqual([]);
    expect(await prisma.conversation.findUniqueOrThrow({ where: { id: chat.conversationId } })).toMatchObject({ service_enabled: false });

    const asked = await conversation(llm('asks-for-person'));
    model.script('asks-for-person', [{ toolCalls: [{ name: 'hand_off', arguments: { reason: 'refund over the limit' } }] }]);
    await asked.say('I need a refund of 5000 euros');
    const [handed] = await settledRuns(asked.conversationId, 1);
    expect(handed).toMatchObject({ status: 'handed_off', handoff_reason: 'model_request', error: 'refund over the limit' });
    expect(await outbound(asked.conversationId)).toEqual([]);
  });

  it('hands off when the daily model budget is used up', async () => {
    const chat = await conversation(llm('budget', { daily_model_calls: 1, max_consecutive_replies: 10 }));
    await chat.say('first question');
    await settledRuns(chat.conversationId, 1);
    await chat.say('second question');
    const runs = await settledRuns(chat.conversationId, 2);
    expect(runs.map((run) => [run.status, run.handoff_reason])).toEqual([
      ['replied', null],
      ['handed_off', 'budget'],
    ]);
    expect(model.requests('budget')).toHaveLength(1);
  });

  it('hands off when the model keeps failing after retries', async () => {
    const chat = await conversation(llm('failing'));
    model.script('failing', [{ status: 503 }, { status: 500 }, { status: 502 }]);
    await chat.say('Hello?');
    const [run] = await settledRuns(chat.conversationId, 1);
    expect(run).toMatchObject({ status: 'handed_off', handoff_reason: 'model_failure' });
    expect(run!.error).toContain('HTTP 502 (after 3 attempts)');
    expect(model.requests('failing')).toHaveLength(3);
    const [event] = await prisma.event.findMany({ where: { company_id: chat.ws.workspaceId, type: 'conversation.handoff' } });
    expect(JSON.parse(event!.body).data).toMatchObject({ reason: 'model_failure', conversation_id: chat.conversationId });
  });

  it('answers two quick messages in order, one at a time, each seeing the reply before it', async () => {
    const chat = await conversation(llm('echo'));
    await gql(chat.ws.apiKey, 'mutation { knowledgeDocumentCreate(title: "Delivery", content: "Delivery takes 3 working days.") { id } }');
    const echo = (request: ChatRequestBody) => ({ content: `You said: ${request.messages.at(-1)!.content} [1]` });
    model.script('echo', [echo, echo]);
    await chat.say('delivery first');
    await chat.say('delivery second');
    const runs = await settledRuns(chat.conversationId, 2);
    expect(runs.map((run) => run.status)).toEqual(['replied', 'replied']);
    expect((await outbound(chat.conversationId)).map((message) => message.body)).toEqual([
      'You said: delivery first\n\nSource: Delivery',
      'You said: delivery second\n\nSource: Delivery',
    ]);
    const [, second] = model.requests('echo');
    expect(second!.messages.slice(-3)).toEqual([
      { role: 'user', content: 'delivery first' },
      { role: 'assistant', content: 'You said: delivery first\n\nSource: Delivery' },
      { role: 'user', content: 'delivery second' },
    ]);
  });
});
