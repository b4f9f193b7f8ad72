// Status moves that arrive together (delivery reports, our sends' outcomes) are applied together
// (resolvers/messaging/statusMoves.ts). This proves, on the database itself: one statement for the moves of one turn,
// each moved message with its own message.status event in the order the moves came; two moves of one message in one
// turn applied in their order, also when one names it by our id and the other by the reference a report carries; a
// move that fails the statement fails alone, the others applied; a report of no message answered with null.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import { createStatusMoves } from '../../resolvers/messaging/statusMoves.js';
import { forwardMove, moveMessages } from '../../resolvers/messaging/messageStatus.js';
import type { StatusMove } from '../../resolvers/shared/statusMoves.js';

const h = await openHarness();
const prisma = h.db.prisma;

/** The harness's client, counting the raw statements run through it. */
function countingClient(): { client: PrismaClient; statements: () => number } {
  let statements = 0;
  const client = new Proxy(prisma, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (property === '$queryRaw') statements++;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { client, statements: () => statements };
}

async function sentMessages(count: number, options: { withProviderIds: boolean } = { withProviderIds: true }) {
  const { workspace_id: company_id } = await h.workspace();
  const contact = await prisma.customer.create({ data: { company_id, name: 'Report', phone_number: '+15550009876' } });
  const conversation = await prisma.conversation.create({ data: { company_id, customer_id: contact.id, provider: 'sandbox' } });
  const messages = [];
  for (let index = 0; index < count; index++) {
    messages.push(
      await prisma.message.create({
        data: {
          company_id,
          conversation_id: conversation.id,
          direction: 'outbound',
          status: options.withProviderIds ? 'sent' : 'pending',
          body: `Message ${index}`,
          provider_message_id: options.withProviderIds ? `wamid.report-${company_id}-${index}` : null,
        },
      }),
    );
  }
  return { workspaceId: company_id, messages };
}

const report = (providerMessageId: string, status: 'sent' | 'delivered' | 'read', reference: string | null = null): StatusMove => ({
  target: { providerMessageId, reference },
  from: { sent: ['pending'], delivered: ['pending', 'sent', 'failed'], read: ['pending', 'sent', 'failed', 'delivered'] }[
    status
  ] as StatusMove['from'],
  status,
  extra: { provider_message_id: providerMessageId },
});

async function statusEvents(workspaceId: string) {
  const events = await prisma.event.findMany({ where: { company_id: workspaceId, type: 'message.status' }, orderBy: { id: 'asc' } });
  return events.map((event) => {
    const body = JSON.parse(event.body) as { id: string; data: { message: { id: string; status: string } } };
    expect(body.id).toBe(`evt_${event.id}`);
    return [body.data.message.id, body.data.message.status];
  });
}

describe('delivery reports that arrive together', () => {
  it('are applied in one statement, each message with its own event, in the order the reports came', async () => {
    const { workspaceId, messages } = await sentMessages(3);
    const counting = countingClient();
    const reports = createStatusMoves(counting.client);
    const [first, second, third] = messages.map((message) => message.provider_message_id!);
    const moved = await Promise.all([
      reports.move(workspaceId, report(second!, 'read')),
      reports.move(workspaceId, report(first!, 'delivered')),
      reports.move(workspaceId, report(third!, 'delivered')),
    ]);
    expect(counting.statements()).toBe(1);
    expect(moved.map((message) => [message?.id, message?.status])).toEqual([
      [messages[1]!.id, 'read'],
      [messages[0]!.id, 'delivered'],
      [messages[2]!.id, 'delivered'],
    ]);
    expect(await statusEvents(workspaceId)).toEqual([
      [messages[1]!.id, 'read'],
      [messages[0]!.id, 'delivered'],
      [messages[2]!.id, 'delivered'],
    ]);
    const read = await prisma.message.findUniqueOrThrow({ where: { id: messages[1]!.id } });
    expect(read).toMatchObject({ status: 'read', delivered_at: expect.any(Date), read_at: expect.any(Date) });
  });

  it('of one message are applied in their order, one statement each, each with its event', async () => {
    const { workspaceId, messages } = await sentMessages(1);
    const counting = countingClient();
    const reports = createStatusMoves(counting.client);
    const providerId = messages[0]!.provider_message_id!;
    const moved = await Promise.all([
      reports.move(workspaceId, report(providerId, 'delivered')),
      reports.move(workspaceId, report(providerId, 'read')),
    ]);
    expect(counting.statements()).toBe(2);
    expect(moved.map((message) => message?.status)).toEqual(['delivered', 'read']);
    expect(await statusEvents(workspaceId)).toEqual([
      [messages[0]!.id, 'delivered'],
      [messages[0]!.id, 'read'],
    ]);
  });

  it('of one message, ours by its id and a report by our reference, are applied in their order', async () => {
    const { workspaceId, messages } = await sentMessages(1, { withProviderIds: false });
    const counting = countingClient();
    const moves = createStatusMoves(counting.client);
    const message = messages[0]!;
    const moved = await Promise.all([
      moves.move(workspaceId, forwardMove(message.id, 'sent', { provider_message_id: 'wamid.ours-first' })),
      moves.move(workspaceId, report('wamid.ours-first', 'delivered', message.id)),
    ]);
    expect(counting.statements()).toBe(2);
    expect(moved.map((row) => row?.status)).toEqual(['sent', 'delivered']);
    expect(await statusEvents(workspaceId)).toEqual([
      [message.id, 'sent'],
      [message.id, 'delivered'],
    ]);
    expect(await prisma.message.findUniqueOrThrow({ where: { id: message.id } })).toMatchObject({
      status: 'delivered',
      provider_message_id: 'wamid.ours-first',
    });
  });

  // Two connections: only a PostgreSQL server has them (the embedded database is one session).
  it.skipIf(!process.env['TEST_DATABASE_URL'])('that wait for a lock on the message move it only if its status still allows', async () => {
    const { workspaceId, messages } = await sentMessages(1, { withProviderIds: false });
    const message = messages[0]!;
    const moves = createStatusMoves(prisma);
    let reported: Promise<unknown> | undefined;
    await prisma.$transaction(async (tx) => {
      await moveMessages(tx, workspaceId, [forwardMove(message.id, 'sent', { provider_message_id: 'wamid.locked' })]);
      // The provider's report of the same step, by our reference, read the message as pending and waits for the lock.
      reported = moves.move(workspaceId, report('wamid.locked', 'sent', message.id));
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    expect(await reported).toBeNull();
    expect(await statusEvents(workspaceId)).toEqual([[message.id, 'sent']]);
  });

  it('fail alone: a move that fails its statement leaves the others applied; a report of no message answers null', async () => {
    const { workspaceId, messages } = await sentMessages(2);
    const { messages: pending } = await sentMessages(1, { withProviderIds: false });
    // The pending message of another workspace cannot be reached from this one: its report names no message here.
    const unknown = report('wamid.nothing-here', 'delivered', pending[0]!.id);
    // A report found by our reference, naming a provider id that another message of the workspace already has.
    const [mine] = await prisma.message.createManyAndReturn({
      data: [
        {
          company_id: workspaceId,
          conversation_id: messages[0]!.conversation_id,
          direction: 'outbound',
          status: 'pending',
          body: 'Pending',
        },
      ],
    });
    const clashing: StatusMove = {
      target: { providerMessageId: 'wamid.not-recorded-yet', reference: mine!.id },
      from: ['pending', 'sent', 'failed'],
      status: 'delivered',
      extra: { provider_message_id: messages[1]!.provider_message_id! },
    };
    const reports = createStatusMoves(prisma);
    const outcomes = await Promise.allSettled([
      reports.move(workspaceId, report(messages[0]!.provider_message_id!, 'delivered')),
      reports.move(workspaceId, clashing),
      reports.move(workspaceId, unknown),
    ]);
    expect(outcomes[0]).toMatchObject({ status: 'fulfilled', value: { id: messages[0]!.id, status: 'delivered' } });
    expect(outcomes[1]).toMatchObject({ status: 'rejected' });
    expect(outcomes[2]).toEqual({ status: 'fulfilled', value: null });
    expect((await prisma.message.findUniqueOrThrow({ where: { id: mine!.id } })).status).toBe('pending');
    expect(await statusEvents(workspaceId)).toEqual([[messages[0]!.id, 'delivered']]);
  });
});
