// Where the people operations (people.graphql) are exposed: the users list on REST only, no MCP tool. The sign-in
// operations of the same file are run by the /auth routes (facades/auth/routes.ts), not by this table.
import type { FacadeEntry } from '../core/table.js';

export const USERS: readonly FacadeEntry[] = [
  { operation: 'Users', rest: [{ operationId: 'listUsers', method: 'GET', path: '/users', guideKey: 'users' }] },
];
