// The REST surface under /api/v1, as data: each route names the GraphQL field that serves it. sofa-api turns
// every entry into an HTTP handler (facades/rest/sofaRoutes.ts) and the same table generates the OpenAPI
// document (facades/rest/openapi.ts). Adding a route over an existing GraphQL field is one entry here.
import type { ErrorCode } from '../../resolvers/errors.js';

export const REST_BASE_PATH = '/api/v1';

/** GET runs a Query field; the others run Mutation fields. */
export type RestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Methods whose arguments (beyond the path) come from a JSON object body; GET and DELETE read the query string. */
export function readsBody(method: RestMethod): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH';
}

/** Where the guide form of a list response puts its items (see GUIDE_MEDIA_TYPE in README). */
export type GuideKey = 'conversations' | 'customers' | 'users' | 'templates' | 'tags';

export type RestRoute = {
  /** The OpenAPI operationId. */
  operationId: string;
  method: RestMethod;
  /** Under REST_BASE_PATH; `{name}` segments are path parameters named as the field's arguments. */
  path: string;
  /** The GraphQL root field that answers, `Query.<field>` or `Mutation.<field>`. */
  field: `${'Query' | 'Mutation'}.${string}`;
  /** Success status; 200 unless given. */
  status?: 200 | 201;
  /** The key of the guide form `{<key>: [...], hasMore}`, for list routes the guides describe. */
  guideKey?: GuideKey;
  /** Error codes this route answers beyond those every route documents (400, 401, 403, 405, 415, and 404 when
   * the path names a record by id); each is documented with its status and the OpenAPI test provokes it. */
  errors?: readonly ErrorCode[];
  /** The named operation (facades/operations/*.graphql) whose selection answers, for a route whose MCP tool
   * selects less than every field (lists that leave out large fields); its variables must be the field's
   * arguments. Without it the route answers every argument-less field. */
  selection?: string;
  /** A deprecated alias: when it was deprecated and the path of the route that replaces it. */
  deprecated?: { since: Date; successor: string };
};

/** The customers routes were published already deprecated in favour of the contacts routes (RFC 9745 date). */
const CUSTOMERS_DEPRECATED_SINCE = new Date('2026-01-01T00:00:00Z');

const TEMPLATE_ERRORS: readonly ErrorCode[] = ['INTEGRATION_NOT_FOUND', 'PROVIDER_ERROR'];
/** What checking a campaign's template against its integration can answer (create, edit, schedule, start, resume). */
const CAMPAIGN_SEND_ERRORS: readonly ErrorCode[] = ['INTEGRATION_NOT_FOUND', 'TEMPLATE_NOT_APPROVED', 'PROVIDER_ERROR'];

