// A contact's whole story (issue 38): its conversations, the campaigns it received, its appointments, its consent
// changes, the notes on its conversations and its tags, in one list, newest first. Each kind is read by one query
// that starts after the cursor in the list's order, and the kinds' rows are merged: a page costs one query per
// kind, whatever its length (docs/api-decisions.md, "A contact's timeline", says which time each kind is placed at).
import { z } from 'zod';
import type { Db } from '../shared/context.js';
import { type Context, requireActor } from '../shared/context.js';
import { notFound } from '../shared/errors.js';
import { cursorArgument, keysetPage } from '../shared/pagination.js';
import { limit, parseInput, uuid } from '../shared/validation.js';

/** The kinds of entry, in the order entries of the same time follow each other. */
export const TIMELINE_KINDS = ['conversation', 'campaign', 'appointment', 'consent', 'note', 'tag'] as const;
type Kind = (typeof TIMELINE_KINDS)[number];

/** A place in the list: entries are ordered by time (newest first), then kind, then key (descending). */
type Position = { at: Date; kind: Kind; key: string };

/** The cursor is the last entry's place: `t1.<epoch ms>.<kind>.<key>`. */
const CURSOR_PATTERN = new RegExp(`^t1\\.(\\d+)\\.(${TIMELINE_KINDS.join('|')})\\.([0-9a-f-]{36})$`);

function decodeCursor(value: string): Position | null {
  const [, at, kind, key] = CURSOR_PATTERN.exec(value) ?? [];
  return at && kind && key && uuid.safeParse(key).success ? { at: new Date(Number(at)), kind: kind as Kind, key } : null;
}

const encodeCursor = (entry: Position) => `t1.${entry.at.getTime()}.${entry.kind}.${entry.key}`;

function precedes(a: Position, b: Position): number {
  return (
    b.at.getTime() - a.at.getTime() ||
    TIMELINE_KINDS.indexOf(a.kind) - TIMELINE_KINDS.indexOf(b.kind) ||
    (a.key < b.key ? 1 : a.key > b.key ? -1 : 0)
  );
}

/**
 * The where clause of one kind's rows after `position`, for a kind placed at `atField` and keyed by `keyField`:
 * earlier kinds of the cursor's time are already seen, later ones are not.
 */
function after(kind: Kind, atField: string, keyField: string, position: Position | null | undefined): object {
  if (!position) return {};
  const order = TIMELINE_KINDS.indexOf(kind) - TIMELINE_KINDS.indexOf(position.kind);
  if (order < 0) return { [atField]: { lt: position.at } };
  if (order > 0) return { [atField]: { lte: position.at } };
  return { OR: [{ [atField]: { lt: position.at } }, { [atField]: position.at, [keyField]: { lt: position.key } }] };
}

type Read = { workspaceId: string; contactId: string; position: Position | null | undefined; take: number };

function readConversations(db: Db, { workspaceId, contactId, position, take }: Read) {
  return db.conversation.findMany({
    where: { company_id: workspaceId, customer_id: contactId, ...after('conversation', 'created_at', 'id', position) },
    orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
    take,
    select: { id: true, status: true, provider: true, assigned_user_id: true, created_at: true, last_message_at: true, closed_at: true },
  });
}

function readCampaigns(db: Db, { workspaceId, contactId, position, take }: Read) {
  return db.campaignRecipient.findMany({
    where: { company_id: workspaceId, contact_id: contactId, ...after('campaign', 'created_at', 'campaign_id', position) },
    orderBy: [{ created_at: 'desc' }, { campaign_id: 'desc' }],
    take,
    select: {
      campaign_id: true,
      status: true,
      message_id: true,
      error_code: true,
      error_message: true,
      sent_at: true,
      delivered_at: true,
      read_at: true,
      failed_at: true,
      created_at: true,
      campaign: { select: { name: true, template_name: true } },
    },
  });
}

function readAppointments(db: Db, { workspaceId, contactId, position, take }: Read) {
  return db.appointment.findMany({
    where: { company_id: workspaceId, customer_id: contactId, ...after('appointment', 'created_at', 'id', position) },
    orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
    take,
    select: {
      id: true,
      appointment_type_id: true,
      start_at: true,
      end_at: true,
      status: true,
      notes: true,
      created_at: true,
      appointment_type: { select: { name: true } },
    },
  });
}

