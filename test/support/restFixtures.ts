// Test data for the REST facade tests: a workspace with contacts, conversations and a tag written straight
// through Prisma (setup only; every assertion goes through HTTP), the spec's field lists, request helpers,
// and the answer of a named GraphQL operation to compare REST answers with.
import { expect } from 'vitest';
import { print } from 'graphql';
import type { Harness } from './harness.js';
import type { CreatedWorkspace } from '../../resolvers/workspace/workspaces.js';
import { operation } from '../../facades/core/operations.js';

/** The fields of each resource, as the spec's tables list them (all required in responses). */
export const SPEC_FIELDS = {
  conversation: [
    'id',
    'company_id',
    'customer_id',
    'agent_id',
    'integration_id',
    'session_id',
    'provider',
    'status',
    'service_enabled',
    'assigned_user_id',
    'details',
    'last_message_at',
    'external_conversation_id',
    'created_at',
    'updated_at',
    'customer',
  ],
  // The spec's Customer, and marketing_consent beside it (issue 36; docs/api-decisions.md, "Consent and provider errors").
  customer: [
    'id',
    'company_id',
    'phone_number',
    'wa_id',
    'email',
    'name',
    'image_url',
    'metadata',
    'created_at',
    'updated_at',
    'marketing_consent',
  ],
  customerDetailExtra: ['profile_name', 'notes', 'tags', 'last_message_at', 'conversation_count'],
  user: ['id', 'name', 'email', 'role', 'status', 'createdAt'],
};

export const GUIDE = 'application/vnd.messaging-crm.guide+json';

export type Seeded = {
  workspace: CreatedWorkspace;
  key: string;
  fullContactId: string;
  bareContactId: string;
  tagId: string;
  conversationIds: { active: string; pending: string; closed: string; silent: string };
  foreignContactId: string;
};

/** One workspace with a fully filled contact, a contact with nothing but a phone number, a tag on the first,
 * conversations in each state (one without any message, one assigned), and a contact of another workspace. */
export async function seedWorkspace(h: Harness): Promise<Seeded> {
  const workspace = await h.workspace();
  const company_id = workspace.workspace_id;
  const prisma = h.db.prisma;
  const full = await prisma.customer.create({
    data: {
      company_id,
      name: 'Ada Lovelace',
      phone_number: '+15550100001',
      wa_id: '15550100001',
      email: 'ada@example.com',
      image_url: 'https://example.com/ada.png',
      metadata: { plan: 'gold' },
      profile_name: 'Ada',
      notes: 'Prefers mornings',
      last_message_at: new Date('2026-03-01T10:00:00Z'),
    },
  });
  const bare = await prisma.customer.create({ data: { company_id, phone_number: '+15550100002' } });
  const tag = await prisma.tag.create({ data: { company_id, name: 'vip', color: '#1e88e5' } });
  await prisma.customerTag.create({ data: { customer_id: full.id, tag_id: tag.id } });
  const conversation = (status: string, last_message_at: Date | null, extra: Record<string, unknown> = {}) =>
    prisma.conversation.create({
      data: { company_id, customer_id: full.id, provider: 'sandbox', status, last_message_at, ...extra },
    });
  const active = await conversation('active', new Date('2026-03-01T10:00:00Z'), {
    assigned_user_id: workspace.user_id,
    integration_id: workspace.integration_id,
    details: { topic: 'billing' },
    service_enabled: true,
  });
  const pending = await conversation('pending', new Date('2026-02-01T10:00:00Z'));
  const closed = await conversation('closed', new Date('2026-01-01T10:00:00Z'));
  const silent = await conversation('active', null);
  const other = await h.workspace();
  const foreign = await prisma.customer.create({ data: { company_id: other.workspace_id, name: 'Not yours' } });
  return {
    workspace,
    key: workspace.api_key,
    fullContactId: full.id,
    bareContactId: bare.id,
    tagId: tag.id,
    conversationIds: { active: active.id, pending: pending.id, closed: closed.id, silent: silent.id },
    foreignContactId: foreign.id,
  };
}

export async function getJson(h: Harness, path: string, init: RequestInit & { key?: string } = {}) {
  const response = await h.fetch(path, init);
  const text = await response.text();
  return { response, status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/** A request with a JSON body (none when body is undefined), answered as {status, headers, body}. */
export function sendJson(h: Harness, method: string, path: string, key: string, body?: unknown) {
  const payload = body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  return getJson(h, path, { method, key, ...payload });
}

export function postJson(h: Harness, path: string, key: string, body: unknown) {
  return sendJson(h, 'POST', path, key, body);
}

export const UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** What the MCP tool over a named operation answers: the operation's root field, here run through /graphql. */
export async function operationResult(h: Harness, key: string, name: string, variables: Record<string, unknown> = {}) {
  const { body } = await h.graphql(key, print(operation(name)), variables);
  if (body.errors) throw new Error(`${name}: ${JSON.stringify(body.errors)}`);
  return Object.values(body.data ?? {})[0];
}

/** The answer is the spec's error object with this status and these fields, and the request id of its header. */
export function expectError(
  answer: { status: number; headers: Headers; body: { error: unknown } },
  status: number,
  error: Record<string, unknown>,
): void {
  expect(answer.status).toBe(status);
  expect(answer.body.error).toMatchObject({ ...error, request_id: answer.headers.get('x-request-id') });
}

/** The rate limit's 429: the spec's error naming the limit and whom it counts for (`this API key`, `this console
 * session`, `this client address`), with the Retry-After seconds in its message and details. Returns the seconds. */
export async function expectRateLimited(response: Response, limit: number, whom: string): Promise<number> {
  const seconds = Number(response.headers.get('retry-after'));
  expectError({ status: response.status, headers: response.headers, body: await response.json() }, 429, {
    code: 'RATE_LIMITED',
    message: `Rate limit of ${limit} requests per 60 seconds exceeded for ${whom}; retry in ${seconds} seconds`,
    details: { retry_after_seconds: seconds, limit, window_seconds: 60 },
  });
  return seconds;
}