export const REST_ROUTES: readonly RestRoute[] = [
  { operationId: 'listUsers', method: 'GET', path: '/users', field: 'Query.users', guideKey: 'users' },

  {
    operationId: 'listConversations',
    method: 'GET',
    path: '/conversations',
    field: 'Query.conversations',
    guideKey: 'conversations',
  },
  {
    operationId: 'searchConversations',
    method: 'GET',
    path: '/conversations/search',
    field: 'Query.conversationSearch',
    guideKey: 'conversations',
  },
  { operationId: 'getConversation', method: 'GET', path: '/conversations/{id}', field: 'Query.conversation' },
  { operationId: 'updateConversation', method: 'PATCH', path: '/conversations/{id}', field: 'Mutation.conversationUpdate' },
  {
    operationId: 'closeConversation',
    method: 'POST',
    path: '/conversations/{id}/close',
    field: 'Mutation.conversationClose',
    errors: ['INVALID_TRANSITION'],
  },
  {
    operationId: 'reopenConversation',
    method: 'POST',
    path: '/conversations/{id}/reopen',
    field: 'Mutation.conversationReopen',
    errors: ['INVALID_TRANSITION'],
  },
  {
    operationId: 'listConversationNotes',
    method: 'GET',
    path: '/conversations/{conversation_id}/notes',
    field: 'Query.conversationNotes',
  },
  {
    operationId: 'createConversationNote',
    method: 'POST',
    path: '/conversations/{conversation_id}/notes',
    field: 'Mutation.conversationNoteCreate',
    status: 201,
  },
  { operationId: 'updateConversationNote', method: 'PATCH', path: '/conversations/notes/{id}', field: 'Mutation.conversationNoteUpdate' },
  { operationId: 'deleteConversationNote', method: 'DELETE', path: '/conversations/notes/{id}', field: 'Mutation.conversationNoteDelete' },
  {
    operationId: 'listConversationSummaries',
    method: 'GET',
    path: '/conversations/{conversation_id}/summaries',
    field: 'Query.conversationSummaries',
  },
  {
    operationId: 'createConversationSummary',
    method: 'POST',
    path: '/conversations/{conversation_id}/summaries',
    field: 'Mutation.conversationSummaryCreate',
    status: 201,
  },
  {
    operationId: 'updateConversationSummary',
    method: 'PATCH',
    path: '/conversations/summaries/{id}',
    field: 'Mutation.conversationSummaryUpdate',
  },
  {
    operationId: 'deleteConversationSummary',
    method: 'DELETE',
    path: '/conversations/summaries/{id}',
    field: 'Mutation.conversationSummaryDelete',
  },

  { operationId: 'listContacts', method: 'GET', path: '/contacts', field: 'Query.contacts', guideKey: 'customers' },
  {
    operationId: 'createContact',
    method: 'POST',
    path: '/contacts',
    field: 'Mutation.contactCreate',
    status: 201,
    errors: ['CONFLICT'],
  },
  {
    operationId: 'searchContacts',
    method: 'GET',
    path: '/contacts/search',
    field: 'Query.contactSearch',
    guideKey: 'customers',
  },
  { operationId: 'importContacts', method: 'POST', path: '/contacts/import', field: 'Mutation.contactsBulkImport' },
  { operationId: 'getContact', method: 'GET', path: '/contacts/{id}', field: 'Query.contact' },
  { operationId: 'updateContact', method: 'PATCH', path: '/contacts/{id}', field: 'Mutation.contactUpdate', errors: ['CONFLICT'] },
  { operationId: 'deleteContact', method: 'DELETE', path: '/contacts/{id}', field: 'Mutation.contactDelete' },
  {
    operationId: 'listContactChannels',
    method: 'GET',
    path: '/contacts/{customer_id}/channels',
    field: 'Query.contactChannels',
  },
  {
    operationId: 'addContactChannel',
    method: 'POST',
    path: '/contacts/{customer_id}/channels',
    field: 'Mutation.contactChannelAdd',
    status: 201,
    errors: ['CONFLICT'],
  },
  {
    operationId: 'removeContactChannel',
    method: 'DELETE',
    path: '/contacts/channels/{id}',
    field: 'Mutation.contactChannelRemove',
  },
  { operationId: 'assignTag', method: 'PUT', path: '/contacts/{customer_id}/tags/{tag_id}', field: 'Mutation.tagAssign' },
  { operationId: 'unassignTag', method: 'DELETE', path: '/contacts/{customer_id}/tags/{tag_id}', field: 'Mutation.tagUnassign' },

  {
    operationId: 'listCustomers',
    method: 'GET',
    path: '/customers',
    field: 'Query.contacts',
    guideKey: 'customers',
    deprecated: { since: CUSTOMERS_DEPRECATED_SINCE, successor: '/contacts' },
  },
  {
    operationId: 'searchCustomers',
    method: 'GET',
    path: '/customers/search',
    field: 'Query.contactSearch',
    guideKey: 'customers',
    deprecated: { since: CUSTOMERS_DEPRECATED_SINCE, successor: '/contacts/search' },
  },
  {
    operationId: 'getCustomer',
    method: 'GET',
    path: '/customers/{id}',
    field: 'Query.contact',
    deprecated: { since: CUSTOMERS_DEPRECATED_SINCE, successor: '/contacts/{id}' },
  },

  { operationId: 'listTags', method: 'GET', path: '/tags', field: 'Query.tags', guideKey: 'tags' },
  { operationId: 'createTag', method: 'POST', path: '/tags', field: 'Mutation.tagCreate', status: 201, errors: ['CONFLICT'] },

  // The spec's /api/v1/chat/templates: "chat" stands for the provider's name (`sandbox`, `whatsapp`).
  {
    operationId: 'listProviderTemplates',
    method: 'GET',
    path: '/{provider}/templates',
    field: 'Query.templates',
    guideKey: 'templates',
    errors: TEMPLATE_ERRORS,
  },
  {
    operationId: 'listTemplates',
    method: 'GET',
    path: '/templates',
    field: 'Query.templates',
    guideKey: 'templates',
    errors: TEMPLATE_ERRORS,
  },
  {
    operationId: 'sendMessage',
    method: 'POST',
    path: '/messages',
    field: 'Mutation.messageSend',
    status: 201,
    errors: [
      'NOT_FOUND',
      'INTEGRATION_NOT_FOUND',
      'CONVERSATION_CLOSED',
      'IDEMPOTENCY_KEY_IN_USE',
      'IDEMPOTENCY_KEY_REUSED',
      'MESSAGING_WINDOW_CLOSED',
      'TEMPLATE_NOT_APPROVED',
      'PROVIDER_ERROR',
    ],
  },

  // Webhook subscriptions: deletes, tests and redeliveries answer 200 with the record, like every other write.
  { operationId: 'listWebhooks', method: 'GET', path: '/webhooks', field: 'Query.webhooks' },
  {
    operationId: 'createWebhook',
    method: 'POST',
    path: '/webhooks',
    field: 'Mutation.webhookCreate',
    status: 201,
  },
  { operationId: 'getWebhook', method: 'GET', path: '/webhooks/{id}', field: 'Query.webhook' },
  { operationId: 'updateWebhook', method: 'PATCH', path: '/webhooks/{id}', field: 'Mutation.webhookUpdate' },
  { operationId: 'deleteWebhook', method: 'DELETE', path: '/webhooks/{id}', field: 'Mutation.webhookDelete' },
  { operationId: 'rotateWebhookSecret', method: 'POST', path: '/webhooks/{id}/rotate-secret', field: 'Mutation.webhookRotateSecret' },
  {
    operationId: 'testWebhook',
    method: 'POST',
    path: '/webhooks/{id}/test',
    field: 'Mutation.webhookTest',
    errors: ['INVALID_TRANSITION'],
  },
  {
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/webhooks/{subscription_id}/deliveries',
    field: 'Query.webhookDeliveries',
  },
  { operationId: 'getWebhookDelivery', method: 'GET', path: '/webhooks/deliveries/{id}', field: 'Query.webhookDelivery' },
  {
    operationId: 'redeliverWebhook',
    method: 'POST',
    path: '/webhooks/deliveries/{id}/redeliver',
    field: 'Mutation.webhookRedeliver',
    errors: ['INVALID_TRANSITION'],
  },

  // Scheduling, knowledge and analytics (docs/api-decisions.md, "Scheduling, knowledge, analytics"): each route
  // answers with the selection of the named operation its MCP tool runs.
  {
    operationId: 'getSchedulingSettings',
    method: 'GET',
    path: '/scheduling/settings',
    field: 'Query.schedulingSettings',
    selection: 'SchedulingSettingsGet',
  },
  {
    operationId: 'updateSchedulingSettings',
    method: 'PATCH',
    path: '/scheduling/settings',
    field: 'Mutation.schedulingSettingsUpdate',
    selection: 'SchedulingSettingsUpdate',
  },
  {
    operationId: 'getWidgetEmbed',
    method: 'GET',
    path: '/scheduling/widget',
    field: 'Query.widgetEmbed',
    selection: 'WidgetEmbedGet',
  },
  {
    operationId: 'listAppointmentTypes',
    method: 'GET',
    path: '/appointment-types',
    field: 'Query.appointmentTypes',
    selection: 'AppointmentTypesList',
  },
  {
    operationId: 'createAppointmentType',
    method: 'POST',
    path: '/appointment-types',
    field: 'Mutation.appointmentTypeCreate',
    status: 201,
    selection: 'AppointmentTypeCreate',
  },
  {
    operationId: 'getAppointmentType',
    method: 'GET',
    path: '/appointment-types/{id}',
    field: 'Query.appointmentType',
    selection: 'AppointmentTypeGet',
  },
  {
    operationId: 'updateAppointmentType',
    method: 'PATCH',
    path: '/appointment-types/{id}',
    field: 'Mutation.appointmentTypeUpdate',
    selection: 'AppointmentTypeUpdate',
  },
  {
    operationId: 'deleteAppointmentType',
    method: 'DELETE',
    path: '/appointment-types/{id}',
    field: 'Mutation.appointmentTypeDelete',
    selection: 'AppointmentTypeDelete',
    errors: ['CONFLICT'],
  },
  {
    operationId: 'listAppointments',
    method: 'GET',
    path: '/appointments',
    field: 'Query.appointments',
    selection: 'AppointmentsList',
  },
  {
    operationId: 'bookAppointment',
    method: 'POST',
    path: '/appointments',
    field: 'Mutation.appointmentBook',
    status: 201,
    errors: ['NOT_FOUND', 'CONFLICT'],
    selection: 'AppointmentBook',
  },
  {
    operationId: 'getAppointment',
    method: 'GET',
    path: '/appointments/{id}',
    field: 'Query.appointment',
    selection: 'AppointmentGet',
  },
  {
    operationId: 'updateAppointment',
    method: 'PATCH',
    path: '/appointments/{id}',
    field: 'Mutation.appointmentUpdate',
    selection: 'AppointmentUpdate',
    errors: ['CONFLICT', 'INVALID_TRANSITION'],
  },
  {
    operationId: 'cancelAppointment',
    method: 'POST',
    path: '/appointments/{id}/cancel',
    field: 'Mutation.appointmentCancel',
    selection: 'AppointmentCancel',
    errors: ['INVALID_TRANSITION'],
  },
  {
    operationId: 'listCalendarSlots',
    method: 'GET',
    path: '/calendar/slots',
    field: 'Query.calendarSlots',
    errors: ['NOT_FOUND'],
    selection: 'CalendarSlotsList',
  },
  {
    operationId: 'rotateCalendarFeedToken',
    method: 'POST',
    path: '/calendar/feed-token/rotate',
    field: 'Mutation.calendarFeedTokenRotate',
    selection: 'CalendarFeedTokenRotate',
  },
  // Key-less: the public booking page's API (docs/api-decisions.md, "Booking page"), over public GraphQL fields;
  // app/plugins.ts lets it pass without a key and the edge counts it per client address.
  {
    operationId: 'getBookingPage',
    method: 'GET',
    path: '/public/booking/{public_id}',
    field: 'Query.bookingPage',
    errors: ['NOT_FOUND'],
    selection: 'BookingPageGet',
  },
  {
    operationId: 'listBookingPageSlots',
    method: 'GET',
    path: '/public/booking/{public_id}/slots',
    field: 'Query.bookingPageSlots',
    errors: ['NOT_FOUND'],
    selection: 'BookingPageSlots',
  },
  {
    operationId: 'bookOnBookingPage',
    method: 'POST',
    path: '/public/booking/{public_id}/appointments',
    field: 'Mutation.bookingPageBook',
    status: 201,
    errors: ['NOT_FOUND', 'CONFLICT'],
    selection: 'BookingPageBook',
  },
  {
    operationId: 'listKnowledgeDocuments',
    method: 'GET',
    path: '/knowledge/documents',
    field: 'Query.knowledgeDocuments',
    selection: 'KnowledgeDocumentsList',
  },
  {
    operationId: 'createKnowledgeDocument',
    method: 'POST',
    path: '/knowledge/documents',
    field: 'Mutation.knowledgeDocumentCreate',
    status: 201,
    errors: ['PAYLOAD_TOO_LARGE'],
    selection: 'KnowledgeDocumentCreate',
  },
  {
    operationId: 'uploadKnowledgeDocument',
    method: 'POST',
    path: '/knowledge/documents/upload',
    field: 'Mutation.knowledgeDocumentUpload',
    status: 201,
    errors: ['PAYLOAD_TOO_LARGE'],
    selection: 'KnowledgeDocumentUpload',
  },
  {
    operationId: 'getKnowledgeDocument',
    method: 'GET',
    path: '/knowledge/documents/{id}',
    field: 'Query.knowledgeDocument',
    selection: 'KnowledgeDocumentGet',
  },
  {
    operationId: 'updateKnowledgeDocument',
    method: 'PATCH',
    path: '/knowledge/documents/{id}',
    field: 'Mutation.knowledgeDocumentUpdate',
    selection: 'KnowledgeDocumentUpdate',
    errors: ['PAYLOAD_TOO_LARGE'],
  },
  {
    operationId: 'deleteKnowledgeDocument',
    method: 'DELETE',
    path: '/knowledge/documents/{id}',
    field: 'Mutation.knowledgeDocumentDelete',
    selection: 'KnowledgeDocumentDelete',
  },
  {
    operationId: 'searchKnowledge',
    method: 'GET',
    path: '/knowledge/search',
    field: 'Query.knowledgeSearch',
    selection: 'KnowledgeSearch',
  },
  {
    operationId: 'getAnalyticsSummary',
    method: 'GET',
    path: '/analytics/summary',
    field: 'Query.analyticsSummary',
    selection: 'AnalyticsSummary',
  },
  {
    operationId: 'exportAnalytics',
    method: 'GET',
    path: '/analytics/export',
    field: 'Query.analyticsExport',
    selection: 'AnalyticsExport',
  },

  // Campaigns (docs/api-decisions.md, "Campaigns"): each route answers with the selection of its MCP tool's
  // operation; lifecycle actions are POSTs on the campaign, refused with 409 INVALID_TRANSITION from the
  // wrong status.
  { operationId: 'listCampaigns', method: 'GET', path: '/campaigns', field: 'Query.campaigns', selection: 'CampaignsList' },
  {
    operationId: 'createCampaign',
    method: 'POST',
    path: '/campaigns',
    field: 'Mutation.campaignCreate',
    status: 201,
    errors: ['NOT_FOUND', ...CAMPAIGN_SEND_ERRORS],
    selection: 'CampaignCreate',
  },
  { operationId: 'getCampaign', method: 'GET', path: '/campaigns/{id}', field: 'Query.campaign', selection: 'CampaignGet' },
  {
    operationId: 'updateCampaign',
    method: 'PATCH',
    path: '/campaigns/{id}',
    field: 'Mutation.campaignUpdate',
    errors: ['INVALID_TRANSITION', ...CAMPAIGN_SEND_ERRORS],
    selection: 'CampaignUpdate',
  },
  {
    operationId: 'deleteCampaign',
    method: 'DELETE',
    path: '/campaigns/{id}',
    field: 'Mutation.campaignDelete',
    errors: ['INVALID_TRANSITION'],
    selection: 'CampaignDelete',
  },
  {
    operationId: 'scheduleCampaign',
    method: 'POST',
    path: '/campaigns/{id}/schedule',
    field: 'Mutation.campaignSchedule',
    errors: ['INVALID_TRANSITION', ...CAMPAIGN_SEND_ERRORS],
    selection: 'CampaignSchedule',
  },
  {
    operationId: 'startCampaign',
    method: 'POST',
    path: '/campaigns/{id}/start',
    field: 'Mutation.campaignStart',
    errors: ['INVALID_TRANSITION', ...CAMPAIGN_SEND_ERRORS],
    selection: 'CampaignStart',
  },
  {
    operationId: 'pauseCampaign',
    method: 'POST',
    path: '/campaigns/{id}/pause',
    field: 'Mutation.campaignPause',
    errors: ['INVALID_TRANSITION'],
    selection: 'CampaignPause',
  },
  {
    operationId: 'resumeCampaign',
    method: 'POST',
    path: '/campaigns/{id}/resume',
    field: 'Mutation.campaignResume',
    errors: ['INVALID_TRANSITION', ...CAMPAIGN_SEND_ERRORS],
    selection: 'CampaignResume',
  },
  {
    operationId: 'cancelCampaign',
    method: 'POST',
    path: '/campaigns/{id}/cancel',
    field: 'Mutation.campaignCancel',
    errors: ['INVALID_TRANSITION'],
    selection: 'CampaignCancel',
  },
  {
    operationId: 'listCampaignRecipients',
    method: 'GET',
    path: '/campaigns/{campaign_id}/recipients',
    field: 'Query.campaignRecipients',
    selection: 'CampaignRecipientsList',
  },
  {
    operationId: 'exportCampaign',
    method: 'GET',
    path: '/campaigns/{id}/export',
    field: 'Query.campaignExport',
    selection: 'CampaignExport',
  },
];
