// People's roles and what each allows. A signed-in person acts with their role's permissions; an API key acts
// with its own scopes within what its creator's current role allows, so a demoted or removed person's keys lose
// what the person lost (docs/api-decisions.md, "People, sessions and roles").
import { ALL_KEY_SCOPES, KEY_SCOPES, type KeyScope } from './scopes.js';

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** Permissions only a signed-in person can hold: no key can manage keys, the team or integrations. */
export const SESSION_PERMISSIONS = ['keys', 'team', 'integrations'] as const;
export type SessionPermission = (typeof SESSION_PERMISSIONS)[number];

/** Members work the inbox and contacts; webhooks, campaigns, automations, the AI agent's and the workspace's settings
 * (business hours, teams) are for owners and admins. */
const MEMBER_SCOPES: readonly KeyScope[] = ALL_KEY_SCOPES.filter(
  (scope) => !['webhooks', 'campaigns', 'agent', 'automations', 'settings'].includes(scope),
);

const ROLE_KEY_SCOPES: Record<Role, readonly KeyScope[]> = {
  owner: KEY_SCOPES,
  admin: KEY_SCOPES,
  member: [...MEMBER_SCOPES, 'contacts:read'],
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** The key scopes a role allows (what a key its holder creates may have). */
export function roleKeyScopes(role: string): readonly KeyScope[] {
  return isRole(role) ? ROLE_KEY_SCOPES[role] : [];
}

/** What a signed-in person may do: their role's key scopes, and for owners and admins the session-only permissions. */
export function sessionScopes(role: string): Set<string> {
  const scopes = new Set<string>(roleKeyScopes(role));
  if (role === 'owner' || role === 'admin') for (const permission of SESSION_PERMISSIONS) scopes.add(permission);
  return scopes;
}

/** A key's scopes at this moment: its own, within what its creator's current role allows. */
export function keyScopesWithin(keyScopes: readonly string[], creatorRole: string): Set<string> {
  const allowed = new Set<string>(roleKeyScopes(creatorRole));
  return new Set(keyScopes.filter((scope) => allowed.has(scope)));
}
