// Where the analytics operations (analytics.graphql) are exposed.
import type { FacadeEntry } from '../core/table.js';

export const ANALYTICS: readonly FacadeEntry[] = [
  {
    operation: 'AnalyticsSummary',
    rest: [{ operationId: 'getAnalyticsSummary', method: 'GET', path: '/analytics/summary' }],
    mcp: {
      name: 'analytics_summary',
      kind: 'read',
      description:
        'Conversation and message metrics over [from, to): counts by status and direction, first-response and resolution times, delivery and read rates, per assignee.',
    },
  },
  {
    operation: 'AnalyticsExport',
    rest: [{ operationId: 'exportAnalytics', method: 'GET', path: '/analytics/export' }],
    mcp: {
      name: 'analytics_export',
      kind: 'read',
      description: 'The analytics summary over [from, to) as CSV text, with a filename and content type.',
    },
  },
];
