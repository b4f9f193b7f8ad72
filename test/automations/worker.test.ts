// Automations run from the outbox after commit, once per rule and event. A refund keyword rule tags the contact
// and assigns the conversation within 2 s of the inbound webhook, once, also when the webhook is delivered twice
// and when the worker that took the event died before its runs committed (another worker takes the event over
// when the lease ends; a run that had committed is not done again). A rule that replies on message.received
// answers each inbound message once and never its own reply; a rule whose action changes the conversation does not
// run again on the conversation.updated it caused; a failing action is recorded with its error while the others
// commit; a reply is refused as any send is (a closed conversation, a closed window: sendable.ts). A rule as listed
// counts its runs and matches and shows its newest run. The dry run reports what would happen and changes nothing.
import { describe, expect, it } from 'vitest';
import { openAutomationWorld } from '../support/automations.js';
import { getJson, postJson, sendJson } from '../support/restFixtures.js';

const { world, prisma, startWorker, rule, contact, say, runs, conversationOf, harness } = await openAutomationWorld();
startWorker();

const refundRule = (userId: string) => ({
  name: 'Refunds to billing',
  trigger: { event: 'message.received' },
  conditions: { all: [{ field: 'message.text', operator: 'contains', value: 'refund' }] },
  actions: [
    { type: 'add_tag', tag: 'refund' },
    { type: 'assign', user_id: userId },
  ],
});

