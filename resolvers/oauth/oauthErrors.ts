// OAuth's own error codes (RFC 6749 §5.2, RFC 7591 §3.2.2) carried on the domain error: the code maps to the
// status as every error does, and `details.oauth_error` names the OAuth error the /oauth routes answer with
// (facades/oauth/routes.ts). `redirectable` marks an authorization request error that may go back to the client.
import { DomainError } from '../shared/errors.js';

export type OAuthErrorName =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_client_metadata'
  | 'invalid_redirect_uri';

export function oauthError(name: OAuthErrorName, message: string, options: { redirectable?: boolean } = {}): DomainError {
  const code = name === 'invalid_client' ? 'UNAUTHORIZED' : 'VALIDATION_ERROR';
  return new DomainError(code, message, { oauth_error: name, ...(options.redirectable ? { redirectable: true } : {}) });
}
