// GET /api/v1/campaigns/{id}/export.csv: a campaign's whole export as one CSV file, written page by page as the
// CampaignExport operation answers them (each page's text follows the last), so the answer never holds more than
// one page whatever the campaign's size. CSV rather than JSON, so it has no entry in the facade table. The first
// page is read before answering: a campaign that is not there, or a key without the scope, gets the spec's error
// form. A page that fails later can no longer change the status: the connection is cut, so the client sees an
// incomplete download rather than a short file that looks whole.
import type { Gateway } from '../core/gateway.js';
import type { CampaignExportQuery } from '../core/operations.generated.js';
import { executionFailure, failureResponse, INTERNAL_FAILURE, type Failure } from '../core/executionFailure.js';
import { attachment } from './attachment.js';
import { methodNotAllowed } from '../../infra/http/errorResponse.js';
import { REST_BASE_PATH } from './routes.js';

export const CAMPAIGN_CSV_PATH = '/campaigns/{id}/export.csv';
const PATTERN = new RegExp(`^${REST_BASE_PATH}/campaigns/([^/]+)/export\\.csv$`);

type Page = NonNullable<CampaignExportQuery['campaignExport']>;

export function createCsvExportRoute(gateway: Gateway) {
  return async function handle(request: Request, url: URL, requestId: string): Promise<Response | null> {
    const match = PATTERN.exec(url.pathname);
    if (!match) return null;
    if (request.method !== 'GET') {
      return methodNotAllowed(request, url.pathname, requestId, 'GET');
    }
    const id = match[1]!;
    const read = async (cursor: string | null): Promise<Page | Failure> => {
      const result = await gateway.run(request, 'CampaignExport', { id, cursor });
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
  };
}
