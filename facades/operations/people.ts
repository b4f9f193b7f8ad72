// Where the people operations (people.graphql) are exposed: the users list on REST only, teams and one's own
// availability on REST and MCP. The sign-in operations of the same file are run by the /auth routes
// (facades/auth/routes.ts), not by this table.
import type { FacadeEntry } from '../core/table.js';

export const USERS: readonly FacadeEntry[] = [
  { operation: 'Users', rest: [{ operationId: 'listUsers', method: 'GET', path: '/users', guideKey: 'users' }] },
  {
    operation: 'AvailabilityUpdate',
    rest: [{ operationId: 'updateOwnAvailability', method: 'PUT', path: '/users/me/availability' }],
    mcp: {
      name: 'users_availability_update',
      kind: 'write',
      description: "Set your own availability (the key's creator): online or away. Round-robin assignment skips people who are away.",
    },
  },
];

export const TEAMS: readonly FacadeEntry[] = [
  {
    operation: 'TeamsList',
    // No MCP tool: the answer is a list, and MCP tools answer an object (teams_get reads one team).
    rest: [{ operationId: 'listTeams', method: 'GET', path: '/teams' }],
  },
  {
    operation: 'TeamCreate',
    rest: [{ operationId: 'createTeam', method: 'POST', path: '/teams', status: 201, errors: ['CONFLICT'] }],
    mcp: {
      name: 'teams_create',
      kind: 'write',
      description:
        'Add a team {name, capacity}: capacity is the open conversations each member holds at most under round robin (default 10).',
    },
  },
  {
    operation: 'TeamGet',
    rest: [{ operationId: 'getTeam', method: 'GET', path: '/teams/{id}' }],
    mcp: { name: 'teams_get', kind: 'read', description: 'Read one team with its members and how many conversations wait for it.' },
  },
  {
    operation: 'TeamUpdate',
    rest: [{ operationId: 'updateTeam', method: 'PATCH', path: '/teams/{id}' }],
    mcp: { name: 'teams_update', kind: 'destructive', description: 'Rename a team or change its capacity.' },
  },
  {
    operation: 'TeamDelete',
    rest: [{ operationId: 'deleteTeam', method: 'DELETE', path: '/teams/{id}' }],
    mcp: { name: 'teams_delete', kind: 'destructive', description: 'Delete a team; conversations waiting for it stay unassigned.' },
  },
  {
    operation: 'TeamMemberAdd',
    rest: [{ operationId: 'addTeamMember', method: 'PUT', path: '/teams/{id}/members/{user_id}' }],
    mcp: { name: 'teams_members_add', kind: 'write', description: 'Add an active person of the workspace to a team.' },
  },
  {
    operation: 'TeamMemberRemove',
    rest: [{ operationId: 'removeTeamMember', method: 'DELETE', path: '/teams/{id}/members/{user_id}' }],
    mcp: {
      name: 'teams_members_remove',
      kind: 'destructive',
      description: 'Take a person out of a team; their conversations stay theirs.',
    },
  },
];
