// Where the reports operations (reports.graphql) are exposed: one GET route and one read tool per report.
import type { FacadeEntry } from '../core/table.js';

const FILTERS = '[from, to) in the workspace time zone (or time_zone), optionally by assignee_user_id, team_id, tag_id, channel';

export const REPORTS: readonly FacadeEntry[] = [
  {
    operation: 'ReportConversations',
    rest: [{ operationId: 'getReportConversations', method: 'GET', path: '/reports/conversations' }],
    mcp: {
      name: 'reports_conversations_summary',
      kind: 'read',
      description: `Conversations opened, closed, reopened, messages in and out, first response and resolution time (median, p90; calendar and business hours) over ${FILTERS}: totals, the previous period and a series by interval (hour, day, week).`,
    },
  },
  {
    operation: 'ReportPeople',
    rest: [{ operationId: 'getReportPeople', method: 'GET', path: '/reports/people' }],
    mcp: {
      name: 'reports_people_summary',
      kind: 'read',
      description: `Per team member over ${FILTERS}: conversations handled, first response and resolution (median, p90), open now.`,
    },
  },
  {
    operation: 'ReportAgent',
    rest: [{ operationId: 'getReportAgent', method: 'GET', path: '/reports/agent' }],
    mcp: {
      name: 'reports_agent_summary',
      kind: 'read',
      description: `The AI agent over ${FILTERS}: conversations answered, handed off by reason, closed without a person, its shares.`,
    },
  },
  {
    operation: 'ReportCampaigns',
    rest: [{ operationId: 'getReportCampaigns', method: 'GET', path: '/reports/campaigns' }],
    mcp: {
      name: 'reports_campaigns_summary',
      kind: 'read',
      description:
        'Per campaign with messages sent or failed in [from, to): sent, delivered, read, replied within 24 h, failed by error code.',
    },
  },
  {
    operation: 'ReportTemplates',
    rest: [{ operationId: 'getReportTemplates', method: 'GET', path: '/reports/templates' }],
    mcp: {
      name: 'reports_templates_summary',
      kind: 'read',
      description: `Per template and language over ${FILTERS}: sends, delivered, read, read rate, replies within 24 h, failed.`,
    },
  },
];
