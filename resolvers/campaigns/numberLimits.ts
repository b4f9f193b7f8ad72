// The business number's limits a campaign send must fit (docs/api-decisions.md, "Campaigns within the number's
// limits"): its throughput (messages per second), the pair rate (one message per recipient per 6 s) and its
// messaging-limit tier (unique recipients per rolling 24 h). Checked in the claim's transaction under the
// integration's row lock, so every runner in every process sees one number's sends in one order.
import { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Db } from '../shared/context.js';
import { tierLimit } from '../workspace/numberSettings.js';

/** Meta's pair rate: one message to one recipient every 6 seconds. */
export const PAIR_INTERVAL_MS = 6_000;
export const TIER_WINDOW_MS = 24 * 3600_000;
/** How far ahead of its pacing clock a number may send: one second's worth of messages at once, never more. */
const THROUGHPUT_BURST_MS = 1_000;

export const WAITING_REASONS = ['throughput', 'pair_rate', 'messaging_limit_tier'] as const;
export type WaitingReason = (typeof WAITING_REASONS)[number];
export type Waiting = { reason: WaitingReason; until: Date };

type NumberRow = {
  id: string;
  company_id: string;
  throughput_per_second: number;
  messaging_limit_tier: string | null;
  send_slot_at: Date | null;
  window_recipient_count: number;
};
export type LockedNumber = NumberRow & { now: Date };

/**
 * The number's pacing clock as this runner may trust it: a clock further ahead of `now` than a burst and one message
 * cannot come from runners whose clocks agree, only from one whose clock ran ahead; it is then taken as now rather
 * than holding the number's campaigns back by that runner's error.
 */
function trustedSlot(number: NumberRow, now: Date): number {
  const slot = number.send_slot_at?.getTime() ?? 0;
  const furthest = now.getTime() + THROUGHPUT_BURST_MS + 1000 / number.throughput_per_second;
  return slot > furthest ? now.getTime() : slot;
}

/** Locks the number's row for the claim's transaction; or a waiting for the throughput while its pacing clock is a burst ahead. */
export async function lockNumber(tx: Db, integrationId: string, now: Date): Promise<LockedNumber | Waiting> {
  const [number] = await tx.$queryRaw<NumberRow[]>`
    SELECT id, company_id, throughput_per_second, messaging_limit_tier, send_slot_at, window_recipient_count
    FROM integrations WHERE id = ${integrationId}::uuid FOR UPDATE`;
  if (!number) throw new Error(`integration ${integrationId} vanished under its campaign`);
  const slot = trustedSlot(number, now);
  if (slot - now.getTime() > THROUGHPUT_BURST_MS) return { reason: 'throughput', until: new Date(slot - THROUGHPUT_BURST_MS) };
  return { ...number, send_slot_at: new Date(slot), now };
}

/** Takes the number's next send slot: its pacing clock moves one message's time on from now or from where it was. */
export async function takeSendSlot(tx: Db, number: LockedNumber): Promise<void> {
  const from = Math.max(number.send_slot_at?.getTime() ?? 0, number.now.getTime());
  const slot = new Date(from + 1000 / number.throughput_per_second);
  await tx.$executeRaw`UPDATE integrations SET send_slot_at = ${slot}::timestamptz WHERE id = ${number.id}::uuid`;
}

/**
 * Drops the recipients the rolling window has passed from the number's kept window (number_window_recipients) and
 * answers how many it still holds: each row is removed once, so a claim reads only what left the window since the
 * number's last claim, never the whole window (at the 100K tier, up to 100,000 rows a claim when it was counted
 * from the claims).
 */
async function windowRecipients(tx: Db, number: LockedNumber, since: Date): Promise<number> {
  const [row] = await tx.$queryRaw<{ count: number }[]>`
    WITH expired AS (
      DELETE FROM number_window_recipients
      WHERE integration_id = ${number.id}::uuid AND last_sent_at <= ${since}::timestamptz RETURNING 1),
    left_window AS (SELECT count(*)::int AS count FROM expired)
    UPDATE integrations SET window_recipient_count = window_recipient_count - left_window.count FROM left_window
    WHERE id = ${number.id}::uuid AND left_window.count > 0 RETURNING window_recipient_count AS count`;
  // Nothing left the window: the count read with the number's lock stands (and its row is not written again).
  return row?.count ?? number.window_recipient_count;
}

