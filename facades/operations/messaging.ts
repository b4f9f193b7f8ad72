// Where the messaging operations (messaging.graphql) are exposed. The spec's /api/v1/chat/templates: "chat"
// stands for the provider's name (`sandbox`, `whatsapp`); /api/v1/templates takes it as an optional parameter.
import type { ErrorCode } from '../../resolvers/shared/errors.js';
import type { FacadeEntry } from '../core/table.js';

const TEMPLATE_ERRORS: readonly ErrorCode[] = ['INTEGRATION_NOT_FOUND', 'PROVIDER_ERROR'];

export const MESSAGING: readonly FacadeEntry[] = [
  {
    operation: 'Templates',
    rest: [
      {
        operationId: 'listProviderTemplates',
        method: 'GET',
        path: '/{provider}/templates',
        guideKey: 'templates',
        errors: TEMPLATE_ERRORS,
      },
      {
        operationId: 'listTemplates',
        method: 'GET',
        path: '/templates',
        guideKey: 'templates',
        errors: TEMPLATE_ERRORS,
      },
    ],
    mcp: {
      name: 'templates_list',
      kind: 'read',
      description:
        "List the message templates of the workspace's messaging integration; filter by status (approved, pending, rejected, paused, disabled).",
    },
  },
  {
    operation: 'MessageSend',
    rest: [
      {
        operationId: 'sendMessage',
        method: 'POST',
        path: '/messages',
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
    ],
    mcp: {
      name: 'messages_send',
      kind: 'write',
      description:
        "Send a message in a conversation (conversation_id), or to a contact by `to` (an E.164 phone number or a business-scoped user id: the contact and its conversation are found or created for a template send): a free-form body only within 24 hours of the contact's last inbound message (else MESSAGING_WINDOW_CLOSED), or an APPROVED template {name, language, parameters} at any time. Returns the message with status sent; delivery progress arrives as message.status events.",
    },
  },
  {
    operation: 'InboundFailuresList',
    rest: [{ operationId: 'listInboundFailures', method: 'GET', path: '/inbound-failures' }],
    mcp: {
      name: 'inbound_failures_list',
      kind: 'read',
      description:
        'List the parts of provider webhooks (inbound messages, status reports) that could never be stored, newest first, with the reason and the raw JSON.',
    },
  },
];
