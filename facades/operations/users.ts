// Where the users operation (users.graphql) is exposed: REST only, no MCP tool.
import type { FacadeEntry } from '../core/table.js';

export const USERS: readonly FacadeEntry[] = [
  { operation: 'Users', rest: [{ operationId: 'listUsers', method: 'GET', path: '/users', guideKey: 'users' }] },
];
