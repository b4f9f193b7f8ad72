// The triggers beyond messages and conversation changes, on the rules' settable clock: a contact.created rule runs
// once for a contact created by the API and once for one created by its first message; a tag.added rule runs once
// per tag put on a contact (by a person or by another rule), not for a tag it already had; a 30-minute
// conversation.waiting rule fires once per wait and not for a conversation answered meanwhile; with business_hours
// it counts only business minutes; a schedule fires once per due minute. Rules that read or act on what their
// trigger has not (a reply on a schedule) are refused when saved, naming the field.
import { describe, expect, it } from 'vitest';
import { openAutomationWorld } from '../support/automations.js';
import { expectError, postJson, sendJson } from '../support/restFixtures.js';

const { world, prisma, startWorker, rule, contact, say, runs, conversationOf, harness } = await openAutomationWorld();
let now = Date.now();
startWorker({ clock: () => new Date(now), timeTriggersMs: 50 });

const MINUTE = 60_000;
const ALL_WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

const matchedRuns = async (ruleId: string) => (await runs(ruleId)).filter((run) => run.matched);

describe('contact.created and tag.added', () => {
  it('runs a contact.created rule once per new contact, from the API and from a first message', async () => {
    const ws = await world.workspace();
    const welcome = await rule(ws, { trigger: { event: 'contact.created' }, actions: [{ type: 'add_tag', tag: 'new' }] });
    const created = await postJson(harness, '/api/v1/contacts', ws.apiKey, { name: 'Ada', email: `ada${contact()}@example.com` });
    expect(created.status).toBe(201);
    const from = contact();
    await say(ws, from, 'Hello');
    await say(ws, from, 'Hello again');
    await expect.poll(async () => (await runs(welcome.id)).length, { timeout: 10_000 }).toBe(2);
    const tagged = await prisma.customerTag.findMany({ where: { tag: { company_id: ws.workspaceId, name: 'new' } } });
    expect(tagged.map((link) => link.customer_id).sort()).toEqual(
      [(created.body as { id: string }).id, (await conversationOf(ws, from)).customer_id].sort(),
    );
    expect((await runs(welcome.id)).every((run) => run.conversation_id === null && run.matched)).toBe(true);
  });

  it('runs a tag.added rule once per tag added, by a person or by a rule, with the tag as a condition', async () => {
    const ws = await world.workspace();
    await rule(ws, { trigger: { event: 'contact.created' }, actions: [{ type: 'add_tag', tag: 'vip' }] });
    const noted = await rule(ws, {
      trigger: { event: 'tag.added' },
      conditions: { all: [{ field: 'tag.name', operator: 'equals', value: 'vip' }] },
      actions: [{ type: 'set_contact_field', field: 'notes', value: 'VIP since {{contact.name}} was tagged' }],
    });
    const created = await postJson(harness, '/api/v1/contacts', ws.apiKey, { name: 'Grace' });
    const contactId = (created.body as { id: string }).id;
    await expect.poll(async () => (await runs(noted.id)).length, { timeout: 10_000 }).toBe(1);
    expect((await prisma.customer.findUniqueOrThrow({ where: { id: contactId } })).notes).toBe('VIP since Grace was tagged');

    const tag = await postJson(harness, '/api/v1/tags', ws.apiKey, { name: 'late payer' });
    const vip = await prisma.tag.findFirstOrThrow({ where: { company_id: ws.workspaceId, name: 'vip' } });
    const put = (tagId: string) => sendJson(harness, 'PUT', `/api/v1/contacts/${contactId}/tags/${tagId}`, ws.apiKey);
    expect((await put((tag.body as { id: string }).id)).status).toBe(200);
    expect((await put(vip.id)).status).toBe(200);
    await expect.poll(async () => (await runs(noted.id)).length, { timeout: 10_000 }).toBe(2);
    expect((await runs(noted.id)).map((run) => run.matched)).toEqual([true, false]);
    expect(await prisma.event.count({ where: { company_id: ws.workspaceId, type: 'tag.added' } })).toBe(2);
  });
});

