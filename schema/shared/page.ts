// The spec's list envelope, {data, next_cursor, has_more}, as a GraphQL type per item type.
import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.js';

type PageFieldBuilder = PothosSchemaTypes.ObjectFieldBuilder<
  PothosSchemaTypes.ExtendDefaultTypes<typeof builder.$inferSchemaTypes>,
  { next_cursor: string | null; has_more: boolean }
>;

/** The envelope's paging fields, for a page type and for an answer that is paged without a `data` list. */
export function pagingFields(t: PageFieldBuilder) {
  return {
    next_cursor: t.exposeString('next_cursor', {
      nullable: true,
      description: 'Opaque; pass it back to get the next page. Null when exhausted.',
    }),
    has_more: t.exposeBoolean('has_more'),
  };
}

export function pageType<Item>(
  name: string,
  item: ObjectRef<typeof builder.$inferSchemaTypes, Item>,
  description = 'One page of results, newest first.',
) {
  return builder.objectRef<{ data: Item[]; next_cursor: string | null; has_more: boolean }>(name).implement({
    description,
    fields: (t) => ({
      data: t.field({ type: [item], resolve: (page) => page.data }),
      ...pagingFields(t),
    }),
  });
}
