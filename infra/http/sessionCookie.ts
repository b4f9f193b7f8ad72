// The console's session cookie: its name and attributes in one place, read and written with the `cookie`
// package. HttpOnly (scripts never see the token), Secure (the service is HTTPS only), SameSite=Lax (other
// sites' forms and scripts do not carry it; links into the console still do).
import { parseCookie, stringifySetCookie } from 'cookie';

export const SESSION_COOKIE = 'mcrm_session';
/** The header a cookie-authenticated write must carry, equal to the session's CSRF token. */
export const CSRF_HEADER = 'x-csrf-token';

export function sessionTokenOf(request: Request): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  return parseCookie(header)[SESSION_COOKIE] ?? null;
}

export function sessionCookie(token: string, expires: Date): string {
  return stringifySetCookie({ name: SESSION_COOKIE, value: token, httpOnly: true, secure: true, sameSite: 'lax', path: '/', expires });
}

export function clearedSessionCookie(): string {
  return stringifySetCookie({ name: SESSION_COOKIE, value: '', httpOnly: true, secure: true, sameSite: 'lax', path: '/', maxAge: 0 });
}
