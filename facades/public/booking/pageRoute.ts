// GET /book/<public_id>: the booking page that the widget snippet frames (resolvers/scheduling/bookingWidget.ts). The
// route runs the public BookingPageGet operation through the gateway and renders its answer; the page's
// script then calls the key-less routes under /api/v1/public/booking. An unknown public id gets a 404 page.
// It sits after the edge's rate limit, which counts these requests per client address (infra/http/pipeline.ts).
import type { Plugin } from 'graphql-yoga';
import type { Gateway } from '../../core/gateway.js';
import { executionFailure } from '../../core/executionFailure.js';
import type { BookingPageGetQuery } from '../../core/operations.generated.js';
import { CONTENT_SECURITY_POLICY, renderBookingPage, renderProblemPage } from './page.js';
import { routeHook } from '../../../infra/http/routeHook.js';

const PAGE_PATH = /^\/book\/([^/]+)$/;

/** The path of a workspace's booking page, as the widget snippet links it (app/publicUrls.ts). */
export function bookingPagePath(publicId: string): string {
  return `/book/${encodeURIComponent(publicId)}`;
}

function page(status: number, markup: string): Response {
  return new Response(markup, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      // Slots change with every booking, and the page names them; nothing here is worth caching.
      'cache-control': 'no-store',
    },
  });
}

function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export function useBookingPage(gateway: Gateway): Plugin {
  return {
    onRequest: routeHook(
      ({ request, url }) => (request.method === 'GET' ? PAGE_PATH.exec(url.pathname) : null),
      async ({ request, endResponse }, match) => {
        const publicId = decoded(match[1]!);
        if (publicId === null) return endResponse(page(404, renderProblemPage(404)));
        const result = await gateway.run(request, 'BookingPageGet', { public_id: publicId });
        const booking = (result.data as BookingPageGetQuery | null | undefined)?.bookingPage;
        if (booking) return endResponse(page(200, renderBookingPage(publicId, booking)));
        // Whatever the id's fault (unknown, or not an id at all), a person sees that there is no such page.
        const status = (executionFailure(result)?.status ?? 500) < 500 ? 404 : 500;
        endResponse(page(status, renderProblemPage(status)));
      },
    ),
  };
}
