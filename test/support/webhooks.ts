// Helpers for webhook tests: delivery options that trust the test receiver's certificate and retry fast,
// message events recorded through the outbox exactly as the messaging code records them, and — on a
// shared PostgreSQL — a lock that keeps the test files running delivery workers from claiming each
// other's deliveries (every worker on a database delivers every workspace's deliveries, by design).
import { readFileSync, readdirSync } from 'node:fs';
import { v7 as uuidv7 } from 'uuid';
import pg from 'pg';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll } from 'vitest';
import type { LookupAddress } from 'node:dns';
import type { Harness } from './harness.js';
import type { CreatedWorkspace } from '../../resolvers/workspace/workspaces.js';
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import { recordEvent, type EventEnvelope, type EventType } from '../../resolvers/shared/outbox.js';
import type { DeliveryOptions } from '../../workers/webhooks/options.js';
import { testCertificate } from './webhookReceiver.js';

export async function testDeliveryOptions(overrides: Partial<DeliveryOptions> = {}): Promise<DeliveryOptions> {
  return {
    concurrency: 8,
    perSubscription: 4,
    timeoutMs: 2000,
    leaseMs: 5000,
    retryDelaysMs: [50, 100, 150, 200],
    disableAfterMs: 24 * 3600 * 1000,
    pollMs: 50,
    depthSampleMs: 100,
    userAgent: 'MessagingCRM-Webhooks/test',
    extraCa: [(await testCertificate()).cert],
    ...overrides,
  };
}

const SCHEMAS_DIR = new URL('../../docs/webhooks/', import.meta.url);
let ajv: Ajv2020 | undefined;

function documentedSchemas(): Ajv2020 {
  const schemas = new Ajv2020({ allErrors: true, strict: true });
  addFormats.default(schemas);
  for (const file of readdirSync(SCHEMAS_DIR).filter((name) => name.endsWith('.schema.json'))) {
    schemas.addSchema(JSON.parse(readFileSync(new URL(file, SCHEMAS_DIR), 'utf8')));
  }
  return schemas;
}

