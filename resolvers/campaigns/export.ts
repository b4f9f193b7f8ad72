// A campaign's results as CSV (RFC 4180, CRLF, header row): one row per recipient in send order, with the
// contact, the recipient's status, its message and error, and the time of each step. Cells that a
// spreadsheet would run as formulas are escaped, as in the analytics export.
// One page at a time, so that no answer holds a whole campaign: the first page starts with the header row, and
// the pages' content joined in order is the whole file (GET /campaigns/{id}/export.csv streams it so).
import { stringify } from 'csv-stringify/sync';
import { type Context, requireActor } from '../shared/context.js';
import { findCampaign } from './campaigns.js';
import { parseInput, uuid } from '../shared/validation.js';
import { z } from 'zod';
import { columnPage } from '../shared/pagination.js';

const COLUMNS = [
  'contact_id',
  'contact_name',
  'phone_number',
  'wa_id',
  'status',
  'message_id',
  'error_code',
  'error_message',
  'sent_at',
  'delivered_at',
  'read_at',
  'failed_at',
] as const;

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** Recipients per page at most, and by default. */
export const EXPORT_PAGE_MAX = 5_000;

const exportInput = z.object({
  id: uuid,
  limit: z.number().int().min(1).max(EXPORT_PAGE_MAX).default(EXPORT_PAGE_MAX),
  cursor: uuid.nullish(),
});

export async function campaignExport(ctx: Context, input: z.input<typeof exportInput>) {
  const { workspaceId } = requireActor(ctx);
  const { id, limit, cursor } = parseInput(exportInput, input);
  const campaign = await findCampaign(ctx.prisma, workspaceId, id);
  const page = await columnPage('contact_id', 'asc', { limit, cursor }, ({ after, orderBy, take }) =>
    ctx.prisma.campaignRecipient.findMany({
      where: { campaign_id: campaign.id, ...after },
      orderBy,
      take,
      include: { contact: { select: { name: true, phone_number: true, wa_id: true } } },
    }),
  );
  const rows = page.data.map((recipient) => ({
    contact_id: recipient.contact_id,
    contact_name: recipient.contact.name,
    phone_number: recipient.contact.phone_number,
    wa_id: recipient.contact.wa_id,
    status: recipient.status,
    message_id: recipient.message_id,
    error_code: recipient.error_code,
    error_message: recipient.error_message,
    sent_at: iso(recipient.sent_at),
    delivered_at: iso(recipient.delivered_at),
    read_at: iso(recipient.read_at),
    failed_at: iso(recipient.failed_at),
  }));
  const content = stringify(rows, { header: !cursor, columns: [...COLUMNS], record_delimiter: 'windows', escape_formulas: true });
  return {
    filename: `campaign_${campaign.id}.csv`,
    content_type: 'text/csv; charset=utf-8',
    content,
    next_cursor: page.next_cursor,
    has_more: page.has_more,
  };
}
