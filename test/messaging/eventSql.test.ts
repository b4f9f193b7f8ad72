// A status move records its message.status event in the same SQL statement (resolvers/messaging/messageStatus.ts),
// with the envelope text built by SQL (messageEventEnvelope). This proves that text is the JSON recordEvent writes
// for the same message: every part and field, timestamps as JSON.stringify writes a Date (whole seconds and
// milliseconds alike), JSON columns nested as they are, nulls as null.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { EVENT_ID_PREFIX, newEvent } from '../../resolvers/shared/outbox.js';
import { eventDataOfRow, MESSAGE_EVENT_COLUMNS, messageEventEnvelope } from '../../resolvers/messaging/messageEvents.js';

const h = await openHarness();

describe('a message event built by SQL', () => {
  it('is the envelope recordEvent writes for the same message', async () => {
    const { workspace_id: company_id } = await h.workspace();
    const prisma = h.db.prisma;
    const contact = await prisma.customer.create({
      data: { company_id, name: 'Zoë "Quote" \\ Test', phone_number: '+15550001234', metadata: { source: 'import', tags: [1, 'a', null] } },
    });
    const conversation = await prisma.conversation.create({
      data: {
        company_id,
        customer_id: contact.id,
        provider: 'sandbox',
        details: { topic: 'delivery', nested: { ok: true } },
        last_message_at: new Date('2026-01-02T03:04:05.000Z'),
      },
    });
    const message = await prisma.message.create({
      data: {
        company_id,
        conversation_id: conversation.id,
        direction: 'outbound',
        status: 'sent',
        body: 'Line one\nline "two" — ünïcode ✓',
        created_at: new Date('2026-01-02T03:04:05.678Z'),
      },
    });
    const event = newEvent();
    const [row] = await prisma.$queryRaw<Record<string, unknown>[]>`
      SELECT ${MESSAGE_EVENT_COLUMNS}, ${messageEventEnvelope('message.status', { id: Prisma.sql`${event.id}::uuid`, createdAt: Prisma.sql`${event.createdAt}::timestamptz` })} AS envelope
      FROM messages message
      JOIN conversations conversation ON conversation.id = message.conversation_id
      JOIN customers contact ON contact.id = conversation.customer_id
      WHERE message.id = ${message.id}::uuid`;
    const expected = {
      id: `${EVENT_ID_PREFIX}${event.id}`,
      type: 'message.status',
      created_at: event.createdAt.toISOString(),
      data: eventDataOfRow(row!),
    };
    expect(JSON.parse(row!['envelope'] as string)).toStrictEqual(JSON.parse(JSON.stringify(expected)));
  });
});
