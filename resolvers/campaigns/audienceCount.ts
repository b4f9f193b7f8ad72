// How many contacts an audience by tags and fields reaches now, without creating a campaign: what the console
// shows while an audience is being put together. Counted as the campaign's start would take them: contacts
// without a messaging address are recorded as skipped, and a MARKETING template skips those who opted out, so
// both are counted apart and the caller reads the figure of its template's category (no template is looked up).
import { z } from 'zod';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, requireActor } from '../shared/context.js';
import { invalid } from '../shared/errors.js';
import { parseInput } from '../shared/validation.js';
import { assertSegmentTags } from './audienceTags.js';
import { inSegment, namesSegment, segmentFields, segmentOf } from './segment.js';

export type AudienceCount = { total: number; no_address: number; opted_out: number; sendable: number; sendable_marketing: number };

const countInput = z.object(segmentFields);

const contact = Prisma.raw('c');

export async function countAudience(ctx: Context, input: z.input<typeof countInput>): Promise<AudienceCount> {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(countInput, input);
  if (!namesSegment(args)) throw invalid({ audience_tag_ids: 'give at least one tag or one condition (audience_conditions)' });
  await assertSegmentTags(ctx.prisma, workspaceId, args.audience_tag_ids ?? []);
  const [counts] = await ctx.prisma.$queryRaw<{ total: number; no_address: number; opted_out: number }[]>`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE no_address)::int AS no_address,
           count(*) FILTER (WHERE NOT no_address AND c.marketing_consent_status = 'opted_out')::int AS opted_out
    FROM customers c, LATERAL (SELECT c.wa_id IS NULL AND c.phone_number IS NULL AS no_address) address
    WHERE c.company_id = ${workspaceId}::uuid AND ${inSegment(contact, segmentOf(args))}`;
  const { total, no_address, opted_out } = counts!;
  return { total, no_address, opted_out, sendable: total - no_address, sendable_marketing: total - no_address - opted_out };
}
