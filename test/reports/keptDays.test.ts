// The conversations report read from kept days (resolvers/reports/dailyFigures.ts) says what the same report
// counted straight from the facts says: the counted report is the same query narrowed by the only channel there
// is (a filter never reads kept days). Proven over a day with more first responses than a day keeps as they are
// (its percentiles come from the histogram, within 1%), by day and by week, in a zone whose days start on the half
// hour, and again after each kind of change a kept day must see: a late answer to an old day's message, a reopening,
// a closing, a removed message, new business hours. Each comparison is a GraphQL query, as a dashboard makes it.
import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { openHarness } from '../support/harness.js';
import { graphqlCalls } from '../support/results.js';
import { keepEndedDays } from '../../resolvers/reports/dayKeeper.js';
import { Prisma } from '../../prisma/generated/prisma/client.js';

const harness = await openHarness();
const { data } = graphqlCalls(harness);
const prisma = harness.db.prisma;

const FIGURES = `conversations_opened conversations_closed conversations_reopened messages_in messages_out
  first_response_conversations unanswered_conversations first_response_median_seconds first_response_p90_seconds
  first_response_business_median_seconds first_response_business_p90_seconds
  resolution_conversations resolution_median_seconds resolution_p90_seconds
  resolution_business_median_seconds resolution_business_p90_seconds`;
const REPORT = `query($from: DateTime!, $to: DateTime!, $interval: ReportInterval, $channel: String) {
  reportConversations(from: $from, to: $to, interval: $interval, channel: $channel) {
    totals { ${FIGURES} } previous { ${FIGURES} } series { start figures { ${FIGURES} } } } }`;

type Figures = Record<string, number | null>;
type Report = { totals: Figures; previous: Figures; series: { start: string; figures: Figures }[] };
const PERCENTILES = /_(median|p90)_seconds$/;

/** Equal counts; percentiles equal, or within 1% where a day's histogram was merged. */
function expectSameFigures(kept: Figures, counted: Figures) {
  for (const [name, value] of Object.entries(counted)) {
    if (PERCENTILES.test(name) && value !== null && kept[name] !== value) {
      expect(Math.abs((kept[name] as number) - value) / value, name).toBeLessThanOrEqual(0.01);
    } else expect(kept[name], name).toBe(value);
  }
}

async function workspaceWithHistory(name: string, time_zone: string) {
  const workspace = await harness.workspace(name);
  const company_id = workspace.workspace_id;
  await prisma.workspace.update({ where: { id: company_id }, data: { time_zone } });
  const customers = await prisma.customer.createManyAndReturn({
    data: Array.from({ length: 260 }, (_, index) => ({ company_id, name: `Kept ${index}` })),
  });
  // 250 conversations on 2026-03-02 (a busy day) and 10 on 2026-03-04, opened at 10:00 UTC plus one minute each, the
  // contact writing at once and answered after 1 minute plus 7 seconds per conversation; every third one closed an
  // hour and a quarter later; the last one of the busy day is unanswered.
  const conversations = await prisma.conversation.createManyAndReturn({
    data: customers.map((customer, index) => {
      const day = index < 250 ? '2026-03-02' : '2026-03-04';
      const opened = new Date(new Date(`${day}T10:00:00.000Z`).getTime() + index * 60_000);
      return { company_id, customer_id: customer.id, provider: 'sandbox', created_at: opened };
    }),
  });
  const messages = conversations.flatMap((conversation, index) => {
    const inbound = {
      company_id,
      conversation_id: conversation.id,
      direction: 'inbound',
      status: 'received',
      sender_type: 'contact',
      body: 'Hi',
      created_at: conversation.created_at,
    };
    if (index === 249) return [inbound];
    const answered = new Date(conversation.created_at.getTime() + 60_000 + index * 7_000);
    return [
      inbound,
      {
        company_id,
        conversation_id: conversation.id,
        direction: 'outbound',
        status: 'sent',
        sender_type: 'user',
        body: 'Hello',
        created_at: answered,
      },
    ];
  });
  await prisma.message.createMany({ data: messages });
  for (const [index, conversation] of conversations.entries()) {
    if (index % 3 !== 0) continue;
    await prisma.conversation.update({
      where: { id: conversation.id },
      data: { status: 'closed', closed_at: new Date(conversation.created_at.getTime() + 75 * 60_000 + index * 1000) },
    });
  }
  return { workspace, conversations };
}

