import { builder } from './builder.js';
import { createTag, listTags } from '../resolvers/tags.js';

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