/** Records a campaign send to the contact in the number's window, counting the contact once however often it is sent to. */
export async function recordWindowRecipient(tx: Db, number: LockedNumber, contactId: string): Promise<void> {
  await tx.$executeRaw`
    WITH entry AS (
      INSERT INTO number_window_recipients (integration_id, contact_id, last_sent_at)
      VALUES (${number.id}::uuid, ${contactId}::uuid, ${number.now}::timestamptz)
      ON CONFLICT (integration_id, contact_id) DO UPDATE SET last_sent_at = EXCLUDED.last_sent_at
      RETURNING (xmax = 0) AS added)
    UPDATE integrations SET window_recipient_count = window_recipient_count + 1
    WHERE id = ${number.id}::uuid AND (SELECT added FROM entry)`;
}

/** The number's window recipients last sent to after `since`, as a subquery. */
function sentSince(number: LockedNumber, since: Date): Prisma.Sql {
  return Prisma.sql`
    SELECT w.contact_id FROM number_window_recipients w
    WHERE w.integration_id = ${number.id}::uuid AND w.last_sent_at > ${since}::timestamptz`;
}

/**
 * The campaign's next pending recipient that fits the pair rate and the tier (a recipient already written to in
 * the window adds no unique recipient), locked; or, when pending recipients remain but none fits, why the campaign
 * waits and until when; or null when none is pending.
 */
export async function nextFittingRecipient(
  tx: Db,
  campaignId: string,
  number: LockedNumber,
): Promise<{ contact_id: string } | Waiting | null> {
  const now = number.now.getTime();
  const pairSince = new Date(now - PAIR_INTERVAL_MS);
  const windowSince = new Date(now - TIER_WINDOW_MS);
  const inWindow = await windowRecipients(tx, number, windowSince);
  const limit = tierLimit(number.messaging_limit_tier);
  const newRecipientsAllowed = limit === null || inWindow < limit;
  // The number's recipients of the last 6 s are listed once, as a set each pending recipient is looked up in (NOT IN
  // over a subquery is PostgreSQL's hashed subplan), walking the campaign's pending list (campaign_recipients_pending_idx)
  // from its start. NOT EXISTS let the planner join every pending recipient against every recent one: 12 ms a
  // claim halfway through a campaign of a thousand, against 0.8 ms. contact_id is never null, so NOT IN is exact.
  const [recipient] = await tx.$queryRaw<{ contact_id: string }[]>`
    SELECT r.contact_id FROM campaign_recipients r
    WHERE r.campaign_id = ${campaignId}::uuid AND r.status = 'pending'
      AND r.contact_id NOT IN (${sentSince(number, pairSince)})
      AND (${newRecipientsAllowed}::boolean OR EXISTS (
        SELECT 1 FROM number_window_recipients w WHERE w.integration_id = ${number.id}::uuid AND w.contact_id = r.contact_id))
    ORDER BY r.contact_id LIMIT 1 FOR UPDATE OF r SKIP LOCKED`;
  if (recipient) return recipient;
  const [pending] = await tx.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM campaign_recipients WHERE campaign_id = ${campaignId}::uuid AND status = 'pending'`;
  if (!pending?.count) return null;
  if (!newRecipientsAllowed) return { reason: 'messaging_limit_tier', until: await windowFrees(tx, number) };
  return { reason: 'pair_rate', until: await pairFrees(tx, campaignId, number, pairSince) };
}

/** When the window next loses a recipient: its earliest last send, 24 h on (the window holds only its own). */
async function windowFrees(tx: Db, number: LockedNumber): Promise<Date> {
  const [row] = await tx.$queryRaw<{ frees: Date | null }[]>`
    SELECT min(last_sent_at) + interval '24 hours' AS frees FROM number_window_recipients WHERE integration_id = ${number.id}::uuid`;
  return row?.frees ?? new Date(number.now.getTime() + TIER_WINDOW_MS);
}

/** When the first of the campaign's pending recipients leaves its pair interval. */
async function pairFrees(tx: Db, campaignId: string, number: LockedNumber, since: Date): Promise<Date> {
  const [row] = await tx.$queryRaw<{ frees: Date | null }[]>`
    SELECT min(w.last_sent_at) + interval '6 seconds' AS frees
    FROM campaign_recipients r
    JOIN number_window_recipients w ON w.integration_id = ${number.id}::uuid AND w.contact_id = r.contact_id
      AND w.last_sent_at > ${since}::timestamptz
    WHERE r.campaign_id = ${campaignId}::uuid AND r.status = 'pending'`;
  return row?.frees ?? new Date(since.getTime() + PAIR_INTERVAL_MS);
}