function readConsentChanges(db: Db, { workspaceId, contactId, position, take }: Read) {
  return db.consentChange.findMany({
    where: { company_id: workspaceId, contact_id: contactId, ...after('consent', 'created_at', 'id', position) },
    orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
    take,
    select: { id: true, status: true, previous_status: true, source: true, message_id: true, created_at: true },
  });
}

function readNotes(db: Db, { workspaceId, contactId, position, take }: Read) {
  return db.note.findMany({
    where: { company_id: workspaceId, conversation: { customer_id: contactId }, ...after('note', 'created_at', 'id', position) },
    orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
    take,
    select: { id: true, conversation_id: true, author_user_id: true, body: true, created_at: true, author: { select: { name: true } } },
  });
}

function readTags(db: Db, { contactId, position, take }: Read) {
  return db.customerTag.findMany({
    where: { customer_id: contactId, ...after('tag', 'created_at', 'tag_id', position) },
    orderBy: [{ created_at: 'desc' }, { tag_id: 'desc' }],
    take,
    select: { tag_id: true, created_at: true, tag: { select: { name: true, color: true } } },
  });
}

type Row<Reader extends (db: Db, read: Read) => Promise<unknown[]>> = Awaited<ReturnType<Reader>>[number];

export type TimelineConversation = Row<typeof readConversations>;
export type TimelineCampaign = Omit<Row<typeof readCampaigns>, 'campaign'> & { name: string; template_name: string };
export type TimelineAppointment = Omit<Row<typeof readAppointments>, 'appointment_type'> & { appointment_type_name: string };
export type TimelineConsent = Row<typeof readConsentChanges>;
export type TimelineNote = Omit<Row<typeof readNotes>, 'author'> & { author_name: string | null };
export type TimelineTag = { id: string; name: string; color: string | null };

/** One entry: its kind, its time, its item's id (the key) and the item, under the field named by its kind. */
export type TimelineEntry = Position &
  (
    | { kind: 'conversation'; conversation: TimelineConversation }
    | { kind: 'campaign'; campaign: TimelineCampaign }
    | { kind: 'appointment'; appointment: TimelineAppointment }
    | { kind: 'consent'; consent: TimelineConsent }
    | { kind: 'note'; note: TimelineNote }
    | { kind: 'tag'; tag: TimelineTag }
  );

async function readEntries(db: Db, read: Read): Promise<TimelineEntry[]> {
  const [conversations, campaigns, appointments, consents, notes, tags] = await Promise.all([
    readConversations(db, read),
    readCampaigns(db, read),
    readAppointments(db, read),
    readConsentChanges(db, read),
    readNotes(db, read),
    readTags(db, read),
  ]);
  return [
    ...conversations.map((row) => ({ kind: 'conversation' as const, at: row.created_at, key: row.id, conversation: row })),
    ...campaigns.map(({ campaign, ...row }) => ({
      kind: 'campaign' as const,
      at: row.created_at,
      key: row.campaign_id,
      campaign: { ...row, ...campaign },
    })),
    ...appointments.map(({ appointment_type, ...row }) => ({
      kind: 'appointment' as const,
      at: row.created_at,
      key: row.id,
      appointment: { ...row, appointment_type_name: appointment_type.name },
    })),
    ...consents.map((row) => ({ kind: 'consent' as const, at: row.created_at, key: row.id, consent: row })),
    ...notes.map(({ author, ...row }) => ({
      kind: 'note' as const,
      at: row.created_at,
      key: row.id,
      note: { ...row, author_name: author?.name ?? null },
    })),
    ...tags.map(({ tag, ...row }) => ({ kind: 'tag' as const, at: row.created_at, key: row.tag_id, tag: { id: row.tag_id, ...tag } })),
  ].sort(precedes);
}

const timelineInput = z.object({ id: uuid, limit: limit(50), cursor: cursorArgument(decodeCursor) });

/** contactTimeline: a page of the contact's story, newest first; `cursor` is the next_cursor of the page before. */
export async function contactTimeline(ctx: Context, input: z.input<typeof timelineInput>) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(timelineInput, input);
  const contact = await ctx.prisma.customer.findFirst({ where: { id: args.id, company_id: workspaceId }, select: { id: true } });
  if (!contact) throw notFound('Customer');
  return keysetPage(
    args.limit,
    async (take) => {
      const entries = await readEntries(ctx.prisma, { workspaceId, contactId: contact.id, position: args.cursor, take });
      return entries.slice(0, take);
    },
    encodeCursor,
  );
}
