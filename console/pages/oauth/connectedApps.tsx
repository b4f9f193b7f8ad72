// Settings → Connected apps: the AI assistants people connected by OAuth, each with the person it acts as, its
// scopes and last use. Disconnecting revokes its grant: its tokens stop working at once. Owners and admins see every
// app of the workspace, members their own (the API decides).
import { gql } from '@urql/core';
import { useMutation, useQuery } from '@urql/preact';
import { EmptyNote, ErrorNote, ListTable, Page, Time } from '../../ui.js';

type App = {
  id: string;
  client_name: string;
  client_id: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  user: { name: string | null; email: string };
};

const APPS = gql`
  query ConnectedApps {
    connectedApps { id client_id client_name scopes created_at last_used_at user { name email } }
  }
`;
const DISCONNECT = gql`
  mutation ConnectedAppDisconnect($id: ID!) {
    connectedAppDisconnect(id: $id) { id }
  }
`;

export function ConnectedAppsPage() {
  const [listed, refresh] = useQuery<{ connectedApps: App[] }>({ query: APPS });
  const [disconnecting, disconnect] = useMutation(DISCONNECT);
  const refetch = () => refresh({ requestPolicy: 'network-only' });
  return (
    <Page title="Connected apps">
      <ErrorNote error={listed.error ?? disconnecting.error} />
      <EmptyNote items={listed.data?.connectedApps}>
        No app is connected. An AI assistant connects by its MCP server URL; you approve it on a consent page.
      </EmptyNote>
      <ListTable label="Connected apps" columns={['App', 'Acts as', 'Scopes', 'Connected', 'Last used', '']}>
        {listed.data?.connectedApps.map((app) => (
          <tr key={app.id}>
            <td title={app.client_id}>{app.client_name}</td>
            <td>{app.user.name ?? app.user.email}</td>
            <td>{app.scopes.join(', ')}</td>
            <td>
              <Time value={app.created_at} />
            </td>
            <td>
              <Time value={app.last_used_at} />
            </td>
            <td>
              <button
                type="button"
                onClick={() => {
                  if (confirm(`Disconnect “${app.client_name}”? Its tokens stop working at once.`))
                    void disconnect({ id: app.id }).then(refetch);
                }}
              >
                Disconnect
              </button>
            </td>
          </tr>
        ))}
      </ListTable>
    </Page>
  );
}
