// The messaging tests' world, for either provider: the harness, and for `whatsapp` the fake Graph API it
// talks to (whose status webhooks come back to the service), plus a workspace with a connected integration
// and helpers to play the provider's part on /webhooks/whatsapp.
import { afterAll } from 'vitest';
import { randomBytes, randomInt } from 'node:crypto';
import { openHarness, type Harness, type HarnessOptions } from './harness.js';
import { startFakeGraph, type FakeGraph } from './fakeGraph.js';
import { hubSignature } from './whatsappPayloads.js';
import { createIntegration } from '../../resolvers/workspace/integrations.js';
import type { ProviderName } from '../../adapters/providers/types.js';

export const PROVIDERS: ProviderName[] = ['sandbox', 'whatsapp'];

export type MessagingWorkspace = {
  workspaceId: string;
  apiKey: string;
  /** The workspace's first user (the one `workspace create` makes). */
  userId: string;
  integrationId: string;
  phoneNumberId: string;
  appSecret: string;
  verifyToken: string;
};

export type MessagingWorld = {
  provider: ProviderName;
  harness: Harness;
  /** The fake Graph API (whatsapp only). */
  graph: FakeGraph | null;
  workspace(): Promise<MessagingWorkspace>;
  /** POSTs a payload to /webhooks/whatsapp, signed with `appSecret` unless a signature is given. */
  webhook(payload: unknown, appSecret: string, options?: { signature?: string | null; raw?: string }): Promise<Response>;
};

function digits(length: number): string {
  return Array.from({ length }, (_, index) => (index === 0 ? randomInt(1, 10) : randomInt(0, 10))).join('');
}

export async function openMessagingWorld(provider: ProviderName, options: HarnessOptions = {}): Promise<MessagingWorld> {
  const graph = provider === 'whatsapp' ? await startFakeGraph() : null;
  const harness = await openHarness({ ...options, messaging: { ...options.messaging, ...(graph ? { whatsappGraphUrl: graph.url } : {}) } });
  // Registered after the harness's own afterAll, so it runs first: no status webhook outlives the database.
  if (graph) afterAll(() => graph.close());

  const webhook: MessagingWorld['webhook'] = (payload, appSecret, webhookOptions = {}) => {
    const raw = webhookOptions.raw ?? JSON.stringify(payload);
    const signature = webhookOptions.signature === undefined ? hubSignature(raw, appSecret) : webhookOptions.signature;
    return harness.fetch('/webhooks/whatsapp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature ? { 'x-hub-signature-256': signature } : {}) },
      body: raw,
    });
  };
  graph?.deliverWebhooksTo((raw, signature) =>
    harness.fetch('/webhooks/whatsapp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      body: raw,
    }),
  );

  async function workspace(): Promise<MessagingWorkspace> {
    const created = await harness.workspace();
    const base = {
      workspaceId: created.workspace_id,
      apiKey: created.api_key,
      userId: created.user_id,
    };
    if (!graph) {
      return {
        ...base,
        integrationId: created.integration_id,
        phoneNumberId: created.phone_number_id,
        appSecret: created.app_secret,
        verifyToken: created.verify_token,
      };
    }
    const account = {
      phoneNumberId: digits(15),
      businessAccountId: digits(15),
      accessToken: `EAAG${randomBytes(24).toString('base64url')}`,
      appSecret: randomBytes(16).toString('hex'),
    };
    graph.register(account);
    // The same domain function as `npm run cli -- integration create`.
    const integration = await createIntegration(harness.services, {
      workspaceId: created.workspace_id,
      provider: 'whatsapp',
      phone_number_id: account.phoneNumberId,
      business_account_id: account.businessAccountId,
      access_token: account.accessToken,
      app_secret: account.appSecret,
    });
    return {
      ...base,
      integrationId: integration.integration_id,
      phoneNumberId: account.phoneNumberId,
      appSecret: account.appSecret,
      verifyToken: integration.verify_token,
    };
  }

  return { provider, harness, graph, workspace, webhook };
}