/** Validates an envelope against the JSON Schema documented for its type; returns the problems found. */
export function envelopeProblems(envelope: { type: string }): string[] {
  ajv ??= documentedSchemas();
  const validate = ajv.getSchema(`https://messaging-crm.example/webhooks/${envelope.type}.schema.json`);
  if (!validate) return [`no schema documented for ${envelope.type}`];
  return validate(envelope) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

const WORKER_LOCK = 7_340_112_955;

/** On PostgreSQL, holds a session lock for the whole test file so that files running workers take turns
 * (those of another kind of worker take a lock of their own). */
export function takeTurnsWithOtherWorkerFiles(lock = WORKER_LOCK) {
  const url = process.env['TEST_DATABASE_URL'];
  if (!url) return;
  const client = new pg.Client({ connectionString: url });
  beforeAll(async () => {
    await client.connect();
    await client.query('SELECT pg_advisory_lock($1)', [lock]);
  }, 120_000);
  afterAll(() => client.end());
}

export type MessageEventData = {
  message: { id: string; conversation_id: string; body: string; direction: string; status: string; created_at: string };
  conversation: Record<string, unknown>;
  contact: Record<string, unknown>;
};

/** A contact and a conversation to hang message events on. */
async function conversationOf(prisma: PrismaClient, workspaceId: string) {
  const suffix = String(Date.now() % 10_000_000).padStart(7, '0');
  const contact = await prisma.customer.create({
    data: {
      company_id: workspaceId,
      name: 'Ana Silva',
      profile_name: 'Ana',
      phone_number: `+1555${suffix}`,
      wa_id: `1555${suffix}`,
      email: 'ana.silva@example.com',
      metadata: { plan: 'premium' },
    },
  });
  const conversation = await prisma.conversation.create({
    data: { company_id: workspaceId, customer_id: contact.id, provider: 'sandbox', status: 'active', last_message_at: new Date() },
  });
  return { contact, conversation };
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/**
 * Records `count` message events of the workspace as the messaging code does: messages and their events
 * in the same transaction (in batches). Returns the envelopes in order.
 */
export async function recordMessageEvents(
  prisma: PrismaClient,
  workspaceId: string,
  count: number,
  type: EventType = 'message.received',
): Promise<EventEnvelope<MessageEventData>[]> {
  const { contact, conversation } = await conversationOf(prisma, workspaceId);
  const contactData = {
    id: contact.id,
    company_id: contact.company_id,
    phone_number: contact.phone_number,
    wa_id: contact.wa_id,
    email: contact.email,
    name: contact.name,
    image_url: contact.image_url,
    metadata: contact.metadata,
    created_at: iso(contact.created_at),
    updated_at: iso(contact.updated_at),
  };
  const conversationData = {
    id: conversation.id,
    company_id: conversation.company_id,
    customer_id: conversation.customer_id,
    agent_id: conversation.agent_id,
    integration_id: conversation.integration_id,
    session_id: conversation.session_id,
    provider: conversation.provider,
    status: conversation.status,
    service_enabled: conversation.service_enabled,
    assigned_user_id: conversation.assigned_user_id,
    details: conversation.details,
    last_message_at: iso(conversation.last_message_at),
    external_conversation_id: conversation.external_conversation_id,
    created_at: iso(conversation.created_at),
    updated_at: iso(conversation.updated_at),
  };
  const inbound = type === 'message.received';
  const envelopes: EventEnvelope<MessageEventData>[] = [];
  const BATCH = 250;
  for (let start = 0; start < count; start += BATCH) {
    const batch = await prisma.$transaction(
      async (tx) => {
        const messages = Array.from({ length: Math.min(BATCH, count - start) }, (_, offset) => ({
          id: uuidv7(),
          company_id: workspaceId,
          conversation_id: conversation.id,
          direction: inbound ? 'inbound' : 'outbound',
          body: `Message ${start + offset}: is my order on its way? ✓ «ünïcödé»`,
          status: inbound ? 'received' : 'delivered',
          provider_message_id: `wamid.${uuidv7()}`,
          created_at: new Date(),
        }));
        await tx.message.createMany({ data: messages });
        const recorded: EventEnvelope<MessageEventData>[] = [];
        for (const message of messages) {
          recorded.push(
            await recordEvent<MessageEventData>(tx, {
              workspaceId,
              type,
              data: {
                message: {
                  id: message.id,
                  conversation_id: message.conversation_id,
                  body: message.body,
                  direction: message.direction,
                  status: message.status,
                  created_at: message.created_at.toISOString(),
                },
                conversation: conversationData,
                contact: contactData,
              },
            }),
          );
        }
        return recorded;
      },
      { timeout: 120_000, maxWait: 120_000 },
    );
    envelopes.push(...batch);
  }
  return envelopes;
}

/**
 * DNS for tests that create subscriptions: a fixed table, so no query leaves the machine. Its `.test` hosts
 * never resolve through the system's DNS, so a delivery worker of another test file on a shared PostgreSQL
 * (every worker delivers every workspace's deliveries) cannot send anything to the addresses listed here.
 */
export const TEST_DNS: Record<string, string[]> = {
  'hooks.crm.test': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'other.crm.test': ['151.101.1.69'],
  'internal.crm.test': ['10.0.0.5'],
  'mixed.crm.test': ['93.184.215.14', '127.0.0.1'],
  'metadata.crm.test': ['169.254.169.254'],
  'mapped.crm.test': ['::ffff:192.168.1.10'],
  'ula.crm.test': ['fd00:ec2::254'],
};

/** A receiver on a public address, as far as TEST_DNS is concerned. */
export const PUBLIC_TEST_RECEIVER = 'https://hooks.crm.test/crm-hooks';

export async function resolveTestDns(hostname: string): Promise<LookupAddress[]> {
  const addresses = TEST_DNS[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

/**
 * New workspaces whose subscriptions are deleted after the file: on a shared PostgreSQL, delivery workers of
 * other test files would otherwise pick up the test deliveries left behind.
 */
export function workspacesCleanedAfterFile(h: Harness): () => Promise<CreatedWorkspace> {
  const workspaceIds: string[] = [];
  afterAll(() => h.db.prisma.webhookSubscription.deleteMany({ where: { company_id: { in: workspaceIds } } }));
  return async () => {
    const created = await h.workspace();
    workspaceIds.push(created.workspace_id);
    return created;
  };
}
