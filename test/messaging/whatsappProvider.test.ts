// The `whatsapp` adapter over real HTTP against the local fake Graph API: request shapes, template paging
// and mapping to the spec's Template, and how Graph failures become provider-neutral errors.
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { startFakeGraph } from '../support/fakeGraph.js';
import { createWhatsAppProvider } from '../../adapters/providers/whatsapp.js';
import { graphError } from '../../adapters/providers/whatsappErrors.js';
import { ProviderError } from '../../adapters/providers/errors.js';
import { SANDBOX_TEMPLATES } from '../../adapters/providers/sandboxCatalog.js';
import type { ProviderIntegration } from '../../adapters/providers/types.js';
import { createOutboundClient } from '../../infra/net/outbound.js';
import { createTargetGuard } from '../../infra/net/targetGuard.js';

describe('the whatsapp provider adapter', async () => {
  const graph = await startFakeGraph();
  afterAll(() => graph.close());
  const account = { phoneNumberId: '106540352242922', businessAccountId: '102290129340398', accessToken: 'EAAGtest', appSecret: 'secret' };
  graph.register(account);
  const integration: ProviderIntegration = {
    id: '01950000-0000-7000-8000-000000000001',
    workspaceId: '01950000-0000-7000-8000-000000000002',
    provider: 'whatsapp',
    phoneNumberId: account.phoneNumberId,
    businessAccountId: account.businessAccountId,
    accessToken: account.accessToken,
  };
  const http = createOutboundClient({ guard: createTargetGuard({ allowedHosts: ['127.0.0.1'] }), userAgent: 'test' });
  afterAll(() => http.close());
  const adapter = (overrides: Partial<ProviderIntegration> = {}, baseUrl = graph.url) =>
    createWhatsAppProvider({ ...integration, ...overrides }, { baseUrl, timeoutMs: 5_000, mediaTimeoutMs: 5_000, outbound: http });

  async function failure(promise: Promise<unknown>): Promise<ProviderError> {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }

  it('sends a text to /{phone-number-id}/messages with our message id as biz_opaque_callback_data', async () => {
    const sent = await adapter().send({
      to: { kind: 'phone', id: '15551234567' },
      reference: 'ref-1',
      content: { type: 'text', body: 'Hi there' },
    });
    expect(sent.providerMessageId).toMatch(/^wamid\./);
    expect(graph.sends.at(-1)).toEqual({
      phoneNumberId: account.phoneNumberId,
      body: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '15551234567',
        biz_opaque_callback_data: 'ref-1',
        type: 'text',
        text: { preview_url: false, body: 'Hi there' },
      },
    });
  });

  it('reads every page of the business account templates into the spec shape', async () => {
    const before = graph.templatePageRequests;
    const templates = await adapter().listTemplates();
    expect(graph.templatePageRequests - before).toBe(Math.ceil(SANDBOX_TEMPLATES.length / 4));
    expect(templates).toEqual(SANDBOX_TEMPLATES);
  });

  it('maps Graph failures: a bad token, an undeliverable recipient, a template parameter mismatch', async () => {
    expect(await failure(adapter({ accessToken: 'wrong' }).listTemplates())).toMatchObject({
      reason: 'authentication',
      code: '190',
      retryable: false,
    });
    expect(
      await failure(adapter().send({ to: { kind: 'phone', id: '99912345678' }, reference: 'r', content: { type: 'text', body: 'x' } })),
    ).toMatchObject({
      reason: 'recipient',
      code: '131026',
      message: '(#131026) Message undeliverable',
      details: 'Message Undeliverable.',
    });
    const mismatch = adapter().send({
      to: { kind: 'phone', id: '15551234567' },
      reference: 'r',
      content: { type: 'template', name: 'verification_code', language: 'en_US', components: [] },
    });
    expect(await failure(mismatch)).toMatchObject({ reason: 'template', code: '132000' });
  });

  it('reports an unreachable Graph API as unavailable and retryable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(adapter({}, `http://127.0.0.1:${port}/v22.0`).listTemplates());
    expect(error).toMatchObject({ reason: 'unavailable', code: null, retryable: true });
  });

  it.each([
    [400, { error: { code: 131047, message: 'Re-engagement message' } }, 'window_closed', false],
    [429, { error: { code: 130429, message: 'Rate limit hit' } }, 'rate_limited', true],
    [400, { error: { code: 132015, message: 'Template is paused' } }, 'template', false],
    [500, { error: { code: 131000, message: 'Something went wrong' } }, 'unavailable', true],
    [400, { error: { code: 100, message: 'Invalid parameter' } }, 'invalid_request', false],
    [502, '<html>Bad Gateway</html>', 'unavailable', true],
    [403, null, 'authentication', false],
  ] as const)('maps HTTP %i with %j to the reason %s', (status, body, reason, retryable) => {
    expect(graphError(status, body)).toMatchObject({ provider: 'whatsapp', reason, retryable });
  });
});
