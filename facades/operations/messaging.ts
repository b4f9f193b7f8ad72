// Where the messaging operations (messaging.graphql) are exposed: sends, what was said (a conversation's messages,
// one message, a search over message bodies, under the conversations scope) and the provider's dead letters.
// The provider callback operations of the same file are run by facades/public/whatsapp/callback.ts.
import type { FacadeEntry } from '../core/table.js';

export const MESSAGING: readonly FacadeEntry[] = [
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
          'CONTACT_OPTED_OUT',
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
        "Send a message in a conversation (conversation_id), or to a contact by `to` (an E.164 phone number or a business-scoped user id: the contact and its conversation are found or created for a template send): a free-form body only within 24 hours of the contact's last inbound message (else MESSAGING_WINDOW_CLOSED), or an APPROVED template {name, language, parameters} at any time, except a MARKETING template to a contact who opted out (CONTACT_OPTED_OUT, nothing sent). Returns the message with status sent; delivery progress arrives as message.status events. A provider refusal is PROVIDER_ERROR with Meta's code (provider_code) and the message is kept failed with error {code, title, details, retryable}: 131047 closes the conversation's window, 131050 opts the contact out, 131026 and 131049 are final, 130429 and 131056 were already retried with backoff.",
    },
  },
  {
    operation: 'SandboxInboundSend',
    rest: [{ operationId: 'sendSandboxInbound', method: 'POST', path: '/sandbox/inbound', status: 202, errors: ['NOT_FOUND'] }],
    mcp: {
      name: 'sandbox_inbound_send',
      kind: 'write',
      description:
        "Simulate a customer writing to the workspace's sandbox number: {from (E.164), name?, text, image? (attach the sandbox's sample photo)}. The service signs a WhatsApp webhook delivery and handles it as the provider's own; returns {message_id, conversation_id}. NOT_FOUND when the workspace's integration is not the sandbox.",
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

/** What was said; MCP tools answer exactly the REST JSON. */
export const TRANSCRIPTS: readonly FacadeEntry[] = [
  {
    operation: 'ConversationMessages',
    rest: [{ operationId: 'listConversationMessages', method: 'GET', path: '/conversations/{conversation_id}/messages' }],
    mcp: {
      name: 'conversations_messages',
      kind: 'read',
      description:
        "Read a conversation's messages, newest first (limit 1-100, default 50). Pass next_cursor as before for older messages; after (a message id) reads the messages newer than it.",
    },
  },
  {
    operation: 'MessageSearch',
    rest: [{ operationId: 'searchMessages', method: 'GET', path: '/messages/search' }],
    mcp: {
      name: 'messages_search',
      kind: 'read',
      description: 'Find messages whose text contains q (case-insensitive), newest first; optionally within one conversation.',
    },
  },
  {
    operation: 'Message',
    rest: [{ operationId: 'getMessage', method: 'GET', path: '/messages/{id}' }],
    mcp: { name: 'messages_get', kind: 'read', description: 'Get one message with its type, media, sender, delivery times and error.' },
  },
  {
    operation: 'MessageMediaFile',
    rest: [{ operationId: 'getMessageMedia', method: 'GET', path: '/messages/{id}/media', errors: ['PROVIDER_ERROR'], file: 'media' }],
  },
];
