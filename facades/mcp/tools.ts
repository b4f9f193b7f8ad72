// The MCP tools, as data: each runs one named GraphQL operation (facades/operations/*.graphql), so a
// tool's input schema, result and errors are the contract's own. Adding a tool is one entry here.
// Annotations come from the tool's kind: `write` only adds (create, add, import, assign); `destructive`
// changes or removes what exists (update, delete, remove, unassign, close, reopen, a campaign's lifecycle
// actions), as MCP defines it.
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

export type ToolKind = 'read' | 'write' | 'destructive';

export const ANNOTATIONS: Record<ToolKind, ToolAnnotations> = {
  read: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  write: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  destructive: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
};

export type ToolEntry = { name: string; operation: string; kind: ToolKind; description: string };

export const TOOLS: readonly ToolEntry[] = [
  {
    name: 'contacts_list',
    operation: 'Contacts',
    kind: 'read',
    description: 'List contacts, newest first; filter by search text or tag_id. Pass next_cursor as cursor for the next page.',
  },
  {
    name: 'contacts_search',
    operation: 'ContactSearch',
    kind: 'read',
    description: 'Find contacts whose name, phone number or email contains q.',
  },
  {
    name: 'contacts_get',
    operation: 'Contact',
    kind: 'read',
    description: 'Get one contact with its profile, notes, tag names, last inbound message time and conversation count.',
  },
  {
    name: 'contacts_create',
    operation: 'ContactCreate',
    kind: 'write',
    description: 'Create a contact. Give at least one of name, phone_number (E.164), wa_id or email.',
  },
  {
    name: 'contacts_update',
    operation: 'ContactUpdate',
    kind: 'destructive',
    description: 'Change fields of a contact: omitted fields stay, null clears a field.',
  },
  {
    name: 'contacts_delete',
    operation: 'ContactDelete',
    kind: 'destructive',
    description: 'Delete a contact together with its conversations, their messages, notes and summaries. Cannot be undone.',
  },
  {
    name: 'contacts_bulk_import',
    operation: 'ContactsBulkImport',
    kind: 'write',
    description:
      'Create many contacts in one call (up to 500). Each row succeeds or fails on its own; a failed row writes nothing and reports its error.',
  },
  {
    name: 'contact_channels_list',
    operation: 'ContactChannels',
    kind: 'read',
    description:
      "List a contact's identities (phone, wa_id, email, per provider); the primary one of each type is the contact's own field.",
  },
  {
    name: 'contact_channels_add',
    operation: 'ContactChannelAdd',
    kind: 'write',
    description: "Add an identity (phone, wa_id or email) to a contact; is_primary makes it the contact's field of that type.",
  },
  {
    name: 'contact_channels_remove',
    operation: 'ContactChannelRemove',
    kind: 'destructive',
    description: 'Remove an identity from its contact; if it was primary, the next one of its type takes its place.',
  },
  {
    name: 'conversations_list',
    operation: 'Conversations',
    kind: 'read',
    description:
      'List conversations by latest inbound message, newest first; filter by status (active, pending, closed) or assigned_user_id. Pass next_cursor as before for the next page.',
  },
  {
    name: 'conversations_search',
    operation: 'ConversationSearch',
    kind: 'read',
    description: "Find conversations by the contact's name, phone number or email, or by text in their messages.",
  },
  {
    name: 'conversations_get',
    operation: 'Conversation',
    kind: 'read',
    description: 'Get one conversation with its contact.',
  },
  {
    name: 'conversations_update',
    operation: 'ConversationUpdate',
    kind: 'destructive',
    description:
      'Assign a conversation to a user of the workspace (null unassigns), switch its AI agent (service_enabled) or replace its details.',
  },
  {
    name: 'conversations_close',
    operation: 'ConversationClose',
    kind: 'destructive',
    description: 'Close an active or pending conversation. Closing a closed one is an INVALID_TRANSITION error.',
  },
  {
    name: 'conversations_reopen',
    operation: 'ConversationReopen',
    kind: 'destructive',
    description: 'Reopen a closed conversation (it becomes active). Reopening an open one is an INVALID_TRANSITION error.',
  },
  {
    name: 'conversation_notes_list',
    operation: 'ConversationNotes',
    kind: 'read',
    description: "List a conversation's internal notes, newest first.",
  },
  {
    name: 'conversation_notes_create',
    operation: 'ConversationNoteCreate',
    kind: 'write',
    description: 'Add an internal note to a conversation (never sent to the contact).',
  },
  {
    name: 'conversation_notes_update',
    operation: 'ConversationNoteUpdate',
    kind: 'destructive',
    description: 'Replace the text of a note.',
  },
  {
    name: 'conversation_notes_delete',
    operation: 'ConversationNoteDelete',
    kind: 'destructive',
    description: 'Delete a note.',
  },
  {
    name: 'conversation_summaries_list',
    operation: 'ConversationSummaries',
    kind: 'read',
    description: "List a conversation's summaries, newest first.",
  },
  {
    name: 'conversation_summaries_create',
    operation: 'ConversationSummaryCreate',
    kind: 'write',
    description: 'Add a summary to a conversation.',
  },
  {
    name: 'conversation_summaries_update',
    operation: 'ConversationSummaryUpdate',
    kind: 'destructive',
    description: 'Replace the text of a summary.',
  },
  {
    name: 'conversation_summaries_delete',
    operation: 'ConversationSummaryDelete',
    kind: 'destructive',
    description: 'Delete a summary.',
  },
  {
    name: 'messages_send',
    operation: 'MessageSend',
    kind: 'write',
    description:
      "Send a message in a conversation: a free-form body only within 24 hours of the contact's last inbound message (else MESSAGING_WINDOW_CLOSED), or an APPROVED template {name, language, parameters} at any time. Returns the message with status sent; delivery progress arrives as message.status events.",
  },
  {
    name: 'templates_list',
    operation: 'Templates',
    kind: 'read',
    description:
      "List the message templates of the workspace's messaging integration; filter by status (approved, pending, rejected, paused, disabled).",
  },
  {
    name: 'tags_list',
    operation: 'Tags',
    kind: 'read',
    description: 'List every tag of the workspace, by name.',
  },
  {
    name: 'tags_create',
    operation: 'TagCreate',
    kind: 'write',
    description: 'Create a tag; names are unique in the workspace.',
  },
  {
    name: 'tags_assign',
    operation: 'TagAssign',
    kind: 'write',
    description: 'Assign a tag to a contact; assigning it again changes nothing.',
  },
  {
    name: 'tags_unassign',
    operation: 'TagUnassign',
    kind: 'destructive',
    description: 'Remove a tag from a contact; removing an unassigned tag changes nothing.',
  },
  {
    name: 'scheduling_settings_get',
    operation: 'SchedulingSettingsGet',
    kind: 'read',
    description: "Read the workspace's scheduling settings: its IANA time zone, in which appointment-type availability is given.",
  },
  {
    name: 'scheduling_settings_update',
    operation: 'SchedulingSettingsUpdate',
    kind: 'destructive',
    description: "Set the workspace's IANA time zone (for example Europe/Lisbon); availability windows are read in it.",
  },
  {
    name: 'appointment_types_list',
    operation: 'AppointmentTypesList',
    kind: 'read',
    description: 'List appointment types (name, duration, buffer, weekly availability); filter by active.',
  },
  {
    name: 'appointment_types_get',
    operation: 'AppointmentTypeGet',
    kind: 'read',
    description: 'Get one appointment type.',
  },
  {
    name: 'appointment_types_create',
    operation: 'AppointmentTypeCreate',
    kind: 'write',
    description:
      'Create an appointment type: name, duration_minutes, buffer_minutes kept free after each appointment, and weekly availability [{weekday, start "HH:MM", end "HH:MM"}] in the workspace time zone.',
  },
  {
    name: 'appointment_types_update',
    operation: 'AppointmentTypeUpdate',
    kind: 'destructive',
    description: 'Change an appointment type; omitted fields stay.',
  },
  {
    name: 'appointment_types_delete',
    operation: 'AppointmentTypeDelete',
    kind: 'destructive',
    description: 'Delete an appointment type that has no appointments (deactivate it otherwise).',
  },
  {
    name: 'calendar_slots_list',
    operation: 'CalendarSlotsList',
    kind: 'read',
    description:
      'List the free slots of an appointment type between from and to (ISO 8601), honouring existing appointments, buffers, the time zone and daylight-saving changes.',
  },
  {
    name: 'appointments_list',
    operation: 'AppointmentsList',
    kind: 'read',
    description: 'List appointments in calendar order; filter by from/to, status and customer_id.',
  },
  {
    name: 'appointments_get',
    operation: 'AppointmentGet',
    kind: 'read',
    description: 'Get one appointment with its contact and type.',
  },
  {
    name: 'appointments_book',
    operation: 'AppointmentBook',
    kind: 'write',
    description:
      'Book an appointment for a contact at start_at (ISO 8601); refused with CONFLICT when it overlaps another scheduled appointment and VALIDATION_ERROR outside availability.',
  },
  {
    name: 'appointments_update',
    operation: 'AppointmentUpdate',
    kind: 'destructive',
    description: 'Reschedule (start_at), annotate (notes) or set the status (completed, no_show, cancelled) of an appointment.',
  },
  {
    name: 'appointments_cancel',
    operation: 'AppointmentCancel',
    kind: 'destructive',
    description: 'Cancel an appointment; cancelling again changes nothing.',
  },
  {
    name: 'widget_embed_get',
    operation: 'WidgetEmbedGet',
    kind: 'read',
    description: 'What a website needs to embed the booking widget: the workspace public id, bookable types and an HTML snippet.',
  },
  {
    name: 'calendar_feed_rotate_token',
    operation: 'CalendarFeedTokenRotate',
    kind: 'destructive',
    description: "Issue a new secret iCalendar feed URL for the workspace's appointments; the old URL stops working at once.",
  },
  {
    name: 'knowledge_list',
    operation: 'KnowledgeDocumentsList',
    kind: 'read',
    description: 'List the knowledge documents of the AI agent, newest first.',
  },
  {
    name: 'knowledge_get',
    operation: 'KnowledgeDocumentGet',
    kind: 'read',
    description: 'Get one knowledge document with its text.',
  },
  {
    name: 'knowledge_create',
    operation: 'KnowledgeDocumentCreate',
    kind: 'write',
    description: 'Add a knowledge document from a title and text.',
  },
  {
    name: 'knowledge_upload',
    operation: 'KnowledgeDocumentUpload',
    kind: 'write',
    description:
      'Add a knowledge document from a file given as {content_base64, filename, content_type}: text/plain, text/markdown or text/html (converted to text).',
  },
  {
    name: 'knowledge_update',
    operation: 'KnowledgeDocumentUpdate',
    kind: 'destructive',
    description: 'Change the title or text of a knowledge document.',
  },
  {
    name: 'knowledge_delete',
    operation: 'KnowledgeDocumentDelete',
    kind: 'destructive',
    description: 'Delete a knowledge document.',
  },
  {
    name: 'knowledge_search',
    operation: 'KnowledgeSearch',
    kind: 'read',
    description:
      'Full-text search of the knowledge documents (web-search syntax: "phrases", or, -exclude), best match first, with highlighted snippets.',
  },
  {
    name: 'analytics_summary',
    operation: 'AnalyticsSummary',
    kind: 'read',
    description:
      'Conversation and message metrics over [from, to): counts by status and direction, first-response and resolution times, delivery and read rates, per assignee.',
  },
  {
    name: 'analytics_export',
    operation: 'AnalyticsExport',
    kind: 'read',
    description: 'The analytics summary over [from, to) as CSV text, with a filename and content type.',
  },
  {
    name: 'webhooks_list',
    operation: 'WebhooksList',
    kind: 'read',
    description: 'List the webhook subscriptions of the workspace: URL, event types, whether active and why disabled.',
  },
  {
    name: 'webhooks_get',
    operation: 'WebhookGet',
    kind: 'read',
    description: 'Get one webhook subscription.',
  },
  {
    name: 'webhooks_create',
    operation: 'WebhookCreate',
    kind: 'write',
    description:
      'Subscribe an https URL on a public address to event types (message.received, message.status). The answer holds the signing secret, shown this once.',
  },
  {
    name: 'webhooks_update',
    operation: 'WebhookUpdate',
    kind: 'destructive',
    description: 'Change the URL, the event types or whether a subscription is active; active: true re-enables one that was disabled.',
  },
  {
    name: 'webhooks_delete',
    operation: 'WebhookDelete',
    kind: 'destructive',
    description: 'Delete a webhook subscription with its deliveries.',
  },
  {
    name: 'webhooks_rotate_secret',
    operation: 'WebhookRotateSecret',
    kind: 'destructive',
    description: 'Replace the signing secret of a subscription; the new secret is in the answer, shown this once.',
  },
  {
    name: 'webhooks_test',
    operation: 'WebhookTest',
    kind: 'write',
    description: 'Send a webhook.test event to one subscription (attempted once) and return its delivery.',
  },
  {
    name: 'webhook_deliveries_list',
    operation: 'WebhookDeliveriesList',
    kind: 'read',
    description:
      'List the deliveries of a subscription, newest first, with their status; filter by status (pending, held, succeeded, failed).',
  },
  {
    name: 'webhook_deliveries_get',
    operation: 'WebhookDeliveryGet',
    kind: 'read',
    description: 'Get one delivery with every attempt (status code, error, duration).',
  },
  {
    name: 'webhook_deliveries_redeliver',
    operation: 'WebhookRedeliver',
    kind: 'write',
    description: 'Give a failed delivery one more attempt now, with the same delivery id and body.',
  },
  {
    name: 'campaigns_list',
    operation: 'CampaignsList',
    kind: 'read',
    description:
      'List campaigns, newest first, with their status and progress (recipients by status); filter by status (draft, scheduled, running, paused, completed, cancelled).',
  },
  {
    name: 'campaigns_get',
    operation: 'CampaignGet',
    kind: 'read',
    description: 'Get one campaign: its template, audience, send rate, lifecycle times, progress, and why the runner paused it if it did.',
  },
  {
    name: 'campaigns_create',
    operation: 'CampaignCreate',
    kind: 'write',
    description:
      'Create a draft campaign: a name, an APPROVED template {name, language, parameters} and an audience, either audience_tag_id (the contacts with that tag when it starts) or audience_contact_ids. Optional send_rate_per_minute and integration_id. Nothing is sent until campaigns_start or campaigns_schedule.',
  },
  {
    name: 'campaigns_update',
    operation: 'CampaignUpdate',
    kind: 'destructive',
    description:
      'Change a draft campaign; omitted fields stay, null clears (the rate falls back to the default). Only drafts can be changed.',
  },
  {
    name: 'campaigns_delete',
    operation: 'CampaignDelete',
    kind: 'destructive',
    description: 'Delete a draft, completed or cancelled campaign with its recipient results (cancel a live one first).',
  },
  {
    name: 'campaigns_schedule',
    operation: 'CampaignSchedule',
    kind: 'destructive',
    description: 'Schedule a draft campaign to start at scheduled_at (ISO 8601, in the future); scheduling again moves the time.',
  },
  {
    name: 'campaigns_start',
    operation: 'CampaignStart',
    kind: 'destructive',
    description:
      'Start a draft or scheduled campaign now: its audience is fixed and messages go out in the background at its send rate. Follow progress with campaigns_get.',
  },
  {
    name: 'campaigns_pause',
    operation: 'CampaignPause',
    kind: 'destructive',
    description: 'Pause a running campaign before its next send.',
  },
  {
    name: 'campaigns_resume',
    operation: 'CampaignResume',
    kind: 'destructive',
    description: 'Resume a paused campaign; recipients already sent are never sent again.',
  },
  {
    name: 'campaigns_cancel',
    operation: 'CampaignCancel',
    kind: 'destructive',
    description: 'Cancel a campaign that has not finished; recipients not yet sent are marked cancelled. Cannot be undone.',
  },
  {
    name: 'campaigns_recipients_list',
    operation: 'CampaignRecipientsList',
    kind: 'read',
    description:
      "List a campaign's recipients in send order with each one's status (pending, sending, sent, delivered, read, failed, skipped, cancelled), message id and error; filter by status.",
  },
  {
    name: 'campaigns_export',
    operation: 'CampaignExport',
    kind: 'read',
    description:
      "A campaign's results as CSV text (one row per recipient: contact, status, message id, error, times), with a filename and content type.",
  },
];
