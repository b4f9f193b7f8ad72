// A campaign's results as CSV (RFC 4180, CRLF, header row): one row per recipient in send order, with the
// contact, the recipient's status, its message and error, and the time of each step. Cells that a
// spreadsheet would run as formulas are escaped, as in the analytics export.
import { stringify } from 'csv-stringify/sync';
import { type Context, requireActor } from '../shared/context.js';
import { findCampaign } from './campaigns.js';
import { idInput, parseInput } from '../shared/validation.js';
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

/** Recipients read per query: the export holds one batch of records at a time besides the CSV text itself. */
const EXPORT_BATCH = 5_000;

export async function campaignExport(ctx: Context, input: { id: string }) {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, input);
  const campaign = await findCampaign(ctx.prisma, workspaceId, id);
  const readBatch = (cursor: string | null) =>
    columnPage('contact_id', 'asc', { limit: EXPORT_BATCH, cursor }, ({ after, orderBy, take }) =>
      ctx.prisma.campaignRecipient.findMany({
        where: { campaign_id: campaign.id, ...after },
        orderBy,
        take,
        include: { contact: { select: { name: true, phone_number: true, wa_id: true } } },
      }),
    );
  const chunks: string[] = [];
  for (let batch = await readBatch(null); ; batch = await readBatch(batch.next_cursor)) {
    const rows = batch.data.map((recipient) => ({
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
    chunks.push(
      stringify(rows, { header: chunks.length === 0, columns: [...COLUMNS], record_delimiter: 'windows', escape_formulas: true }),
    );
    if (!batch.has_more) break;
  }
  return { filename: `campaign_${campaign.id}.csv`, content_type: 'text/csv; charset=utf-8', content: chunks.join('') };
}
