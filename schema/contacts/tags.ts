import { builder } from '../builder.js';
import { createTag, listTags, setTagAssignment } from '../../resolvers/contacts/tags.js';

const Tag = builder.prismaObject('Tag', {
  description: 'A label that can be assigned to contacts.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    color: t.exposeString('color', { nullable: true }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
  }),
});

const TagList = builder.objectRef<Awaited<ReturnType<typeof listTags>>>('TagList').implement({
  fields: (t) => ({ tags: t.field({ type: [Tag], resolve: (list) => list.tags }) }),
});

builder.queryField('tags', (t) =>
  t.field({
    type: TagList,
    description: 'Every tag of the workspace, by name.',
    authScopes: { permission: 'tags' },
    resolve: (_root, _args, ctx) => listTags(ctx),
  }),
);

builder.mutationField('tagCreate', (t) =>
  t.prismaField({
    type: Tag,
    description: 'Creates a tag; names are unique within the workspace.',
    authScopes: { permission: 'tags' },
    args: {
      name: t.arg.string({ required: true }),
      color: t.arg.string({ required: false, description: 'A hex color such as #1e88e5.' }),
    },
    resolve: (query, _root, args, ctx) => createTag(ctx, args, query),
  }),
);

const TagAssignment = builder.objectRef<Awaited<ReturnType<typeof setTagAssignment>>>('TagAssignment').implement({
  description: 'Whether a tag is now assigned to a contact.',
  fields: (t) => ({
    customer_id: t.exposeID('customer_id'),
    tag_id: t.exposeID('tag_id'),
    assigned: t.exposeBoolean('assigned'),
  }),
});

builder.mutationFields((t) => {
  const args = { customer_id: t.arg.id({ required: true }), tag_id: t.arg.id({ required: true }) };
  return {
    tagAssign: t.field({
      type: TagAssignment,
      description: 'Assigns a tag to a contact; assigning it again changes nothing.',
      authScopes: { permission: 'tags' },
      args,
      resolve: (_root, input, ctx) => setTagAssignment(ctx, true, input),
    }),
    tagUnassign: t.field({
      type: TagAssignment,
      description: 'Removes a tag from a contact; removing an unassigned tag changes nothing.',
      authScopes: { permission: 'tags' },
      args,
      resolve: (_root, input, ctx) => setTagAssignment(ctx, false, input),
    }),
  };
});
