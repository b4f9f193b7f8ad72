// The public URLs that resolvers hand out (booking widget, calendar feed, provider callback, invitations): PUBLIC_BASE_URL
// followed by the path of the facade that serves each, so a path is defined once, beside its route.
import type { ProviderName } from '../adapters/providers/types.js';
import type { PublicUrls } from '../resolvers/shared/context.js';
import { bookingPagePath } from '../facades/public/booking/pageRoute.js';
import { calendarFeedPath } from '../facades/public/calendar/feedRoute.js';
import { WHATSAPP_CALLBACK_PATH } from '../facades/public/whatsapp/callback.js';
import { INVITATION_PAGE_PATH } from '../facades/auth/paths.js';
import { MCP_PATHS } from '../facades/mcp/plugin.js';

/** The sandbox speaks the WhatsApp Cloud API's webhook payloads, so both are called back at one route. */
const CALLBACK_PATHS: Record<ProviderName, string> = { whatsapp: WHATSAPP_CALLBACK_PATH, sandbox: WHATSAPP_CALLBACK_PATH };

/** `baseUrl` without a trailing slash (settings strip it); a function when it is known only once the server listens. */
export function createPublicUrls(baseUrl: string | (() => string)): PublicUrls {
  const base = typeof baseUrl === 'string' ? () => baseUrl : baseUrl;
  return {
    booking: (publicId) => `${base()}${bookingPagePath(publicId)}`,
    calendarFeed: (token) => `${base()}${calendarFeedPath(token)}`,
    providerCallback: (provider) => `${base()}${CALLBACK_PATHS[provider]}`,
    invitation: (token) => `${base()}${INVITATION_PAGE_PATH}#${token}`,
    oauthIssuer: () => base(),
    mcpResource: () => `${base()}${MCP_PATHS.streamable}`,
  };
}
