// The OAuth consent page (/oauth/consent, where /oauth/authorize sends the person): which app asks, where it sends
// the person back, the workspace, and the scopes on offer (only those the person's role allows, all checked). Approve
// or deny both ask the service, which checks the request again and answers where the browser goes next.
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { Button, ErrorNote, checkedValues } from '../../ui.js';

type Consent = {
  client_id: string;
  client_name: string;
  redirect_host: string;
  workspace_name: string;
  requested_scopes: string[];
  grantable_scopes: string[];
};

const CONSENT = gql`
  query OAuthConsent($request: OAuthAuthorizationRequest!) {
    oauthConsent(request: $request) { client_id client_name redirect_host workspace_name requested_scopes grantable_scopes }
  }
`;
const APPROVE = gql`
  mutation OAuthApprove($request: OAuthAuthorizationRequest!, $scopes: [String!]!) {
    oauthApprove(request: $request, scopes: $scopes) { redirect_to }
  }
`;
const DENY = gql`
  mutation OAuthDeny($request: OAuthAuthorizationRequest!) {
    oauthDeny(request: $request) { redirect_to }
  }
`;

const PARAMETERS = ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'scope', 'state', 'resource'];

function requestFromQuery(): Record<string, string> {
  const query = new URLSearchParams(window.location.search);
  const request: Record<string, string> = { response_type: '', client_id: '', redirect_uri: '' };
  for (const name of PARAMETERS) {
    const value = query.get(name);
    if (value !== null) request[name] = value;
  }
  return request;
}

export function ConsentPage() {
  const request = requestFromQuery();
  const [asked] = useQuery<{ oauthConsent: Consent }>({ query: CONSENT, variables: { request } });
  const [approving, approve] = useMutation<{ oauthApprove: { redirect_to: string } }>(APPROVE);
  const [denying, deny] = useMutation<{ oauthDeny: { redirect_to: string } }>(DENY);
  const consent = asked.data?.oauthConsent;
  const leave = (to: string | undefined) => {
    if (to) window.location.assign(to);
  };
  return (
    <main class="auth" id="main">
      <h1>Connect an app</h1>
      <ErrorNote error={asked.error ?? approving.error ?? denying.error} />
      {consent ? (
        <form
          aria-label="Authorization request"
          onSubmit={(event) => {
            event.preventDefault();
            void approve({ request, scopes: checkedValues(event.currentTarget, 'scopes') }).then((answer) =>
              leave(answer.data?.oauthApprove.redirect_to),
            );
          }}
        >
          <p>
            <strong>{consent.client_name}</strong> wants to use the MCP server of <strong>{consent.workspace_name}</strong> as you.
          </p>
          <p>
            After your answer you go back to <strong>{consent.redirect_host}</strong>.
          </p>
          <fieldset>
            <legend>What it may do (never more than your role allows)</legend>
            {consent.grantable_scopes.map((scope) => (
              <label key={scope} class="check">
                <input type="checkbox" name="scopes" value={scope} defaultChecked /> {scope}
              </label>
            ))}
          </fieldset>
          {consent.requested_scopes.length > consent.grantable_scopes.length ? (
            <p class="hint">
              Your role does not allow: {consent.requested_scopes.filter((scope) => !consent.grantable_scopes.includes(scope)).join(', ')}.
            </p>
          ) : null}
          <Button type="submit" busy={approving.fetching}>
            Approve
          </Button>{' '}
          <button type="button" onClick={() => void deny({ request }).then((answer) => leave(answer.data?.oauthDeny.redirect_to))}>
            Deny
          </button>
        </form>
      ) : null}
    </main>
  );
}