function reportOf(key: string, variables: Record<string, unknown>): Promise<Report> {
  return data(key, REPORT, variables).then((result) => result.reportConversations);
}

async function expectKeptAsCounted(key: string, variables: Record<string, unknown>) {
  const kept = await reportOf(key, variables);
  const counted = await reportOf(key, { ...variables, channel: 'sandbox' });
  expectSameFigures(kept.totals, counted.totals);
  expectSameFigures(kept.previous, counted.previous);
  expect(kept.series.map((point) => point.start)).toEqual(counted.series.map((point) => point.start));
  kept.series.forEach((point, index) => expectSameFigures(point.figures, counted.series[index]!.figures));
  return kept;
}

const HOUR = 3_600_000;
const WEEK = { from: '2026-03-02T00:00:00.000Z', to: '2026-03-09T00:00:00.000Z' };

describe('the conversations report read from kept days', () => {
  const history = workspaceWithHistory('Kept days', 'UTC');

  it('gives the figures counted from the facts, by day and by week, and keeps the days it computed', async () => {
    const { workspace } = await history;
    const report = await expectKeptAsCounted(workspace.api_key, { ...WEEK, interval: 'day' });
    expect(report.totals).toMatchObject({ conversations_opened: 260, first_response_conversations: 259, unanswered_conversations: 1 });
    // The busy day's 249 first responses are more than a day keeps as they are: its median comes from the histogram.
    expect(report.series[0]!.figures['first_response_conversations']).toBe(249);
    await expectKeptAsCounted(workspace.api_key, { ...WEEK, interval: 'week' });
    const kept = await prisma.reportDay.findMany({ where: { company_id: workspace.workspace_id }, orderBy: { day: 'asc' } });
    // The week and the week before it (the previous period).
    expect(kept.map((day) => day.day.toISOString().slice(0, 10))).toEqual(
      [...Array(14).keys()].map((offset) => new Date(Date.UTC(2026, 1, 23 + offset)).toISOString().slice(0, 10)),
    );
    expect(await prisma.reportChange.count({ where: { company_id: workspace.workspace_id, hour: { gte: new Date(WEEK.from) } } })).toBe(0);
  });

  it('sees a late answer to an old day, a reopening, a closing and a removed message', async () => {
    const { workspace, conversations } = await history;
    const key = workspace.api_key;
    await expectKeptAsCounted(key, WEEK);
    const untouched = await prisma.reportDay.findUniqueOrThrow({
      where: { company_id_day: { company_id: workspace.workspace_id, day: new Date('2026-03-04') } },
    });
    const unanswered = conversations[249]!;
    await prisma.message.create({
      data: {
        company_id: workspace.workspace_id,
        conversation_id: unanswered.id,
        direction: 'outbound',
        status: 'sent',
        sender_type: 'user',
        body: 'Sorry!',
        created_at: new Date('2026-03-03T09:00:00.000Z'),
      },
    });
    expect((await expectKeptAsCounted(key, WEEK)).totals['unanswered_conversations']).toBe(0);
    await data(key, 'mutation($id: ID!) { conversationReopen(id: $id) { status } }', { id: conversations[0]!.id });
    await data(key, 'mutation($id: ID!) { conversationClose(id: $id) { status } }', { id: conversations[1]!.id });
    // Through the end of today: the reopening is counted on the day it happens.
    const changed = await expectKeptAsCounted(key, { ...WEEK, to: DateTime.utc().startOf('day').plus({ days: 1 }).toISO() });
    expect(changed.totals).toMatchObject({ conversations_reopened: 1 });
    await prisma.message.deleteMany({ where: { conversation_id: conversations[259]!.id } });
    expect((await expectKeptAsCounted(key, WEEK)).totals['messages_in']).toBe(259);
    // The day of the removed message was computed again; a day nothing touched was not.
    const still = await prisma.reportDay.findUniqueOrThrow({
      where: { company_id_day: { company_id: workspace.workspace_id, day: new Date('2026-03-04') } },
    });
    expect(still.computed_at).not.toEqual(untouched.computed_at);
    const quiet = await prisma.reportDay.findUniqueOrThrow({
      where: { company_id_day: { company_id: workspace.workspace_id, day: new Date('2026-03-06') } },
    });
    expect(quiet.computed_at.getTime()).toBeLessThan(still.computed_at.getTime());
  });

  it('counts business hours set after the days were kept', async () => {
    const { workspace } = await history;
    const before = await expectKeptAsCounted(workspace.api_key, WEEK);
    await prisma.workspace.update({
      where: { id: workspace.workspace_id },
      data: { business_hours: { hours: [{ weekday: 'monday', start: '10:30', end: '17:00' }], holidays: [] } },
    });
    const after = await expectKeptAsCounted(workspace.api_key, WEEK);
    expect(after.totals['first_response_business_median_seconds']).not.toBe(before.totals['first_response_business_median_seconds']);
  });

  it('cuts days on the half hour in Asia/Kolkata', async () => {
    const { workspace } = await workspaceWithHistory('Kept days Kolkata', 'Asia/Kolkata');
    const week = { from: '2026-03-01T18:30:00.000Z', to: '2026-03-08T18:30:00.000Z' };
    await expectKeptAsCounted(workspace.api_key, { ...week, interval: 'day' });
    // A message at 18:45 UTC is on the next local day: its hour (18:00–19:00 UTC) touches both.
    const conversation = await prisma.conversation.findFirstOrThrow({ where: { company_id: workspace.workspace_id } });
    await prisma.message.create({
      data: {
        company_id: workspace.workspace_id,
        conversation_id: conversation.id,
        direction: 'inbound',
        status: 'received',
        sender_type: 'contact',
        body: 'Late',
        created_at: new Date('2026-03-02T18:45:00.000Z'),
      },
    });
    const report = await expectKeptAsCounted(workspace.api_key, { ...week, interval: 'day' });
    expect(report.series[1]!.figures['messages_in']).toBe(1);
  });
});

