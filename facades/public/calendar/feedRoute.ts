// GET /calendar/<token>.ics: the workspace's appointments as an iCalendar feed for calendar apps, which
// cannot send an API key. The secret token in the path is the credential; the route runs the public
// CalendarFeed operation through the gateway and renders its answer. Unknown or rotated tokens get 404.
import type { Plugin } from 'graphql-yoga';
import type { Gateway } from '../../core/gateway.js';
import type { CalendarFeedQuery } from '../../core/operations.generated.js';
import { executionFailure, failureOf, failureResponse, INTERNAL_FAILURE } from '../../core/executionFailure.js';
import { requestState } from '../../../infra/http/requestState.js';
import { renderCalendar } from './icalendar.js';
import { routeHook } from '../../../infra/http/routeHook.js';

/** A token is URL-safe base64 text: any other path is no feed (404), without running anything. */
const FEED_PATH = /^\/calendar\/([A-Za-z0-9_-]+)\.ics$/;

/** The path of the feed a token opens, as calendarFeedTokenRotate hands it out (app/publicUrls.ts). */
export function calendarFeedPath(token: string): string {
  return `/calendar/${token}.ics`;
}

export function useCalendarFeedRoute(gateway: Gateway): Plugin {
  return {
    onRequest: routeHook(
      ({ request, url }) => url.pathname.startsWith('/calendar/') && request.method === 'GET',
      async ({ request, url, endResponse }) => {
        const match = FEED_PATH.exec(url.pathname);
        if (!match) return endResponse(failureResponse(failureOf('NOT_FOUND', 'Calendar feed not found'), requestState(request).requestId));
        const result = await gateway.run(request, 'CalendarFeed', { token: match[1] });
        const feed = (result.data as CalendarFeedQuery | null | undefined)?.calendarFeed;
        if (!feed) return endResponse(failureResponse(executionFailure(result) ?? INTERNAL_FAILURE, requestState(request).requestId));
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
    ),
  };
}
