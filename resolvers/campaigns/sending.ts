// Sending a campaign: the domain steps its runner (workers/campaigns/runner.ts) takes while it holds the campaign's
// lease. Every step is fenced by the lease token, so a runner whose lease was taken over changes nothing.
//
// At most once per recipient: a recipient is claimed (pending → sending) together with its outbound message
// (pending), and that is committed before the provider is called. The provider takes no idempotency key, so
// a recipient left in `sending` by a runner that died is never sent again: once its claim is older than the
// lease it fails as SEND_OUTCOME_UNKNOWN, unless its message meanwhile got an outcome, which it then takes.
import type { Campaign, PrismaClient } from '../../prisma/generated/prisma/client.js';
import { ProviderError } from '../../adapters/providers/errors.js';
import type { Db, Services } from '../shared/context.js';
import { DomainError } from '../shared/errors.js';
import { followMessages } from '../messaging/campaignRecipients.js';
import { RECIPIENT_ERRORS, UNFINISHED_RECIPIENT_STATUSES } from './rules.js';
import type { CampaignSender } from './sender.js';
import { enterRunning } from './lifecycle.js';
import { lockNumber, nextFittingRecipient, recordWindowRecipient, takeSendSlot, type Waiting } from './numberLimits.js';
import { failPendingMessage } from '../messaging/messageStatus.js';
import { openConversation } from '../messaging/openConversation.js';
import {
  dispatchMessage,
  messagingAddress,
  recordPendingMessage,
  type AddressableContact,
  type DispatchOutcome,
  type OutboundSend,
} from '../messaging/outbound.js';

/** A campaign as the runner claimed it: the token fences every step. */
export type LeasedCampaign = Campaign & { lease_token: string };

export type CampaignProblem = { code: string; message: string };

/** Provider refusals that would fail every recipient alike: the campaign is paused instead. */
const CAMPAIGN_WIDE_REASONS: ReadonlySet<string> = new Set(['authentication', 'template']);
/** Provider refusals that may pass later: the campaign waits before its next batch. */
const TRANSIENT_REASONS: ReadonlySet<string> = new Set(['rate_limited', 'unavailable']);

/**
 * Why the campaign cannot be sent as it is (its template is no longer approved, its integration is gone),
 * which pauses it; null for failures that may pass by themselves (the provider is down), which are retried.
 */
export function campaignProblem(error: unknown): CampaignProblem | null {
  if (error instanceof DomainError && error.code !== 'PROVIDER_ERROR' && error.code !== 'INTERNAL') {
    return { code: error.code, message: error.message };
  }
  if (error instanceof ProviderError && CAMPAIGN_WIDE_REASONS.has(error.reason)) {
    return { code: 'PROVIDER_ERROR', message: `The messaging provider refused a send (${error.reason}): ${error.message}` };
  }
  return null;
}

/** Whether a failed send says the provider wants the campaign to slow down or wait. */
export function isTransientFailure(outcome: DispatchOutcome): boolean {
  return !outcome.sent && outcome.error instanceof ProviderError && TRANSIENT_REASONS.has(outcome.error.reason);
}

/** Locks the campaign row; true if it is still this runner's and in one of `statuses`. */
async function lockLeased(tx: Db, campaign: LeasedCampaign, statuses: string[]): Promise<boolean> {
  const rows = await tx.$queryRaw<{ status: string }[]>`
    SELECT status FROM campaigns WHERE id = ${campaign.id}::uuid AND lease_token = ${campaign.lease_token}::uuid FOR UPDATE`;
  return rows[0] !== undefined && statuses.includes(rows[0].status);
}

/** A due scheduled campaign starts running (its audience snapshotted); false if it changed meanwhile. */
export function promoteScheduled(prisma: PrismaClient, campaign: LeasedCampaign, now: Date): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    if (!(await lockLeased(tx, campaign, ['scheduled']))) return false;
    await enterRunning(tx, await tx.campaign.findUniqueOrThrow({ where: { id: campaign.id } }), now);
    return true;
  });
}

export type SendStep =
  | { kind: 'stopped' }
  | { kind: 'exhausted' }
  | { kind: 'skipped' }
  | { kind: 'waiting'; waiting: Waiting }
  | { kind: 'sent'; outcome: DispatchOutcome };

type Claim = Exclude<SendStep, { kind: 'sent' }> | { kind: 'claimed'; send: OutboundSend; messageId: string };

/**
 * Sends to the campaign's next pending recipient, if the campaign is still running and still this runner's
 * (checked under the row lock that pause and cancel take, so they are honoured before every send), and if the
 * send fits its number's limits (numberLimits.ts; else the step says why the campaign waits). The claim
 * extends the lease to `leaseUntil`. The recipient's message goes on the contact's open conversation on the
 * campaign's integration, or a new one. A contact without an address, or opted out of a MARKETING campaign, is skipped
 * (its error_code says which: NO_MESSAGING_ADDRESS, CONTACT_OPTED_OUT).
 */
