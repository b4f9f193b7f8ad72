// The reads the bench drives, each as a REST path and as the same query through /graphql: the GraphQL
// request runs the very operation the REST route runs (facades/rest/routes.ts), with the route's parameters as
// variables, so "REST against GraphQL" compares the facade and nothing else.
import { print } from 'graphql';
import type pg from 'pg';
import { schema } from '../schema/index.js';
import { restSurface } from '../facades/rest/facade.js';
import { FACADE_TABLE } from '../facades/operations/index.js';

export type Read = {
  name: string;
  path: string;
  /** The /graphql request body running the same selection with the same arguments. */
  graphql: string;
  /** Whether the raw baseline answers it too (contacts list, search and get, conversations list, a conversation's messages). */
  baseline: boolean;
};

/** A year by day, 2024 (366 days, the longest range), in which bench/seed.ts dates everything. */
const REPORT_YEAR = { from: '2024-01-01T00:00:00.000Z', to: '2025-01-01T00:00:00.000Z', interval: 'day' };

const contract = new Map(restSurface(schema, FACADE_TABLE).routes.map((bound) => [bound.route.operationId, bound]));

function routeOf(operationId: string) {
  const operation = contract.get(operationId);
  if (!operation) throw new Error(`No REST route ${operationId}`);
  return operation;
}

/** The REST path of an operation with these variables (path parameters filled in, the rest as the query). */
export function restPath(operationId: string, variables: Record<string, string | number>): string {
  let path = routeOf(operationId).route.path;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(variables)) {
    if (path.includes(`{${key}}`)) path = path.replace(`{${key}}`, encodeURIComponent(String(value)));
    else query.set(key, String(value));
  }
  const search = query.toString();
  return `/api/v1${path}${search ? `?${search}` : ''}`;
}

function read(name: string, operationId: string, variables: Record<string, string | number>, baseline: boolean): Read {
  return {
    name,
    path: restPath(operationId, variables),
    graphql: JSON.stringify({ query: print(routeOf(operationId).operation.document), variables }),
    baseline,
  };
}

async function sample(pool: pg.Pool, query: string, params: unknown[]): Promise<string> {
  const { rows } = await pool.query(query, params);
  return String((Object.values(rows[0] ?? {})[0] as string | number | undefined) ?? '');
}

/** The reads of one workspace of `contacts` contacts, with cursors and search fragments taken from its data. */
export async function readsFor(pool: pg.Pool, workspaceId: string, contacts: number): Promise<Read[]> {
  const nth = (offset: number) =>
    sample(pool, 'SELECT id FROM customers WHERE company_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1', [workspaceId, offset]);
  const deepCursor = await nth(Math.floor(contacts / 2));
  const someId = await nth(Math.floor(contacts / 3));
  const before = await sample(
    pool,
    'SELECT to_char(last_message_at AT TIME ZONE \'UTC\', \'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"\') FROM conversations WHERE company_id = $1 AND last_message_at IS NOT NULL ORDER BY last_message_at DESC OFFSET $2 LIMIT 1',
    [workspaceId, Math.floor(contacts / 2)],
  );
  // Search fragments from one real row: a "last-name number" pair, the middle of a phone number and the start of
  // an e-mail address, each matching a handful of contacts among all of them.
  const { rows } = await pool.query(
    'SELECT name, phone_number, email FROM customers WHERE company_id = $1 AND email IS NOT NULL ORDER BY id DESC OFFSET $2 LIMIT 1',
    [workspaceId, Math.floor(contacts / 7)],
  );
  const row = rows[0] as { name: string; phone_number: string; email: string };
  // A conversation in the middle of the workspace: its page of messages is one of millions of rows at the large scale.
  const conversationId = await sample(pool, 'SELECT id FROM conversations WHERE company_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1', [
    workspaceId,
    Math.floor(contacts / 2),
  ]);
  return [
    read('contacts_list', 'listContacts', { limit: 50 }, true),
    read('contacts_list_deep', 'listContacts', { limit: 50, cursor: deepCursor }, true),
    read('contacts_search_name', 'searchContacts', { q: row.name.split(' ').slice(1).join(' ') }, true),
    read('contacts_search_phone', 'searchContacts', { q: row.phone_number.slice(5, 12) }, true),
    read('contacts_search_email', 'searchContacts', { q: row.email.split('@')[0]! }, true),
    read('contacts_get', 'getContact', { id: someId }, true),
    read('conversations_list', 'listConversations', { status: 'active', limit: 20, before }, true),
    read('users', 'listUsers', {}, false),
    read('conversation_messages', 'listConversationMessages', { conversation_id: conversationId, limit: 50 }, true),
    // The conversations report over a year by day (the seeded history lies in 2024): every conversation and
    // message of the workspace is counted, with first responses and resolutions in calendar and business hours.
    read('reports_year_by_day', 'getReportConversations', REPORT_YEAR, false),
  ];
}
