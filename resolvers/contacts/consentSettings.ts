// The workspace's consent settings: the opt-out keywords (STOP, UNSUBSCRIBE, PARAR, BAJA by default), the opt-in
// keywords (START, SUBSCRIBE) and the texts that confirm each to the contact (none by default: nothing is sent).
// Keywords are kept upper-cased and trimmed, as inbound texts are compared (resolvers/messaging/consentKeywords.ts).
import { z } from 'zod';
import type { Context } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { invalid } from '../shared/errors.js';
import { parseInput } from '../shared/validation.js';

export type ConsentSettings = {
  opt_out_keywords: string[];
  opt_in_keywords: string[];
  opt_out_confirmation: string | null;
  opt_in_confirmation: string | null;
};

const SELECT = { opt_out_keywords: true, opt_in_keywords: true, opt_out_confirmation: true, opt_in_confirmation: true } as const;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const keywords = z
  .array(
    z
      .string()
      .trim()
      .min(1, { message: 'must not contain an empty keyword' })
      .max(64, { message: 'must hold keywords of at most 64 characters' })
      // A half of a surrogate pair is no character: PostgreSQL refuses it in a text[] (a 500 before this check).
      .refine((keyword) => !LONE_SURROGATE.test(keyword), { message: 'must hold keywords of whole Unicode characters' }),
  )
  .max(20, { message: 'must hold at most 20 keywords' })
  .transform((list) => [...new Set(list.map((keyword) => keyword.toUpperCase()))]);
const confirmation = z.string().trim().max(1024, { message: 'must be at most 1024 characters' }).nullish();

const updateInput = z.object({
  opt_out_keywords: keywords.nullish(),
  opt_in_keywords: keywords.nullish(),
  opt_out_confirmation: confirmation,
  opt_in_confirmation: confirmation,
});

export async function consentSettings(ctx: Context): Promise<ConsentSettings> {
  const { workspaceId } = requireActor(ctx);
  return ctx.prisma.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: SELECT });
}

/** Changes the given settings; an omitted one stays, a null confirmation sends none. A keyword may not be in both lists. */
export async function updateConsentSettings(ctx: Context, raw: Record<string, unknown>): Promise<ConsentSettings> {
  const { workspaceId } = requireActor(ctx);
  const input = parseInput(updateInput, raw);
  return ctx.prisma.$transaction(async (tx) => {
    const current = await tx.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: SELECT });
    const optOut = input.opt_out_keywords ?? current.opt_out_keywords;
    const optIn = input.opt_in_keywords ?? current.opt_in_keywords;
    const both = optOut.filter((keyword) => optIn.includes(keyword));
    if (both.length > 0) throw invalid({ opt_in_keywords: `must not repeat an opt-out keyword (${both.join(', ')})` });
    return tx.workspace.update({
      where: { id: workspaceId },
      data: {
        opt_out_keywords: optOut,
        opt_in_keywords: optIn,
        ...(input.opt_out_confirmation !== undefined ? { opt_out_confirmation: input.opt_out_confirmation || null } : {}),
        ...(input.opt_in_confirmation !== undefined ? { opt_in_confirmation: input.opt_in_confirmation || null } : {}),
      },
      select: SELECT,
    });
  });
}