export async function sendNextRecipient(
  { prisma, statusMoves }: Pick<Services, 'prisma' | 'statusMoves'>,
  campaign: LeasedCampaign,
  sender: CampaignSender,
  times: { now: Date; leaseUntil: Date },
): Promise<SendStep> {
  const claim = await prisma.$transaction(async (tx): Promise<Claim> => {
    if (!(await lockLeased(tx, campaign, ['running']))) return { kind: 'stopped' };
    await tx.$executeRaw`UPDATE campaigns SET lease_until = ${times.leaseUntil}::timestamptz WHERE id = ${campaign.id}::uuid`;
    const number = await lockNumber(tx, sender.integration.id, times.now);
    if ('reason' in number) return { kind: 'waiting', waiting: number };
    const recipient = await nextFittingRecipient(tx, campaign.id, number);
    if (!recipient) return { kind: 'exhausted' };
    if ('reason' in recipient) return { kind: 'waiting', waiting: recipient };
    const key = { campaign_id_contact_id: { campaign_id: campaign.id, contact_id: recipient.contact_id } };
    // The contact's row lock, as an inbound message takes it: the two then open one conversation.
    const [contact] = await tx.$queryRaw<(AddressableContact & { marketing_consent_status: string })[]>`
      SELECT wa_id, phone_number, bsuid, marketing_consent_status FROM customers WHERE id = ${recipient.contact_id}::uuid FOR UPDATE`;
    const to = contact ? messagingAddress(contact) : null;
    const skipped = !to
      ? RECIPIENT_ERRORS.noAddress
      : sender.message.category === 'MARKETING' && contact?.marketing_consent_status === 'opted_out'
        ? RECIPIENT_ERRORS.optedOut
        : null;
    if (!to || skipped) {
      await tx.campaignRecipient.update({ where: key, data: { status: 'skipped', ...skipped } });
      return { kind: 'skipped' };
    }
    const conversation = await openConversation(tx, campaign.company_id, recipient.contact_id, sender.integration);
    const send: OutboundSend = {
      ...sender.message,
      workspaceId: campaign.company_id,
      sender: { type: 'campaign', id: campaign.id },
      conversationId: conversation.id,
      provider: sender.provider,
      to,
    };
    await takeSendSlot(tx, number);
    await recordWindowRecipient(tx, number, recipient.contact_id);
    const messageId = await recordPendingMessage(tx, send);
    await tx.campaignRecipient.update({ where: key, data: { status: 'sending', message_id: messageId, claimed_at: times.now } });
    return { kind: 'claimed', send, messageId };
  });
  if (claim.kind !== 'claimed') return claim;
  return { kind: 'sent', outcome: await dispatchMessage({ prisma, statusMoves }, claim.send, claim.messageId) };
}

/** Pauses the campaign with the reason, if it is still this runner's and scheduled or running. */
export async function pauseWithProblem(prisma: PrismaClient, campaign: LeasedCampaign, problem: CampaignProblem): Promise<void> {
  await prisma.campaign.updateMany({
    where: { id: campaign.id, lease_token: campaign.lease_token, status: { in: ['scheduled', 'running'] } },
    data: { status: 'paused', next_send_at: null, error_code: problem.code, error_message: problem.message },
  });
}

/** A running campaign none of whose recipients is pending or sending is completed. */
export async function completeIfDone(prisma: PrismaClient, campaign: LeasedCampaign, now: Date): Promise<boolean> {
  const { count } = await prisma.campaign.updateMany({
    where: {
      id: campaign.id,
      lease_token: campaign.lease_token,
      status: 'running',
      recipients: { none: { status: { in: UNFINISHED_RECIPIENT_STATUSES } } },
    },
    data: { status: 'completed', completed_at: now, next_send_at: null },
  });
  return count > 0;
}

/**
 * Settles up to `limit` recipients whose claim is older than `claimedBefore` (their runner died between
 * claiming and recording the outcome), in any campaign: a message that never got an outcome fails as
 * SEND_OUTCOME_UNKNOWN and is not sent again; a message that got one passes it on. Returns how many.
 */
export function settleAbandonedSends(prisma: PrismaClient, claimedBefore: Date, limit: number): Promise<number> {
  return prisma.$transaction(async (tx) => {
    const abandoned = await tx.$queryRaw<{ campaign_id: string; contact_id: string; company_id: string; message_id: string | null }[]>`
      SELECT campaign_id, contact_id, company_id, message_id FROM campaign_recipients
      WHERE status = 'sending' AND claimed_at <= ${claimedBefore}::timestamptz
      ORDER BY claimed_at LIMIT ${limit}::int
      FOR UPDATE SKIP LOCKED`;
    const messageIds: string[] = [];
    for (const recipient of abandoned) {
      if (recipient.message_id) {
        messageIds.push(recipient.message_id);
        const { error_code, error_message } = RECIPIENT_ERRORS.outcomeUnknown;
        await failPendingMessage(tx, recipient.company_id, recipient.message_id, { error_code, error_title: error_message });
        continue;
      }
      // Its message was deleted with its conversation: nothing says what happened.
      await tx.campaignRecipient.update({
        where: { campaign_id_contact_id: { campaign_id: recipient.campaign_id, contact_id: recipient.contact_id } },
        data: { status: 'failed', failed_at: new Date(), ...RECIPIENT_ERRORS.outcomeUnknown },
      });
    }
    await followMessages(tx, messageIds);
    return abandoned.length;
  });
}
