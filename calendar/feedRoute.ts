// GET /calendar/<token>.ics: the workspace's appointments as an iCalendar feed for calendar apps, which
// cannot send an API key. The secret token in the path is the credential; the route runs the public
// CalendarFeed operation through the gateway and renders its answer. Unknown or rotated tokens get 404.
import type { Plugin } from 'graphql-yoga';
import type { Gateway } from '../facades/gateway.js';
import { operation } from '../facades/operations.js';
import type { CalendarFeedQuery } from '../facades/operations.generated.js';
import { errorResponse } from '../app/errorResponse.js';
import { requestState } from '../app/requestState.js';
import { renderCalendar } from './icalendar.js';

const FEED_PATH = /^\/calendar\/([^/]+)\.ics$/;

export function useCalendarFeedRoute(gateway: Gateway): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      const match = FEED_PATH.exec(url.pathname);
      if (!match || request.method !== 'GET') return;
      const result = await gateway.execute({
        request,
        document: operation('CalendarFeed'),
        operationName: 'CalendarFeed',
        variables: { token: decodeURIComponent(match[1] ?? '') },
      });
      const feed = (result.data as CalendarFeedQuery | null | undefined)?.calendarFeed;
      if (!feed) {
        const error = result.errors?.[0];
        const extensions = (error?.extensions ?? {}) as { code?: string; http?: { status?: number } };
        endResponse(
          errorResponse(extensions.http?.status ?? 500, extensions.code ?? 'INTERNAL', error?.message ?? 'Unexpected server error', {
            requestId: requestState(request).requestId,
          }),
        );
        return;
      }
      endResponse(
        new Response(renderCalendar(feed), {
          status: 200,
          headers: {
            'content-type': 'text/calendar; charset=utf-8',
            'content-disposition': 'inline; filename="appointments.ics"',
            'cache-control': 'private, no-cache',
          },
        }),
      );
    },
  };
}
