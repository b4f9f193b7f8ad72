// A typed client of the REST API as an integrator writes one: types generated from docs/openapi.json by
// openapi-typescript, calls made with openapi-fetch, no casts. It lists contacts, reads a conversation's messages,
// sends a message and creates a webhook; scripts/typed-client-check.sh type-checks it under `strict` (CI). It is
// compiled, not run: what it proves is that the document gives a client plain success types (no unions, no null).
import createClient from 'openapi-fetch';
import type { paths } from './.generated/api.js';

const client = createClient<paths>({
  baseUrl: 'https://localhost:3000',
  headers: { Authorization: `Bearer ${process.env['API_KEY'] ?? ''}` },
});

export async function firstSteps(): Promise<void> {
  const { data: contacts, error } = await client.GET('/api/v1/contacts', { params: { query: { limit: 10 } } });
  if (error) throw new Error(error.error.message);
  if (contacts) console.log('first contact', contacts.data[0].id, contacts.has_more);

  const { data: conversations } = await client.GET('/api/v1/conversations', { params: { query: { limit: 1 } } });
  if (!conversations) return;
  const conversationId = conversations.data[0].id;

  const { data: messages } = await client.GET('/api/v1/conversations/{conversation_id}/messages', {
    params: { path: { conversation_id: conversationId }, query: { limit: 20 } },
  });
  if (messages) console.log('latest message', messages.data[0].id, messages.data[0].body);

  const { data: sent } = await client.POST('/api/v1/messages', {
    body: { conversation_id: conversationId, body: 'Thanks, your order ships today.' },
  });
  if (sent) console.log('sent', sent.message.id, sent.message.status);

  const { data: webhook } = await client.POST('/api/v1/webhooks', {
    body: { url: 'https://example.com/hooks/crm', events: ['message.received', 'message.status'] },
  });
  if (webhook) console.log('webhook', webhook.id);
}
