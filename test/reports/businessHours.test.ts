// Response and resolution times counted in business hours only, beside the calendar ones, on a workspace in
// Tokyo open 09:00–17:00 on weekdays with a holiday on Wednesday: a message at 16:50 answered at 09:10 the next
// day took 20 business minutes; nights, the weekend and the holiday do not count; a resolution started before the
// range (and before any other conversation) is counted from its start. The per-person table counts the same way.
// The clock a report builds is reused, but not past the day after it was built.
import { DateTime } from 'luxon';
import { describe, expect, it, vi } from 'vitest';
import { openHarness } from '../support/harness.js';
import { graphqlCalls } from '../support/results.js';
import { businessClock } from '../../resolvers/reports/businessClock.js';

const harness = await openHarness();
const { data } = graphqlCalls(harness);
const prisma = harness.db.prisma;
const ZONE = 'Asia/Tokyo';
/** An instant given as Tokyo wall-clock time; the week starts on Monday 2026-10-05. */
const tokyo = (local: string) => DateTime.fromISO(local, { zone: ZONE }).toJSDate();
const DAY = 24 * 60 * 60 * 1000;
const WEEK = { from: tokyo('2026-10-05T00:00').toISOString(), to: tokyo('2026-10-12T00:00').toISOString() };

const workspace = await harness.workspace('Reports business hours');
const company_id = workspace.workspace_id;
const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((weekday) => ({ weekday, start: '09:00', end: '17:00' }));
await prisma.workspace.update({
  where: { id: company_id },
  data: { time_zone: ZONE, business_hours: { hours: weekdays, holidays: [{ date: '2026-10-07', name: 'Holiday' }] } },
});

/** Every conversation is the owner's, and every reply too. */
const owner = workspace.user_id;

async function conversation(created: Date, closed?: Date) {
  const customer = await prisma.customer.create({ data: { company_id, name: 'Hours customer' } });
  return prisma.conversation.create({
    data: {
      company_id,
      customer_id: customer.id,
      assigned_user_id: owner,
      provider: 'sandbox',
      status: closed ? 'closed' : 'active',
      created_at: created,
      closed_at: closed ?? null,
    },
  });
}
async function exchange(asked: Date, answered: Date, closed?: Date) {
  const opened = await conversation(asked, closed);
  const message = { company_id, conversation_id: opened.id, body: 'Hello' };
  await prisma.message.create({
    data: { ...message, direction: 'inbound', status: 'received', sender_type: 'contact', created_at: asked },
  });
  await prisma.message.create({
    data: { ...message, direction: 'outbound', status: 'delivered', sender_type: 'user', sender_id: owner, created_at: answered },
  });
}

// First responses (calendar → business): Monday 16:50 → Tuesday 09:10 (16 h 20 min → 20 min); Monday 10:00 →
// 10:05 (5 min both, closed at 11:00: a resolution of 1 h both); Tuesday 16:30 → Thursday 09:30 over the holiday
// (41 h → 1 h); Saturday 10:00 → Monday 09:15 after the range (47 h 15 min → 15 min).
await exchange(tokyo('2026-10-05T16:50'), tokyo('2026-10-06T09:10'));
await exchange(tokyo('2026-10-05T10:00'), tokyo('2026-10-05T10:05'), tokyo('2026-10-05T11:00'));
await exchange(tokyo('2026-10-06T16:30'), tokyo('2026-10-08T09:30'));
await exchange(tokyo('2026-10-10T10:00'), tokyo('2026-10-12T09:15'));
// Opened the Friday before at 16:00, closed Monday 10:00: 66 h, of which 2 business hours.
await conversation(tokyo('2026-10-02T16:00'), tokyo('2026-10-05T10:00'));

const FIGURES = `first_response_conversations first_response_median_seconds first_response_p90_seconds
  first_response_business_median_seconds first_response_business_p90_seconds resolution_conversations
  resolution_median_seconds resolution_p90_seconds resolution_business_median_seconds resolution_business_p90_seconds`;
const REPORT = `query($from: DateTime!, $to: DateTime!) { reportConversations(from: $from, to: $to) {
  time_zone totals { ${FIGURES} } series { start figures { first_response_business_median_seconds } } } }`;

/** The week's figures, in calendar time and in business hours. */
const WEEK_FIGURES = {
  first_response_conversations: 4,
  // Calendar: 300, 58 800, 147 600, 170 100 s.
  first_response_median_seconds: 103_200,
  first_response_p90_seconds: 163_350,
  // Business: 300, 900, 1200, 3600 s: median (900 + 1200) / 2, p90 1200 + 0.7 × 2400.
  first_response_business_median_seconds: 1050,
  first_response_business_p90_seconds: 2880,
  resolution_conversations: 2,
  // Calendar: 3600 and 237 600 s; business: 3600 and 7200 s.
  resolution_median_seconds: 120_600,
  resolution_p90_seconds: 214_200,
  resolution_business_median_seconds: 5400,
  resolution_business_p90_seconds: 6840,
};

describe('business hours in the conversations report', () => {
  it('counts only the open hours of the workspace, in its time zone, without its holidays', async () => {
    const { reportConversations } = await data(workspace.api_key, REPORT, WEEK);
    expect(reportConversations.time_zone).toBe(ZONE);
    expect(reportConversations.totals).toEqual(WEEK_FIGURES);
  });

  it('gives each point of the series its own business figures', async () => {
    const { reportConversations } = await data(workspace.api_key, REPORT, WEEK);
    const byDay = reportConversations.series.map((point: any) => point.figures.first_response_business_median_seconds);
    // Monday: 20 min and 5 min; Tuesday: 1 h; Saturday: 15 min.
    expect(byDay).toEqual([750, 3600, null, null, null, 900, null]);
  });

  it('gives each person their first responses and resolutions in business hours too', async () => {
    const people = `query($from: DateTime!, $to: DateTime!) { reportPeople(from: $from, to: $to) { rows { user_id ${FIGURES} } } }`;
    const { reportPeople } = await data(workspace.api_key, people, WEEK);
    // The owner gave every first response and holds every conversation: the workspace's figures.
    expect(reportPeople.rows).toEqual([{ user_id: owner, ...WEEK_FIGURES }]);
  });
  it('builds the clock again once the day after the one it was built on has passed', async () => {
    // A workspace open around the clock: its clock is one interval, whose end is as far as the clock reaches.
    const { workspace_id } = await harness.workspace('Reports clock reuse');
    const built = Date.UTC(2026, 9, 5, 12);
    const reach = async (at: number) => {
      vi.setSystemTime(at);
      const clock = await businessClock(harness.services, workspace_id, new Date(built - 7 * DAY), new Date(built - DAY));
      return clock.ends.at(-1)! * 1000;
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect(await reach(built)).toBe(Date.UTC(2026, 9, 7));
      // Reused the next day, then built anew: a first response made three days later still counts its open seconds.
      expect(await reach(built + DAY)).toBe(Date.UTC(2026, 9, 7));
      expect(await reach(built + 3 * DAY)).toBe(Date.UTC(2026, 9, 10));
    } finally {
      vi.useRealTimers();
    }
  });
});
