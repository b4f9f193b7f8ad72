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
    operation: 'AnalyticsMessagesByCategory',
    rest: [{ operationId: 'getMessagesByCategory', method: 'GET', path: '/analytics/messages-by-category' }],
    mcp: {
      name: 'analytics_messages_by_category_summary',
      kind: 'read',
      description:
        "What messages cost over [from, to) (at most 366 days): outbound messages whose provider reported pricing (WhatsApp status webhooks' pricing object), and how many are billable, by pricing category (marketing, utility, authentication, service) and by day in the workspace's time zone (UTC unless set), with totals per category.",
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
