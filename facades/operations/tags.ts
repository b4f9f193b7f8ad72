// Where the tag operations (tags.graphql) are exposed; assigning a tag is a PUT on the contact's tag.
import type { FacadeEntry } from '../core/table.js';

export const TAGS: readonly FacadeEntry[] = [
  {
    operation: 'TagAssign',
    rest: [{ operationId: 'assignTag', method: 'PUT', path: '/contacts/{customer_id}/tags/{tag_id}' }],
    mcp: { name: 'tags_assign', kind: 'write', description: 'Assign a tag to a contact; assigning it again changes nothing.' },
  },
  {
    operation: 'TagUnassign',
    rest: [{ operationId: 'unassignTag', method: 'DELETE', path: '/contacts/{customer_id}/tags/{tag_id}' }],
    mcp: {
      name: 'tags_unassign',
      kind: 'destructive',
      description: 'Remove a tag from a contact; removing an unassigned tag changes nothing.',
    },
  },
  {
    operation: 'Tags',
    rest: [{ operationId: 'listTags', method: 'GET', path: '/tags', guideKey: 'tags' }],
    mcp: { name: 'tags_list', kind: 'read', description: 'List every tag of the workspace, by name.' },
  },
  {
    operation: 'TagCreate',
    rest: [{ operationId: 'createTag', method: 'POST', path: '/tags', status: 201, errors: ['CONFLICT'] }],
    mcp: { name: 'tags_create', kind: 'write', description: 'Create a tag; names are unique in the workspace.' },
  },
];