describe('conversation.waiting', () => {
  it('fires once per wait after 30 minutes, and not for a conversation answered meanwhile', async () => {
    const ws = await world.workspace();
    const waiting = await rule(ws, {
      trigger: { event: 'conversation.waiting', minutes: 30 },
      actions: [{ type: 'note', body: 'Waiting for 30 minutes' }],
    });
    const [unanswered, answered] = [contact(), contact()];
    await say(ws, unanswered, 'Is anyone there?');
    await say(ws, answered, 'Hello?');
    await say(ws, unanswered, 'Hello??');
    const answeredConversation = await conversationOf(ws, answered);
    const reply = await sendJson(harness, 'POST', '/api/v1/messages', ws.apiKey, {
      conversation_id: answeredConversation.id,
      body: 'Hi, how can we help?',
    });
    expect(reply.status).toBe(201);

    now += 29 * MINUTE;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await runs(waiting.id)).toEqual([]);
    now += 2 * MINUTE;
    await expect.poll(async () => (await runs(waiting.id)).length, { timeout: 10_000 }).toBe(1);
    const [run] = await runs(waiting.id);
    const waitingConversation = await conversationOf(ws, unanswered);
    const firstMessage = await prisma.message.findFirstOrThrow({
      where: { conversation_id: waitingConversation.id, direction: 'inbound' },
      orderBy: { id: 'asc' },
    });
    expect(run).toMatchObject({ conversation_id: waitingConversation.id, event_id: `waiting:${firstMessage.id}`, matched: true });
    expect(await prisma.note.count({ where: { conversation_id: waitingConversation.id } })).toBe(1);

    // Later rounds, and a later message of the same wait, do not fire again.
    now += 60 * MINUTE;
    await say(ws, unanswered, 'Still here');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await runs(waiting.id)).toHaveLength(1);
    expect(await prisma.note.count({ where: { conversation_id: answeredConversation.id } })).toBe(0);
  });

  it('counts only business minutes with business_hours', async () => {
    const ws = await world.workspace();
    const closed = await sendJson(harness, 'PATCH', '/api/v1/business-hours', ws.apiKey, { hours: [] });
    expect(closed.status).toBe(200);
    const businessWait = await rule(ws, {
      trigger: { event: 'conversation.waiting', minutes: 30, business_hours: true },
      actions: [{ type: 'add_tag', tag: 'waited' }],
    });
    const from = contact();
    await say(ws, from, 'Anyone?');
    now += 45 * MINUTE;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await runs(businessWait.id)).toEqual([]);

    const open = await sendJson(harness, 'PATCH', '/api/v1/business-hours', ws.apiKey, {
      hours: ALL_WEEK.map((weekday) => ({ weekday, start: '00:00', end: '24:00' })),
    });
    expect(open.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The hours are read when the rule looks: open around the clock, the 45 minutes waited count, and it fires.
    await expect.poll(async () => (await matchedRuns(businessWait.id)).length, { timeout: 10_000 }).toBe(1);
  });
});

describe('schedule', () => {
  it('fires once per due minute in the workspace time zone', async () => {
    const ws = await world.workspace();
    await sendJson(harness, 'PATCH', '/api/v1/business-hours', ws.apiKey, { time_zone: 'Asia/Kolkata' });
    // 09:00 in Kolkata is 03:30 UTC: the minute is in the workspace's time zone.
    const daily = await rule(ws, {
      trigger: { event: 'schedule', cron: '0 9 * * *' },
      actions: [{ type: 'webhook', url: 'https://127.0.0.1/hook' }],
    });
    const nextDue = new Date(now + 24 * 60 * MINUTE);
    nextDue.setUTCHours(3, 30, 0, 0);
    now = nextDue.getTime() + 5_000;
    await expect.poll(async () => (await runs(daily.id)).length, { timeout: 10_000 }).toBe(1);
    now += 30_000;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await runs(daily.id)).toHaveLength(1);
    expect((await runs(daily.id))[0]).toMatchObject({ event_id: `schedule:${nextDue.toISOString()}`, conversation_id: null });
    now += 24 * 60 * MINUTE;
    await expect.poll(async () => (await runs(daily.id)).length, { timeout: 10_000 }).toBe(2);
  });

  it('refuses rules whose trigger cannot give what they read or act on, and bad trigger fields', async () => {
    const ws = await world.workspace();
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [
        {
          trigger: { event: 'schedule', cron: '*/5 * * * *' },
          actions: [
            { type: 'webhook', url: 'https://example.com' },
            { type: 'reply', text: 'Hi' },
          ],
        },
        { 'actions.1.type': 'needs a conversation, which trigger schedule has not' },
      ],
      [
        {
          trigger: { event: 'contact.created' },
          conditions: { any: [{ field: 'message.text', operator: 'contains', value: 'x' }] },
          actions: [{ type: 'note', body: 'x' }],
        },
        {
          'conditions.any.0.field': 'reads a message, which trigger contact.created has not',
          'actions.0.type': 'needs a conversation, which trigger contact.created has not',
        },
      ],
      [
        { trigger: { event: 'tag.added' }, actions: [{ type: 'add_tag', tag: 'x' }], once_per_conversation_hours: 12 },
        { once_per_conversation_hours: 'needs a conversation, which trigger tag.added has not' },
      ],
      [
        { trigger: { event: 'schedule', cron: '61 * * * *' }, actions: [{ type: 'webhook', url: 'https://example.com' }] },
        { 'trigger.cron': expect.stringMatching(/^must be a valid cron expression/) },
      ],
      [
        { trigger: { event: 'schedule', cron: '0 * * * * *' }, actions: [{ type: 'webhook', url: 'https://example.com' }] },
        { 'trigger.cron': 'must have five fields: minute hour day-of-month month day-of-week' },
      ],
      [
        { trigger: { event: 'conversation.waiting', minutes: 0 }, actions: [{ type: 'note', body: 'x' }] },
        { 'trigger.minutes': 'must be a whole number of minutes from 1 to 10080' },
      ],
      [
        { trigger: { event: 'conversation.waiting', minutes: 10_081 }, actions: [{ type: 'note', body: 'x' }] },
        { 'trigger.minutes': 'must be a whole number of minutes from 1 to 10080' },
      ],
    ];
    for (const [body, details] of cases) {
      expectError(await postJson(harness, '/api/v1/automations', ws.apiKey, { name: 'Bad', ...body }), 400, {
        code: 'VALIDATION_ERROR',
        details,
      });
    }
    // An update is checked as it will be stored: a schedule given to a rule that replies is refused.
    const replying = await rule(ws, { trigger: { event: 'message.received' }, actions: [{ type: 'reply', text: 'Hi' }] });
    expectError(
      await sendJson(harness, 'PATCH', `/api/v1/automations/${replying.id}`, ws.apiKey, {
        trigger: { event: 'schedule', cron: '0 9 * * 1' },
      }),
      400,
      { code: 'VALIDATION_ERROR', details: { 'actions.0.type': 'needs a conversation, which trigger schedule has not' } },
    );
  });
});

