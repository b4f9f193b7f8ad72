// The console pages that one-time links open: the first run's setup and accepting an invitation. The token is in
// the fragment, which browsers never send to servers or in Referer headers; the page reads it and posts it.
export const SETUP_PAGE_PATH = '/setup';
export const INVITATION_PAGE_PATH = '/invite';

export function setupPageUrl(origin: string, token: string): string {
  return `${origin}${SETUP_PAGE_PATH}#${token}`;
}
