// Where the event feed (events.graphql) is exposed: GET /api/v1/events and the MCP tool events_list, under the
// webhooks scope. Each item is the webhook envelope, its fields in the order of the webhook body.
import type { FacadeEntry } from '../core/table.js';

export const EVENTS: readonly FacadeEntry[] = [
  {
    operation: 'Events',
    rest: [{ operationId: 'listEvents', method: 'GET', path: '/events' }],
    mcp: {
      name: 'events_list',
      kind: 'read',
      description:
        "List the workspace's events (the webhook envelopes) oldest first; pass the id of the last event seen as after to get exactly those that followed. Filter with type (comma-separated).",
    },
  },
];
