// Where the OAuth authorization server and the MCP server's protected resource metadata are served, and the
// challenge a 401 from /mcp carries (RFC 9728 §5.1): the metadata's URL and the scopes to ask for.
import { KEY_SCOPES } from '../../resolvers/workspace/scopes.js';

export const OAUTH_PATHS = {
  protectedResource: '/.well-known/oauth-protected-resource',
  protectedResourceMcp: '/.well-known/oauth-protected-resource/mcp',
  authorizationServer: '/.well-known/oauth-authorization-server',
  openidConfiguration: '/.well-known/openid-configuration',
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
  /** The console's consent page (console/pages/oauth/consent.tsx). */
  consent: '/oauth/consent',
} as const;

/** `issuer` is the service's public origin (PUBLIC_BASE_URL). */
export function mcpChallenge(issuer: string): string {
  return `Bearer resource_metadata="${issuer}${OAUTH_PATHS.protectedResourceMcp}", scope="${KEY_SCOPES.join(' ')}"`;
}
