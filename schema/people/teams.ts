// Teams of people (round-robin assignment by automations) and each person's availability. The team is read by
// whoever reads the people (`users` or `settings`) and changed by owners and admins (`settings`); a person sets
// their own availability (`users`).
import { builder } from '../builder.js';
import {
  addTeamMember,
  createTeam,
  deleteTeam,
  getTeam,
  listTeams,
  MAX_TEAM_CAPACITY,
  removeTeamMember,
  teamMembers,
  updateTeam,
  waitingCount,
} from '../../resolvers/people/teams.js';
import { AVAILABILITIES, setOwnAvailability } from '../../resolvers/people/availability.js';

const Team = builder.prismaObject('Team', {
  description: 'People among whom automations assign conversations in turn (round robin).',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    capacity: t.exposeInt('capacity', {
      description: 'Open conversations a member holds at most before round robin passes them by (an assign action may set its own).',
    }),
    members: t.prismaField({
      type: ['User'],
      description: 'Active people of the team, by name, with their availability.',
      resolve: (_query, team, _args, ctx) => teamMembers(ctx, team.id),
    }),
    waiting_count: t.int({
      description: 'Conversations waiting for a member with a free slot.',
      resolve: (team, _args, ctx) => waitingCount(ctx, team.id),
    }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
  }),
});

const read = { permission: 'settings:read' } as const;
const write = { permission: 'settings' } as const;

builder.queryFields((t) => ({
  teams: t.prismaField({
    type: [Team],
    description: "The workspace's teams, by name.",
    authScopes: read,
    resolve: (query, _root, _args, ctx) => listTeams(ctx, query),
  }),
  team: t.prismaField({
    type: Team,
    authScopes: read,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => getTeam(ctx, { id: String(args.id) }, query),
  }),
}));

const capacityArg = (t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0]) =>
  t.arg.int({ required: false, description: `1 to ${MAX_TEAM_CAPACITY}; default 10.` });

builder.mutationFields((t) => ({
  teamCreate: t.prismaField({
    type: Team,
    description: 'Adds a team (names are unique in the workspace).',
    authScopes: write,
    args: { name: t.arg.string({ required: true }), capacity: capacityArg(t) },
    resolve: (query, _root, args, ctx) => createTeam(ctx, args, query),
  }),
  teamUpdate: t.prismaField({
    type: Team,
    description: 'Renames a team or changes its capacity.',
    authScopes: write,
    args: { id: t.arg.id({ required: true }), name: t.arg.string({ required: false }), capacity: capacityArg(t) },
    resolve: (query, _root, args, ctx) => updateTeam(ctx, { ...args, id: String(args.id) }, query),
  }),
  teamDelete: t.prismaField({
    type: Team,
    description: 'Deletes a team and returns it; conversations waiting for it stay unassigned.',
    authScopes: write,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => deleteTeam(ctx, { id: String(args.id) }, query),
  }),
  teamMemberAdd: t.prismaField({
    type: Team,
    description: 'Adds an active person of the workspace to the team.',
    authScopes: write,
    args: { id: t.arg.id({ required: true }), user_id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => addTeamMember(ctx, { id: String(args.id), user_id: String(args.user_id) }, query),
  }),
  teamMemberRemove: t.prismaField({
    type: Team,
    description: 'Takes a person out of the team; their conversations stay theirs.',
    authScopes: write,
    args: { id: t.arg.id({ required: true }), user_id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => removeTeamMember(ctx, { id: String(args.id), user_id: String(args.user_id) }, query),
  }),
  availabilityUpdate: t.prismaField({
    type: 'User',
    description: `Sets the caller's own availability (${AVAILABILITIES.join(' or ')}; a key sets its creator's). Round robin skips people who are away.`,
    authScopes: { permission: 'users' },
    args: { availability: t.arg.string({ required: true }) },
    resolve: (query, _root, args, ctx) => setOwnAvailability(ctx, args, query),
  }),
}));
