// The guides' form of list responses, `{<key>: [...], hasMore}`, which a client asks for by naming its media
// type in Accept (docs/api-decisions.md, REST). Where a route's answer keeps its items and has-more flag is
// read from its root field's type once, at start-up.
import { getNamedType, getNullableType, isListType, isObjectType, type GraphQLField } from 'graphql';
import type { GuideKey } from '../core/table.js';

export const GUIDE_MEDIA_TYPE = 'application/vnd.messaging-crm.guide+json';

/** Where a route's response keeps the list items and the has-more flag. */
export type GuideSource = { key: GuideKey; items: string | null; hasMore: string | null };

/** A bare list, a `{data, has_more}` page, or an object holding the list under the key itself. */
export function guideSource(field: GraphQLField<unknown, unknown>, key: GuideKey): GuideSource | null {
  const type = getNullableType(field.type);
  if (isListType(type)) return { key, items: null, hasMore: null };
  if (!isObjectType(type)) return null;
  const fields = type.getFields();
  const isList = (name: string) => fields[name] !== undefined && isListType(getNullableType(fields[name].type));
  if (isList('data') && getNamedType(fields['has_more']?.type)?.name === 'Boolean') return { key, items: 'data', hasMore: 'has_more' };
  return isList(key) ? { key, items: key, hasMore: null } : null;
}

export function acceptsGuideForm(request: Request): boolean {
  return (request.headers.get('accept') ?? '').split(',').some((range) => {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    return type === GUIDE_MEDIA_TYPE && !parameters.some((parameter) => /^q=0(\.0*)?$/.test(parameter));
  });
}

export function toGuideForm(guide: GuideSource, body: unknown): Record<string, unknown> {
  const record = (body ?? {}) as Record<string, unknown>;
  const items = guide.items === null ? body : record[guide.items];
  const hasMore = guide.hasMore === null ? false : record[guide.hasMore] === true;
  return { [guide.key]: items, hasMore };
}
