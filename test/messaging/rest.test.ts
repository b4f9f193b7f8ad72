// The messaging routes through REST: POST /api/v1/messages and the two template listings answer with the
// spec's envelopes, the window and provider rules come back in the spec's error object, and
// Idempotency-Key works on the REST route as on GraphQL.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';

// The sandbox reports delivery a minute after a send, not 5 ms (the tests' default): this file asserts the send's own
// answer (status sent), which a delivery report landing first on a busy machine would move on.
const h = await openHarness({ messaging: { sandboxStatusIntervalMs: 60_000 } });
const ws = await h.workspace('Rest messaging');
const prisma = h.db.prisma;
const contact = await prisma.customer.create({
  data: { company_id: ws.workspace_id, name: 'Bea', wa_id: '15550111222', phone_number: '+15550111222' },
});

async function conversation(lastInbound: Date | null) {
  return prisma.conversation.create({
    data: {
      company_id: ws.workspace_id,
      customer_id: contact.id,
      integration_id: ws.integration_id,
      provider: 'sandbox',
      last_message_at: lastInbound,
    },
  });
}

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return h.fetch(path, {
    method: 'POST',
    key: ws.api_key,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('POST /api/v1/messages', () => {
  it('sends a free-form reply inside the window: 201 {message} with status sent', async () => {
    const open = await conversation(new Date(Date.now() - 60_000));
    const response = await post('/api/v1/messages', { conversation_id: open.id, body: 'Hello Bea' });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(Object.keys(body)).toEqual(['message']);
    expect(body.message).toMatchObject({ conversation_id: open.id, body: 'Hello Bea', direction: 'outbound', status: 'sent' });
    expect(Object.keys(body.message).sort()).toEqual(['body', 'conversation_id', 'created_at', 'direction', 'id', 'status']);
  });

  it('refuses a free-form body outside the window with 422 MESSAGING_WINDOW_CLOSED, and sends a template instead', async () => {
    const stale = await conversation(new Date(Date.now() - 48 * 3600_000));
    const refused = await post('/api/v1/messages', { conversation_id: stale.id, body: 'Hello again' });
    expect(refused.status).toBe(422);
    const error = (await refused.json()).error;
    expect(error.code).toBe('MESSAGING_WINDOW_CLOSED');
    expect(error.details).toMatchObject({ window_closed_at: expect.any(String) });
    expect(error.request_id).toBe(refused.headers.get('x-request-id'));

    const template = await post('/api/v1/messages', {
      conversation_id: stale.id,
      template: { name: 'order_confirmation', language: 'en_US', parameters: ['#1042', 'Bea', 'Friday'] },
    });
    expect(template.status).toBe(201);
    expect((await template.json()).message.status).toBe('sent');
  });

  it('replays the first answer for a retried request with the same Idempotency-Key, sending once', async () => {
    const open = await conversation(new Date());
    const headers = { 'idempotency-key': `retry-${open.id}` };
    const first = await (await post('/api/v1/messages', { conversation_id: open.id, body: 'Once' }, headers)).json();
    const second = await (await post('/api/v1/messages', { conversation_id: open.id, body: 'Once' }, headers)).json();
    expect(second.message.id).toBe(first.message.id);
    expect(await prisma.message.count({ where: { conversation_id: open.id } })).toBe(1);
    const reused = await post('/api/v1/messages', { conversation_id: open.id, body: 'Different' }, headers);
    expect(reused.status).toBe(422);
    expect((await reused.json()).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('answers 404 for an unknown conversation and 400 for a malformed one', async () => {
    const missing = await post('/api/v1/messages', { conversation_id: '01a1fc9c-0000-7000-8000-000000000000', body: 'x' });
    expect(missing.status).toBe(404);
    const malformed = await post('/api/v1/messages', { conversation_id: 'nope', body: 'x' });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe('VALIDATION_ERROR');
  });
});

describe('GET templates', () => {
  it('lists the integration templates at /api/v1/{provider}/templates as {templates, total}', async () => {
    const response = await h.fetch('/api/v1/sandbox/templates', { key: ws.api_key });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(['templates', 'total']);
    expect(body.total).toBe(body.templates.length);
    expect(body.templates.length).toBeGreaterThan(0);
  });

  it('leaves out the fields the spec lists as optional when they have no value, as its schema form requires (GraphQL keeps the nulls)', async () => {
    const body = await (await h.fetch('/api/v1/templates', { key: ws.api_key })).json();
    const nulls: string[] = [];
    for (const template of body.templates) {
      for (const [key, value] of Object.entries(template)) if (value === null) nulls.push(`${template.name}.${key}`);
      for (const component of template.components) {
        for (const [key, value] of Object.entries(component)) if (value === null) nulls.push(`${template.name}.${component.type}.${key}`);
        for (const button of component.buttons ?? []) {
          for (const [key, value] of Object.entries(button)) if (value === null) nulls.push(`${template.name}.button.${key}`);
        }
      }
    }
    expect(nulls).toEqual([]);
    const confirmation = body.templates.find(
      (template: { name: string; language: string }) => template.name === 'order_confirmation' && template.language === 'en_US',
    );
    expect(Object.keys(confirmation).sort()).toEqual(['category', 'components', 'id', 'language', 'name', 'quality_score', 'status']);
    expect(confirmation.components.map((component: object) => Object.keys(component).sort())).toEqual([
      ['format', 'text', 'type'],
      ['text', 'type'],
      ['text', 'type'],
      ['buttons', 'type'],
    ]);
    expect(confirmation.components[3].buttons).toEqual([
      { type: 'URL', text: 'Track order', url: 'https://shop.example.com/orders' },
      { type: 'PHONE_NUMBER', text: 'Call support', phone_number: '+15550100000' },
    ]);
  });

  it("filters by the guides' lowercase status on /api/v1/templates", async () => {
    const body = await (await h.fetch('/api/v1/templates?status=approved', { key: ws.api_key })).json();
    expect(body.templates.length).toBeGreaterThan(0);
    expect(body.templates.every((template: { status: string }) => template.status === 'APPROVED')).toBe(true);
  });

  it('answers 404 INTEGRATION_NOT_FOUND for a provider the workspace is not connected to', async () => {
    const response = await h.fetch('/api/v1/whatsapp/templates', { key: ws.api_key });
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('INTEGRATION_NOT_FOUND');
  });
});