describe('running rules from the outbox', () => {
  it('tags and assigns a refund request within 2 s, once, also when the webhook is delivered twice', async () => {
    const ws = await world.workspace();
    const refunds = await rule(ws, refundRule(ws.userId));
    const from = contact();
    await say(ws, from, 'I would like a REFUND for my order', { id: 'wamid.refund-twice' });
    const saidAt = Date.now();
    await expect.poll(async () => (await conversationOf(ws, from)).assigned_user_id, { timeout: 2_000, interval: 20 }).toBe(ws.userId);
    expect(Date.now() - saidAt).toBeLessThan(2_000);
    // The provider delivers the same message again: it is stored once, so the rule runs once.
    await say(ws, from, 'I would like a REFUND for my order', { id: 'wamid.refund-twice' });
    const conversation = await conversationOf(ws, from);
    expect(conversation.customer.tags.map((link) => link.tag.name)).toEqual(['refund']);
    await say(ws, from, 'Where is my parcel?');
    await expect.poll(async () => (await runs(refunds.id)).length).toBe(2);
    const [first, second] = await runs(refunds.id);
    expect(first).toMatchObject({
      matched: true,
      actions: [
        { type: 'add_tag', status: 'done' },
        { type: 'assign', status: 'done' },
      ],
    });
    expect(second).toMatchObject({ matched: false, actions: [] });
    // A word, not a part of one: "refunded" does not contain the word "refund".
    await say(ws, from, 'prefunding is not a word');
    await expect.poll(async () => (await runs(refunds.id)).length).toBe(3);
    expect((await runs(refunds.id))[2]!.matched).toBe(false);
    // The rule as listed says how often it ran, how often it matched, and how its newest run went.
    const listed = await getJson(harness, '/api/v1/automations', { key: ws.apiKey });
    expect((listed.body as { data: unknown[] }).data).toEqual([
      expect.objectContaining({
        id: refunds.id,
        run_count: 3,
        matched_count: 1,
        last_run: expect.objectContaining({ id: (await runs(refunds.id))[2]!.id, matched: false, actions: [] }),
      }),
    ]);
  });

  it('runs each rule once when the worker holding the event died before its runs committed', async () => {
    const ws = await world.workspace();
    const refunds = await rule(ws, { ...refundRule(ws.userId), enabled: false });
    const noted = await rule(ws, {
      name: 'Note it',
      enabled: false,
      trigger: { event: 'message.received' },
      actions: [{ type: 'note', body: 'Seen by a rule' }],
    });
    const from = contact();
    await say(ws, from, 'refund please');
    // A worker that died: it took the event (its lease now runs) and committed the note rule's run, not the other.
    const event = await prisma.event.findFirstOrThrow({ where: { company_id: ws.workspaceId, type: 'message.received' } });
    await prisma.automationRule.updateMany({ where: { id: { in: [refunds.id, noted.id] } }, data: { enabled: true } });
    await prisma.automationRun.create({
      data: {
        company_id: ws.workspaceId,
        rule_id: noted.id,
        event_id: `evt_${event.id}`,
        matched: true,
        actions: [{ type: 'note', status: 'done' }],
        started_at: new Date(),
        duration_ms: 1,
      },
    });
    await prisma.event.update({
      where: { id: event.id },
      data: { automations_done_at: null, automations_lease_until: new Date(Date.now() + 1_000) },
    });
    await expect.poll(async () => (await runs(refunds.id)).length, { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await prisma.event.findUniqueOrThrow({ where: { id: event.id } })).automations_done_at).not.toBeNull();
    expect(await runs(noted.id)).toHaveLength(1);
    expect(await prisma.note.count({ where: { company_id: ws.workspaceId } })).toBe(0);
    expect((await conversationOf(ws, from)).assigned_user_id).toBe(ws.userId);
  });

  it('answers each inbound message once and never its own reply, and stops a rule re-running on its own changes', async () => {
    const ws = await world.workspace();
    const replies = await rule(ws, {
      name: 'Thanks',
      trigger: { event: 'message.received' },
      actions: [{ type: 'reply', text: 'Thanks {{contact.name}}, we got it.' }],
    });
    const pending = await rule(ws, {
      name: 'Every change back to pending',
      trigger: { event: 'conversation.updated' },
      actions: [
        { type: 'set_status', status: 'pending' },
        { type: 'note', body: 'changed' },
      ],
    });
    const from = contact();
    await say(ws, from, 'Hello there');
    const conversation = await conversationOf(ws, from);
    await expect.poll(() => prisma.message.count({ where: { conversation_id: conversation.id, direction: 'outbound' } })).toBe(1);
    const reply = await prisma.message.findFirstOrThrow({ where: { conversation_id: conversation.id, direction: 'outbound' } });
    expect(reply).toMatchObject({ body: 'Thanks Ana Silva, we got it.', sender_type: 'automation', sender_id: replies.id });
    await say(ws, from, 'And another thing');
    await expect.poll(() => prisma.message.count({ where: { conversation_id: conversation.id, direction: 'outbound' } })).toBe(2);

    const closed = await postJson(harness, `/api/v1/conversations/${conversation.id}/close`, ws.apiKey, {});
    expect(closed.status).toBe(200);
    await expect.poll(async () => (await prisma.conversation.findUniqueOrThrow({ where: { id: conversation.id } })).status).toBe('pending');
    // Give the worker time to (wrongly) run on the change its own rule caused.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await runs(pending.id)).toHaveLength(1);
    expect(await prisma.note.count({ where: { conversation_id: conversation.id } })).toBe(1);
    const caused = await prisma.event.findMany({
      where: { company_id: ws.workspaceId, type: 'conversation.updated' },
      orderBy: { id: 'asc' },
    });
    expect(caused.map((event) => event.automation_chain)).toEqual([null, pending.id]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await prisma.message.count({ where: { conversation_id: conversation.id, direction: 'outbound' } })).toBe(2);
  });

  it('records a failing action with its error and keeps the others', async () => {
    const ws = await world.workspace();
    const mixed = await rule(ws, {
      trigger: { event: 'conversation.created' },
      actions: [
        { type: 'assign', user_id: '0190aaaa-0000-7000-8000-000000000000' },
        { type: 'add_tag', tag: 'new' },
      ],
    });
    const from = contact();
    await say(ws, from, 'First');
    await say(ws, from, 'Second');
    await expect.poll(async () => (await runs(mixed.id)).length).toBe(1);
    expect((await runs(mixed.id))[0]).toMatchObject({
      matched: true,
      actions: [
        { type: 'assign', status: 'failed', error: 'The user to assign is not a person of this workspace' },
        { type: 'add_tag', status: 'done' },
      ],
    });
    expect((await conversationOf(ws, from)).customer.tags.map((link) => link.tag.name)).toEqual(['new']);
  });

  it("refuses a rule's reply as any send is refused: on a closed conversation, and outside the 24-hour window", async () => {
    const ws = await world.workspace();
    const replies = await rule(ws, {
      trigger: { event: 'conversation.updated' },
      actions: [{ type: 'reply', text: 'We saw the change' }],
    });
    const from = contact();
    await say(ws, from, 'Hello');
    const conversation = await conversationOf(ws, from);
    await prisma.conversation.update({ where: { id: conversation.id }, data: { last_message_at: new Date(Date.now() - 25 * 3600_000) } });
    const assigned = await sendJson(harness, 'PATCH', `/api/v1/conversations/${conversation.id}`, ws.apiKey, {
      assigned_user_id: ws.userId,
    });
    expect(assigned.status).toBe(200);
    await expect.poll(async () => (await runs(replies.id)).length).toBe(1);
    const closed = await postJson(harness, `/api/v1/conversations/${conversation.id}/close`, ws.apiKey, {});
    expect(closed.status).toBe(200);
    await expect.poll(async () => (await runs(replies.id)).length).toBe(2);
    expect((await runs(replies.id)).map((run) => run.actions)).toEqual([
      [{ type: 'reply', status: 'failed', error: expect.stringMatching(/^Free-form messages can only be sent within 24 hours/) }],
      [{ type: 'reply', status: 'failed', error: 'The conversation is closed; messages cannot be sent on it' }],
    ]);
    expect(await prisma.message.count({ where: { conversation_id: conversation.id, direction: 'outbound' } })).toBe(0);
  });

  it('dry-runs a rule over the last events, reporting what it would do and changing nothing', async () => {
    const ws = await world.workspace();
    const from = contact();
    await say(ws, from, 'I need a refund');
    await say(ws, from, 'Just saying hi');
    const draft = await rule(ws, { ...refundRule(ws.userId), enabled: false });
    const before = {
      runs: await prisma.automationRun.count({ where: { company_id: ws.workspaceId } }),
      tags: await prisma.customerTag.count({ where: { customer: { company_id: ws.workspaceId } } }),
      conversation: await conversationOf(ws, from),
      messages: await prisma.message.count({ where: { company_id: ws.workspaceId } }),
    };
    const tested = await postJson(harness, `/api/v1/automations/${draft.id}/test`, ws.apiKey, {});
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({
      evaluated: 2,
      matched: 1,
      results: [
        { event_type: 'message.received', matched: false, actions: [] },
        { event_type: 'message.received', matched: true, actions: refundRule(ws.userId).actions },
      ],
    });
    const one = (tested.body as { results: { event_id: string }[] }).results[1]!.event_id;
    expect((await postJson(harness, `/api/v1/automations/${draft.id}/test`, ws.apiKey, { event_id: one })).body).toMatchObject({
      evaluated: 1,
      matched: 1,
    });
    expect(await prisma.automationRun.count({ where: { company_id: ws.workspaceId } })).toBe(before.runs);
    expect(await prisma.customerTag.count({ where: { customer: { company_id: ws.workspaceId } } })).toBe(before.tags);
    expect(await conversationOf(ws, from)).toEqual(before.conversation);
    expect(await prisma.message.count({ where: { company_id: ws.workspaceId } })).toBe(before.messages);
  });
});
