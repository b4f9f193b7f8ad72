// Where the campaign operations (campaigns.graphql) are exposed (docs/api-decisions.md, "Campaigns"): lifecycle
// actions are POSTs on the campaign, refused with 409 INVALID_TRANSITION from the wrong status.
import type { ErrorCode } from '../../resolvers/shared/errors.js';
import type { FacadeEntry } from '../core/table.js';

/** What checking a campaign's template against its integration can answer (create, edit, schedule, start, resume). */
const CAMPAIGN_SEND_ERRORS: readonly ErrorCode[] = ['INTEGRATION_NOT_FOUND', 'TEMPLATE_NOT_APPROVED', 'PROVIDER_ERROR'];

export const CAMPAIGNS: readonly FacadeEntry[] = [
  {
    operation: 'CampaignsList',
    rest: [{ operationId: 'listCampaigns', method: 'GET', path: '/campaigns' }],
    mcp: {
      name: 'campaigns_list',
      kind: 'read',
      description:
        'List campaigns, newest first, with their status and progress (recipients by status); filter by status (draft, scheduled, running, paused, completed, cancelled).',
    },
  },
  {
    operation: 'CampaignAudienceCount',
    rest: [{ operationId: 'countCampaignAudience', method: 'GET', path: '/campaigns/audience-count' }],
    mcp: {
      name: 'campaigns_audience_summary',
      kind: 'read',
      description:
        'Count the contacts an audience by tags and fields holds now, without creating a campaign: audience_tag_ids (any or all, by audience_tag_match) and audience_conditions (each `marketing_consent=<opted_in|opted_out|unknown>`, `metadata.<key>=<value>`, or != for not equal). Answers total, no_address (skipped), opted_out (skipped by a MARKETING template), sendable and sendable_marketing.',
    },
  },
  {
    operation: 'CampaignCreate',
    rest: [
      {
        operationId: 'createCampaign',
        method: 'POST',
        path: '/campaigns',
        status: 201,
        errors: ['NOT_FOUND', ...CAMPAIGN_SEND_ERRORS],
      },
    ],
    mcp: {
      name: 'campaigns_create',
      kind: 'write',
      description:
        'Create a draft campaign: a name, an APPROVED template {name, language, parameters} and one audience: audience_tag_id (the contacts with that tag when it starts), audience_contact_ids, or tags and fields (audience_tag_ids with audience_tag_match any|all, and audience_conditions as in campaigns_audience_summary). Optional send_rate_per_minute and integration_id. Nothing is sent until campaigns_start or campaigns_schedule.',
    },
  },
  {
    operation: 'CampaignGet',
    rest: [{ operationId: 'getCampaign', method: 'GET', path: '/campaigns/{id}' }],
    mcp: {
      name: 'campaigns_get',
      kind: 'read',
      description:
        "Get one campaign: its template, audience, send rate, lifecycle times, progress, why the runner paused it if it did, and waiting_reason while a limit of its number holds it (throughput, pair_rate: one message per recipient per 6 s, messaging_limit_tier: the tier's unique recipients per rolling 24 h); it resumes by itself at next_send_at.",
    },
  },
  {
    operation: 'CampaignUpdate',
    rest: [
      {
        operationId: 'updateCampaign',
        method: 'PATCH',
        path: '/campaigns/{id}',
        errors: ['INVALID_TRANSITION', ...CAMPAIGN_SEND_ERRORS],
      },
    ],
    mcp: {
      name: 'campaigns_update',
      kind: 'destructive',
      description:
        'Change a draft campaign; omitted fields stay, null clears (the rate falls back to the default). Only drafts can be changed.',
    },
  },
  {
    operation: 'CampaignDelete',
    rest: [{ operationId: 'deleteCampaign', method: 'DELETE', path: '/campaigns/{id}', errors: ['INVALID_TRANSITION'] }],
    mcp: {
      name: 'campaigns_delete',
      kind: 'destructive',
      description: 'Delete a draft, completed or cancelled campaign with its recipient results (cancel a live one first).',
    },
  },
  {
    operation: 'CampaignSchedule',
    rest: [
      {
        operationId: 'scheduleCampaign',
        method: 'POST',
        path: '/campaigns/{id}/schedule',
        errors: ['INVALID_TRANSITION', ...CAMPAIGN_SEND_ERRORS],
      },
    ],
    mcp: {
      name: 'campaigns_schedule',
      kind: 'destructive',
      description: 'Schedule a draft campaign to start at scheduled_at (ISO 8601, in the future); scheduling again moves the time.',
    },
  },
  {
    operation: 'CampaignStart',
    rest: [
      {
        operationId: 'startCampaign',
        method: 'POST',
        path: '/campaigns/{id}/start',
        errors: ['INVALID_TRANSITION', ...CAMPAIGN_SEND_ERRORS],
      },
    ],
    mcp: {
      name: 'campaigns_start',
      kind: 'destructive',
      description:
        "Start a draft or scheduled campaign now: its audience is fixed and messages go out in the background at its send rate, never faster than its number's throughput_per_second, at most one message per recipient per 6 s, and within the number's messaging-limit tier (unique recipients per rolling 24 h); a campaign that meets a limit waits (waiting_reason) and goes on by itself. A MARKETING campaign skips contacts who opted out (counted in skipped_opted_out); an undeliverable recipient (131026) or one capped by Meta (131049) fails on its own. Follow progress with campaigns_get.",
    },
  },
  {
    operation: 'CampaignPause',
    rest: [{ operationId: 'pauseCampaign', method: 'POST', path: '/campaigns/{id}/pause', errors: ['INVALID_TRANSITION'] }],
    mcp: { name: 'campaigns_pause', kind: 'destructive', description: 'Pause a running campaign before its next send.' },
  },
  {
    operation: 'CampaignResume',
    rest: [
      {
        operationId: 'resumeCampaign',
        method: 'POST',
        path: '/campaigns/{id}/resume',
        errors: ['INVALID_TRANSITION', ...CAMPAIGN_SEND_ERRORS],
      },
    ],
    mcp: {
      name: 'campaigns_resume',
      kind: 'destructive',
      description: 'Resume a paused campaign; recipients already sent are never sent again.',
    },
  },
  {
    operation: 'CampaignCancel',
    rest: [{ operationId: 'cancelCampaign', method: 'POST', path: '/campaigns/{id}/cancel', errors: ['INVALID_TRANSITION'] }],
    mcp: {
      name: 'campaigns_cancel',
      kind: 'destructive',
      description: 'Cancel a campaign that has not finished; recipients not yet sent are marked cancelled. Cannot be undone.',
    },
  },
  {
    operation: 'CampaignRecipientsList',
    rest: [{ operationId: 'listCampaignRecipients', method: 'GET', path: '/campaigns/{campaign_id}/recipients' }],
    mcp: {
      name: 'campaigns_recipients_list',
      kind: 'read',
      description:
        "List a campaign's recipients in send order with each one's status (pending, sending, sent, delivered, read, failed, skipped, cancelled), message id and error; filter by status.",
    },
  },
  {
    operation: 'CampaignExport',
    rest: [
      { operationId: 'exportCampaign', method: 'GET', path: '/campaigns/{id}/export' },
      { operationId: 'downloadCampaignExport', method: 'GET', path: '/campaigns/{id}/export.csv', file: 'csv' },
    ],
    mcp: {
      name: 'campaigns_export',
      kind: 'read',
      description:
        "A campaign's results as CSV text, a page of up to 5000 recipients at a time (one row per recipient: contact, status, message id, error, times), with a filename and content type; the first page starts with the header row, and next_cursor gives the next page.",
    },
  },
];
