// Dead letters of provider callbacks: the parts of a webhook payload (one inbound message or status report,
// or a change) that can never be stored as they are, kept per workspace with their raw JSON and the reason,
// so that one bad part neither costs the others nor is lost. A redelivered part is recorded once (its
// fingerprint is unique per workspace). Listed newest first for the workspace's team.
import { z } from 'zod';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, type Db, requireActor } from '../shared/context.js';
import { columnPage } from '../shared/pagination.js';
import { limit, parseInput, uuid } from '../shared/validation.js';
import type { FailedPart } from './whatsappPayload.js';

export type InboundFailureRecord = Omit<FailedPart, 'kind'> & { workspaceId: string; integrationId: string | null };

/** Keeps a part that can never be stored; nothing happens when the same part is already kept. */
export async function recordInboundFailure(db: Db, failure: InboundFailureRecord): Promise<void> {
  await db.inboundFailure.createMany({
    data: [
      {
        company_id: failure.workspaceId,
        integration_id: failure.integrationId,
        phone_number_id: failure.phoneNumberId,
        kind: failure.part,
        reason: failure.reason.slice(0, 1000),
        payload: failure.payload as Prisma.InputJsonValue,
        fingerprint: failure.fingerprint,
      },
    ],
    skipDuplicates: true,
  });
}

const listInput = z.object({ limit: limit(20), cursor: uuid.nullish() });

type FailureQuery = { select?: Prisma.InboundFailureSelect; include?: Prisma.InboundFailureInclude };

export async function listInboundFailures(ctx: Context, input: z.input<typeof listInput>, query: FailureQuery = {}) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(listInput, input);
  return columnPage('id', 'desc', args, ({ after, orderBy, take }) =>
    ctx.prisma.inboundFailure.findMany({ ...query, where: { company_id: workspaceId, ...after }, orderBy, take }),
  );
}
