// Where the webhook subscription operations (webhooks.graphql) are exposed: deletes, tests and redeliveries
// answer 200 with the record, like every other write.
import type { FacadeEntry } from '../core/table.js';

export const WEBHOOKS: readonly FacadeEntry[] = [
  {
    operation: 'WebhooksList',
    rest: [{ operationId: 'listWebhooks', method: 'GET', path: '/webhooks' }],
    mcp: {
      name: 'webhooks_list',
      kind: 'read',
      description: 'List the webhook subscriptions of the workspace: URL, event types, whether active and why disabled.',
    },
  },
  {
    operation: 'WebhookCreate',
    rest: [{ operationId: 'createWebhook', method: 'POST', path: '/webhooks', status: 201 }],
    mcp: {
      name: 'webhooks_create',
      kind: 'write',
      description:
        'Subscribe an https URL on a public address to event types (message.received, message.status). The answer holds the signing secret, shown this once.',
    },
  },
  {
    operation: 'WebhookGet',
    rest: [{ operationId: 'getWebhook', method: 'GET', path: '/webhooks/{id}' }],
    mcp: { name: 'webhooks_get', kind: 'read', description: 'Get one webhook subscription.' },
  },
  {
    operation: 'WebhookUpdate',
    rest: [{ operationId: 'updateWebhook', method: 'PATCH', path: '/webhooks/{id}' }],
    mcp: {
      name: 'webhooks_update',
      kind: 'destructive',
      description: 'Change the URL, the event types or whether a subscription is active; active: true re-enables one that was disabled.',
    },
  },
  {
    operation: 'WebhookDelete',
    rest: [{ operationId: 'deleteWebhook', method: 'DELETE', path: '/webhooks/{id}' }],
    mcp: { name: 'webhooks_delete', kind: 'destructive', description: 'Delete a webhook subscription with its deliveries.' },
  },
  {
    operation: 'WebhookRotateSecret',
    rest: [{ operationId: 'rotateWebhookSecret', method: 'POST', path: '/webhooks/{id}/rotate-secret' }],
    mcp: {
      name: 'webhooks_rotate_secret',
      kind: 'destructive',
      description: 'Replace the signing secret of a subscription; the new secret is in the answer, shown this once.',
    },
  },
  {
    operation: 'WebhookTest',
    rest: [{ operationId: 'testWebhook', method: 'POST', path: '/webhooks/{id}/test', errors: ['INVALID_TRANSITION'] }],
    mcp: {
      name: 'webhooks_test',
      kind: 'write',
      description: 'Send a webhook.test event to one subscription (attempted once) and return its delivery.',
    },
  },
  {
    operation: 'WebhookDeliveriesList',
    rest: [{ operationId: 'listWebhookDeliveries', method: 'GET', path: '/webhooks/{subscription_id}/deliveries' }],
    mcp: {
      name: 'webhook_deliveries_list',
      kind: 'read',
      description:
        'List the deliveries of a subscription, newest first, with their status; filter by status (pending, held, succeeded, failed).',
    },
  },
  {
    operation: 'WebhookDeliveryGet',
    rest: [{ operationId: 'getWebhookDelivery', method: 'GET', path: '/webhooks/deliveries/{id}' }],
    mcp: {
      name: 'webhook_deliveries_get',
      kind: 'read',
      description: 'Get one delivery with every attempt (status code, error, duration).',
    },
  },
  {
    operation: 'WebhookRedeliver',
    rest: [
      { operationId: 'redeliverWebhook', method: 'POST', path: '/webhooks/deliveries/{id}/redeliver', errors: ['INVALID_TRANSITION'] },
    ],
    mcp: {
      name: 'webhook_deliveries_redeliver',
      kind: 'write',
      description: 'Give a failed delivery one more attempt now, with the same delivery id and body.',
    },
  },
];
