// API key scopes. The guides name conversations, customers, messages, templates, tags and users; the
// machine-readable description names `contacts:read` for the contacts endpoints (a conflict, see
// docs/api-decisions.md): it is accepted and grants reading customers. `webhooks`, `scheduling`, `knowledge`,
// `analytics`, `campaigns`, `agent` (the AI agent's settings), `automations` (rules and their runs) and `settings`
// (business hours and teams; reading them is also `users`') are this service's own.
export const KEY_SCOPES = [
  'conversations',
  'customers',
  'contacts:read',
  'messages',
  'templates',
  'tags',
  'users',
  'webhooks',
  'scheduling',
  'knowledge',
  'analytics',
  'campaigns',
  'agent',
  'automations',
  'settings',
] as const;

export type KeyScope = (typeof KEY_SCOPES)[number];

/** What a GraphQL field requires. `customers:read` is met by `customers` or `contacts:read`, `settings:read` by
 * `settings` or `users`; `keys`, `team` and
 * `integrations` only by a signed-in owner or admin (resolvers/workspace/roles.ts). */
export type Permission = Exclude<KeyScope, 'contacts:read'> | 'customers:read' | 'settings:read' | 'keys' | 'team' | 'integrations';

export const ALL_KEY_SCOPES: KeyScope[] = KEY_SCOPES.filter((scope) => scope !== 'contacts:read');

const GRANTED_BY: Record<Permission, readonly string[]> = {
  conversations: ['conversations'],
  customers: ['customers'],
  'customers:read': ['customers', 'contacts:read'],
  messages: ['messages'],
  templates: ['templates'],
  tags: ['tags'],
  users: ['users'],
  webhooks: ['webhooks'],
  scheduling: ['scheduling'],
  knowledge: ['knowledge'],
  analytics: ['analytics'],
  campaigns: ['campaigns'],
  agent: ['agent'],
  automations: ['automations'],
  settings: ['settings'],
  'settings:read': ['settings', 'users'],
  keys: ['keys'],
  team: ['team'],
  integrations: ['integrations'],
};

export function grants(scopes: ReadonlySet<string>, permission: Permission): boolean {
  return GRANTED_BY[permission].some((scope) => scopes.has(scope));
}