describe('dry runs of time triggers', () => {
  it('try a waiting rule on the conversations waiting now, and a schedule on its next due minutes, doing nothing', async () => {
    const ws = await world.workspace();
    const [waited, fresh, answered] = [contact(), contact(), contact()];
    const longAgo = new Date(Math.floor((Date.now() - 45 * MINUTE) / 1000) * 1000);
    await say(ws, waited, 'Anyone there?', { at: longAgo });
    await say(ws, fresh, 'Hello');
    await say(ws, answered, 'Hi', { at: longAgo });
    const reply = await sendJson(harness, 'POST', '/api/v1/messages', ws.apiKey, {
      conversation_id: (await conversationOf(ws, answered)).id,
      body: 'Hello, how can we help?',
    });
    expect(reply.status).toBe(201);
    // Disabled, so that the worker (on its own clock) leaves them alone: the dry run works on disabled rules.
    const waiting = await rule(ws, {
      enabled: false,
      trigger: { event: 'conversation.waiting', minutes: 30 },
      actions: [{ type: 'note', body: 'Waiting' }],
    });
    const waitedConversation = await conversationOf(ws, waited);
    const waitedMessage = await prisma.message.findFirstOrThrow({ where: { conversation_id: waitedConversation.id } });

    const tried = await postJson(harness, `/api/v1/automations/${waiting.id}/test`, ws.apiKey, {});
    expect(tried.status).toBe(200);
    expect(tried.body).toEqual({
      evaluated: 1,
      matched: 1,
      results: [
        {
          event_id: `waiting:${waitedMessage.id}`,
          event_type: 'conversation.waiting',
          created_at: longAgo.toISOString(),
          matched: true,
          actions: [{ type: 'note', body: 'Waiting' }],
        },
      ],
    });
    expect(await prisma.note.count({ where: { conversation_id: waitedConversation.id } })).toBe(0);
    expect(await runs(waiting.id)).toEqual([]);
    expectError(
      await postJson(harness, `/api/v1/automations/${waiting.id}/test`, ws.apiKey, { event_id: `evt_${waitedMessage.id}` }),
      400,
      {
        code: 'VALIDATION_ERROR',
        details: { event_id: 'a conversation.waiting rule starts on time, not on an event: leave event_id out' },
      },
    );

    // Weekdays 08:00–18:00 in Kolkata; the schedule fires daily at 09:00 there, so its weekday minutes are within hours.
    const hours = await sendJson(harness, 'PATCH', '/api/v1/business-hours', ws.apiKey, {
      time_zone: 'Asia/Kolkata',
      hours: ALL_WEEK.slice(0, 5).map((weekday) => ({ weekday, start: '08:00', end: '18:00' })),
    });
    expect(hours.status).toBe(200);
    const daily = await rule(ws, {
      enabled: false,
      trigger: { event: 'schedule', cron: '0 9 * * *' },
      conditions: { all: [{ field: 'business_hours', operator: 'is', value: 'within' }] },
      actions: [{ type: 'webhook', url: 'https://example.com/daily' }],
    });
    const scheduled = await postJson(harness, `/api/v1/automations/${daily.id}/test`, ws.apiKey, {});
    expect(scheduled.status).toBe(200);
    const results = (scheduled.body as { results: { event_id: string; created_at: string; matched: boolean }[] }).results;
    expect(results).toHaveLength(10);
    for (const [index, result] of results.entries()) {
      const minute = new Date(result.created_at);
      expect(result.event_id).toBe(`schedule:${result.created_at}`);
      expect([minute.getUTCHours(), minute.getUTCMinutes()]).toEqual([3, 30]);
      if (index > 0) expect(minute.getTime() - new Date(results[index - 1]!.created_at).getTime()).toBe(24 * 60 * MINUTE);
      // 03:30 UTC is 09:00 the same day in Kolkata: Saturday and Sunday are outside the hours.
      expect(result.matched).toBe(![0, 6].includes(minute.getUTCDay()));
    }
    expect(await runs(daily.id)).toEqual([]);
  });
});
