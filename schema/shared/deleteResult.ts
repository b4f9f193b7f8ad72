// What a delete answers: the id of the record that no longer exists.
import { builder } from '../builder.js';

export type Deleted = { id: string; deleted: boolean };

export const DeleteResult = builder.objectRef<Deleted>('DeleteResult').implement({
  description: 'The record that was deleted.',
  fields: (t) => ({
    id: t.exposeID('id'),
    deleted: t.exposeBoolean('deleted', { description: 'Always true.' }),
  }),
});
