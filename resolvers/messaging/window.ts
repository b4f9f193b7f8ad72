// The 24-hour rule: a free-form message may be sent only within 24 hours of the contact's last inbound
// message (conversation.last_message_at), and not after the provider said the window was closed (131047,
// conversation.window_closed_at) until the contact writes again. messageSend enforces it;
// Conversation.messaging_window shows it.
import type { IsoTimestamp } from '../shared/isoTimestamps.js';

const MESSAGING_WINDOW_MS = 24 * 3600 * 1000;

export type MessagingWindow = { open: boolean; closes_at: Date | null };

/** A conversation's times, read through Prisma (Dates) or by the list's written statement (ISO text). */
export type WindowTimes = { last_message_at: Date | IsoTimestamp | null; window_closed_at?: Date | IsoTimestamp | null };

const asDate = (instant: Date | IsoTimestamp | null | undefined) => (instant == null ? null : new Date(instant));

/** The window as of `now`: open until closes_at; closes_at is null when the contact never wrote. */
export function messagingWindow(conversation: WindowTimes, now: number): MessagingWindow {
  const lastInboundAt = asDate(conversation.last_message_at);
  const closedAt = asDate(conversation.window_closed_at);
  if (!lastInboundAt) return { open: false, closes_at: null };
  if (closedAt && closedAt >= lastInboundAt) return { open: false, closes_at: closedAt };
  const closesAt = new Date(lastInboundAt.getTime() + MESSAGING_WINDOW_MS);
  return { open: now < closesAt.getTime(), closes_at: closesAt };
}
