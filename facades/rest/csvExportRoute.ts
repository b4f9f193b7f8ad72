// GET /api/v1/campaigns/{id}/export.csv (the facade table's downloadCampaignExport): a campaign's whole export as
// one CSV file, written page by page as the CampaignExport operation answers them (each page's text follows the
// last), so the answer never holds more than one page whatever the campaign's size. The first page is read before
// answering: a campaign that is not there, or a key without the scope, gets the spec's error form. A page that
// fails later can no longer change the status: the connection is cut, so the client sees an incomplete download
// rather than a short file that looks whole.
import type { CampaignExportQuery } from '../core/operations.generated.js';
import { executionFailure, failureResponse, INTERNAL_FAILURE, type Failure } from '../core/executionFailure.js';
import { attachment } from './attachment.js';
import { REQUEST_ID_HEADER, type FileAnswer } from './fileAnswer.js';

type Page = NonNullable<CampaignExportQuery['campaignExport']>;

export const CSV_EXPORT_FILE: FileAnswer = {
  allow: ['GET'],
  async answer({ request, requestId, operation, values, gateway }) {
    const read = async (cursor: string | null): Promise<Page | Failure> => {
      const result = await gateway.run(request, operation, { id: values['id'], cursor });
      return (result.data as CampaignExportQuery | null | undefined)?.campaignExport ?? executionFailure(result) ?? INTERNAL_FAILURE;
    };
    const first = await read(null);
    if (!('content' in first)) return failureResponse(first, requestId);
    const encoder = new TextEncoder();
    let next = first.has_more ? first.next_cursor : null;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(first.content));
        if (next === null) controller.close();
      },
      async pull(controller) {
        if (next === null) return;
        const page = await read(next);
        if (!('content' in page)) return controller.error(new Error(`The export stopped: ${page.message}`));
        next = page.has_more ? page.next_cursor : null;
        controller.enqueue(encoder.encode(page.content));
        if (next === null) controller.close();
      },
    });
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': first.content_type,
        'content-disposition': attachment(first.filename),
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  },
  document: {
    summary: "A campaign's results as one CSV file.",
    description:
      'Streams the whole export (what GET /campaigns/{id}/export answers a page at a time, joined): the header row, then one ' +
      'row per recipient in send order. Written as it is read, so its size is not bounded by memory; a failure after the ' +
      'first bytes cuts the connection rather than ending the file early.',
    responses: {
      '200': {
        description: 'The CSV file (RFC 4180, CRLF), named in Content-Disposition.',
        headers: REQUEST_ID_HEADER,
        content: { 'text/csv': { schema: { type: 'string' } } },
      },
    },
  },
};