/** Runs the day keeper's rounds until it has no work left, as the workers do between their polls. */
async function keepAllEndedDays() {
  while (await keepEndedDays({ prisma }, 20));
}

/** The local dates kept for a workspace, in order. */
async function keptDates(company_id: string): Promise<string[]> {
  const days = await prisma.reportDay.findMany({ where: { company_id }, orderBy: { day: 'asc' }, select: { day: true } });
  return days.map((row) => row.day.toISOString().slice(0, 10));
}

describe('the day keeper', () => {
  const LOCAL_WEEK = { from: '2026-03-01T18:30:00.000Z', to: '2026-03-08T18:30:00.000Z' };

  it('computes every ended day from the first conversation, in the workspace zone, before any report asks', async () => {
    const { workspace } = await workspaceWithHistory('Kept ahead', 'Asia/Kolkata');
    const company_id = workspace.workspace_id;
    await keepAllEndedDays();
    const today = DateTime.now().setZone('Asia/Kolkata').startOf('day');
    const dates = await keptDates(company_id);
    // The first conversation is at 15:30 on 2 March in Kolkata; today is left to the reports.
    expect(dates[0]).toBe('2026-03-02');
    expect(dates.at(-1)).toBe(today.minus({ days: 1 }).toISODate());
    expect(dates).toHaveLength(today.diff(DateTime.fromISO('2026-03-02', { zone: 'Asia/Kolkata' }), 'days').days);
    // A report of kept days computes none of them again.
    const computed = await prisma.reportDay.findMany({ where: { company_id }, select: { day: true, computed_at: true } });
    const report = await expectKeptAsCounted(workspace.api_key, { ...LOCAL_WEEK, interval: 'day' });
    expect(report.totals['conversations_opened']).toBe(260);
    for (const day of computed) {
      const now = await prisma.reportDay.findUniqueOrThrow({ where: { company_id_day: { company_id, day: day.day } } });
      expect(now.computed_at).toEqual(day.computed_at);
    }
    // A new time zone drops the kept days; the keeper cuts them again in the new zone.
    await prisma.workspace.update({ where: { id: company_id }, data: { time_zone: 'America/New_York' } });
    expect(await keptDates(company_id)).toEqual([]);
    await keepAllEndedDays();
    const zoned = await prisma.reportDay.findMany({
      where: { company_id },
      select: { time_zone: true, day: true },
      orderBy: { day: 'asc' },
    });
    expect(new Set(zoned.map((day) => day.time_zone))).toEqual(new Set(['America/New_York']));
    expect(zoned[0]!.day.toISOString().slice(0, 10)).toBe('2026-03-02');
  });

  it('computes a changed ended day again and consumes its mark; a change of today is left to the next report', async () => {
    const { workspace, conversations } = await workspaceWithHistory('Kept ahead changes', 'UTC');
    const company_id = workspace.workspace_id;
    await keepAllEndedDays();
    const message = (created_at: Date) =>
      prisma.message.create({
        data: {
          company_id,
          conversation_id: conversations[0]!.id,
          direction: 'inbound',
          status: 'received',
          sender_type: 'contact',
          body: 'Again',
          created_at,
        },
      });
    const now = new Date();
    await message(new Date('2026-03-03T12:30:00.000Z'));
    await message(now);
    expect(await prisma.reportChange.count({ where: { company_id } })).toBe(2);
    await keepAllEndedDays();
    const marks = await prisma.reportChange.findMany({ where: { company_id } });
    // Unless the day ended meanwhile, now's hour is still today's.
    const hour = Math.floor(now.getTime() / HOUR) * HOUR;
    const endedBeforeToday = hour + HOUR <= DateTime.utc().startOf('day').toMillis();
    expect(marks.map((mark) => mark.hour.getTime())).toEqual(endedBeforeToday ? [] : [hour]);
    const day = await prisma.reportDay.findUniqueOrThrow({ where: { company_id_day: { company_id, day: new Date('2026-03-03') } } });
    expect((day.figures as Record<string, unknown>)['messages_in']).toBe(1);
    const report = await expectKeptAsCounted(workspace.api_key, WEEK);
    expect(report.series[1]!.figures['messages_in']).toBe(1);
  });
});

