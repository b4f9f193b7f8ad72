// An out-of-hours reply: a rule on message.received with the condition business_hours is outside and
// once_per_conversation_hours 12 replies once per conversation per 12 hours on the rules' clock (later matches
// record their actions as skipped), and does not reply within business hours.
import { describe, expect, it } from 'vitest';
import { openAutomationWorld } from '../support/automations.js';
import { sendJson } from '../support/restFixtures.js';

const { world, prisma, startWorker, rule, contact, say, runs, conversationOf, harness } = await openAutomationWorld();
let now = Date.now();
startWorker({ clock: () => new Date(now) });

describe('an out-of-hours reply', () => {
  it('replies once per conversation per 12 h outside business hours, and not within them', async () => {
    const ws = await world.workspace();
    expect((await sendJson(harness, 'PATCH', '/api/v1/business-hours', ws.apiKey, { hours: [] })).status).toBe(200);
    const away = await rule(ws, {
      name: 'We are closed',
      trigger: { event: 'message.received' },
      conditions: { all: [{ field: 'business_hours', operator: 'is', value: 'outside' }] },
      actions: [{ type: 'reply', text: 'We are closed; we answer in the morning.' }],
      once_per_conversation_hours: 12,
    });
    const from = contact();
    const replies = async () =>
      prisma.message.count({ where: { conversation_id: (await conversationOf(ws, from)).id, direction: 'outbound' } });
    await say(ws, from, 'Hello?');
    await expect.poll(replies, { timeout: 10_000 }).toBe(1);
    await say(ws, from, 'Anyone there?');
    await expect.poll(async () => (await runs(away.id)).length, { timeout: 10_000 }).toBe(2);
    expect((await runs(away.id))[1]).toMatchObject({ matched: true, actions: [{ type: 'reply', status: 'skipped' }] });
    expect(await replies()).toBe(1);

    now += 12 * 60 * 60_000 + 60_000;
    await say(ws, from, 'Good morning?');
    await expect.poll(replies, { timeout: 10_000 }).toBe(2);

    const open = await sendJson(harness, 'PATCH', '/api/v1/business-hours', ws.apiKey, {
      hours: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((weekday) => ({
        weekday,
        start: '00:00',
        end: '24:00',
      })),
    });
    expect(open.status).toBe(200);
    now += 13 * 60 * 60_000;
    await say(ws, from, 'Within hours now');
    await expect.poll(async () => (await runs(away.id)).length, { timeout: 10_000 }).toBe(4);
    expect((await runs(away.id))[3]).toMatchObject({ matched: false, actions: [] });
    expect(await replies()).toBe(2);
  });

  it('refuses a business_hours condition that is not "is within/outside"', async () => {
    const ws = await world.workspace();
    const refused = await sendJson(harness, 'POST', '/api/v1/automations', ws.apiKey, {
      name: 'Bad',
      trigger: { event: 'message.received' },
      conditions: { all: [{ field: 'business_hours', operator: 'equals', value: 'closed' }] },
      actions: [{ type: 'note', body: 'x' }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual({
      'conditions.all.0.value': 'business_hours takes operator is with value within or outside',
    });
  });
});
