// An audience by tags and fields: the contacts carrying any (or all) of some tags and meeting every one of some
// simple field conditions. A condition is written as one text, the same on every surface and in a query string:
// `<field>=<value>` or `<field>!=<value>`, where the field is `marketing_consent` (opted_in, opted_out, unknown)
// or `metadata.<key>` (the contact's metadata value at that key, compared as text; a contact without the key
// is "not equal"). The campaign keeps the parsed conditions; the same SQL condition picks its recipients when it
// starts (audience.ts) and counts an audience beforehand (audienceCount.ts).
import { z } from 'zod';
import { type Campaign, Prisma } from '../../prisma/generated/prisma/client.js';
import { CONSENT_STATUSES } from '../contacts/consent.js';
import { uuid } from '../shared/validation.js';

export const TAG_MATCHES = ['any', 'all'] as const;
export type TagMatch = (typeof TAG_MATCHES)[number];

const MAX_SEGMENT_TAGS = 20;
const MAX_CONDITIONS = 10;
const MAX_VALUE_LENGTH = 200;

export type Condition = { field: string; op: 'equals' | 'not_equals'; value: string };
export type Segment = { tag_ids: string[]; tag_match: TagMatch; conditions: Condition[] };

const OPERATORS = { '=': 'equals', '!=': 'not_equals' } as const;
const SYMBOLS = { equals: '=', not_equals: '!=' } as const;
const CONDITION = /^(marketing_consent|metadata\.[A-Za-z0-9_-]{1,64})(!=|=)(.*)$/s;

export const CONDITION_FORM =
  '`<field>=<value>` or `<field>!=<value>`; field is marketing_consent or metadata.<key> (letters, digits, _ and -)';

const conditionText = z.string({ message: 'must be a string' }).transform((text, ctx): Condition => {
  const match = CONDITION.exec(text);
  if (!match) {
    ctx.addIssue({ code: 'custom', message: `must be ${CONDITION_FORM}` });
    return z.NEVER;
  }
  const [, field, symbol, value] = match as unknown as [string, string, keyof typeof OPERATORS, string];
  if (value.length > MAX_VALUE_LENGTH) {
    ctx.addIssue({ code: 'custom', message: `value must be at most ${MAX_VALUE_LENGTH} characters` });
  } else if (field === 'marketing_consent' && !(CONSENT_STATUSES as readonly string[]).includes(value)) {
    ctx.addIssue({ code: 'custom', message: `marketing_consent compares with one of ${CONSENT_STATUSES.join(', ')}` });
  }
  return { field, op: OPERATORS[symbol], value };
});

/** The audience's fields as the campaign operations and the count name them. */
export const segmentFields = {
  audience_tag_ids: z
    .array(uuid)
    .max(MAX_SEGMENT_TAGS, { message: `must name at most ${MAX_SEGMENT_TAGS} tags` })
    .transform((ids) => [...new Set(ids)])
    .nullish(),
  audience_tag_match: z
    .string()
    .pipe(z.enum(TAG_MATCHES, { message: `must be one of ${TAG_MATCHES.join(', ')}` }))
    .nullish(),
  audience_conditions: z
    .array(conditionText)
    .max(MAX_CONDITIONS, { message: `must hold at most ${MAX_CONDITIONS} conditions` })
    .nullish(),
};

export type SegmentFields = {
  audience_tag_ids?: string[] | null;
  audience_tag_match?: TagMatch | null;
  audience_conditions?: Condition[] | null;
};

/** Whether the fields name an audience: at least one tag or one condition (an empty one would be everyone). */
export function namesSegment(fields: SegmentFields): boolean {
  return (fields.audience_tag_ids?.length ?? 0) > 0 || (fields.audience_conditions?.length ?? 0) > 0;
}

export function segmentOf(fields: SegmentFields): Segment {
  return {
    tag_ids: fields.audience_tag_ids ?? [],
    tag_match: fields.audience_tag_match ?? 'any',
    conditions: fields.audience_conditions ?? [],
  };
}

/** A campaign's audience by tags and fields, as stored (empty when its audience is of another kind). */
export function storedSegment(campaign: Pick<Campaign, 'audience_tag_ids' | 'audience_tag_match' | 'audience_conditions'>): Segment {
  return {
    tag_ids: campaign.audience_tag_ids,
    tag_match: campaign.audience_tag_match as TagMatch,
    conditions: campaign.audience_conditions as Condition[],
  };
}

export function isEmptySegment(segment: Segment): boolean {
  return segment.tag_ids.length === 0 && segment.conditions.length === 0;
}

/** A condition as its text, the form it was given in. */
export function writeCondition(condition: Condition): string {
  return `${condition.field}${SYMBOLS[condition.op]}${condition.value}`;
}

function conditionSql(contact: Prisma.Sql, condition: Condition): Prisma.Sql {
  const actual =
    condition.field === 'marketing_consent'
      ? Prisma.sql`${contact}.marketing_consent_status`
      : Prisma.sql`(${contact}.metadata ->> ${condition.field.slice('metadata.'.length)})`;
  return condition.op === 'equals' ? Prisma.sql`${actual} = ${condition.value}` : Prisma.sql`${actual} IS DISTINCT FROM ${condition.value}`;
}

function tagsSql(contact: Prisma.Sql, segment: Segment): Prisma.Sql {
  const carried = Prisma.sql`SELECT link.tag_id FROM customer_tags link
    WHERE link.customer_id = ${contact}.id AND link.tag_id = ANY(${segment.tag_ids}::uuid[])`;
  return segment.tag_match === 'any'
    ? Prisma.sql`EXISTS (${carried})`
    : Prisma.sql`(SELECT count(*) FROM (${carried}) tags) = ${segment.tag_ids.length}::int`;
}

/** Whether the contact (`contact` names its row) is in the audience; nobody is in an empty one. */
export function inSegment(contact: Prisma.Sql, segment: Segment): Prisma.Sql {
  const parts = [
    ...(segment.tag_ids.length > 0 ? [tagsSql(contact, segment)] : []),
    ...segment.conditions.map((condition) => conditionSql(contact, condition)),
  ];
  return isEmptySegment(segment) ? Prisma.sql`FALSE` : Prisma.sql`(${Prisma.join(parts, ' AND ')})`;
}