describe('business hours changed while days are computed', () => {
  // Needs two sessions at once: a PostgreSQL server (the embedded database serves one session at a time).
  it.runIf(process.env['TEST_DATABASE_URL'])('keeps nothing computed with the hours they replaced', async () => {
    const { workspace } = await workspaceWithHistory('Kept days hours race', 'UTC');
    const company_id = workspace.workspace_id;
    await harness.db.sql.session(async (change) => {
      await change.exec('BEGIN');
      await change.query(`UPDATE workspaces SET business_hours = $1::jsonb WHERE id = $2`, [
        JSON.stringify({ hours: [{ weekday: 'monday', start: '10:30', end: '17:00' }], holidays: [] }),
        company_id,
      ]);
      // The report computes its days with the hours committed so far; the change ends once the report has ended or
      // waits on it (to keep its days).
      let ended = false;
      const report = reportOf(workspace.api_key, WEEK).finally(() => (ended = true));
      const waiting = async () =>
        (await prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`)[0]!.n > 0;
      while (!ended && !(await waiting())) await new Promise((resolve) => setTimeout(resolve, 20));
      await change.exec('COMMIT');
      await report;
    });
    // The week was computed with the old hours: none of it is kept (the previous period, computed after, read the new ones).
    const week = { gte: new Date(WEEK.from), lt: new Date(WEEK.to) };
    expect(await prisma.reportDay.count({ where: { company_id, day: week, NOT: { figures: { equals: Prisma.DbNull } } } })).toBe(0);
    await expectKeptAsCounted(workspace.api_key, WEEK);
  });
});
