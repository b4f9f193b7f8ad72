// Where the workspace's settings operations (workspace.graphql) are exposed.
import type { FacadeEntry } from '../core/table.js';

export const WORKSPACE: readonly FacadeEntry[] = [
  {
    operation: 'BusinessHoursGet',
    rest: [{ operationId: 'getBusinessHours', method: 'GET', path: '/business-hours' }],
    mcp: {
      name: 'workspace_business_hours_get',
      kind: 'read',
      description: "Read the workspace's business hours: time zone, weekly windows, holidays, and whether it is open now.",
    },
  },
  {
    operation: 'BusinessHoursUpdate',
    rest: [{ operationId: 'updateBusinessHours', method: 'PATCH', path: '/business-hours' }],
    mcp: {
      name: 'workspace_business_hours_update',
      kind: 'destructive',
      description:
        'Set the business hours: time_zone (IANA), hours [{weekday, start "HH:MM", end "HH:MM" or "24:00"}] and holidays [{date, name}]; each list replaces the old one.',
    },
  },
];
