// Demo data: a workspace with realistic contacts, conversations, messages and tags. Batched inserts, a thousand contacts
// with their conversations and messages per transaction (about 4 s each on the embedded database served through the
// server, with its search indexes); `onProgress` drives the CLI's progress bar.
import { v7 as uuidv7 } from 'uuid';
import type { Prisma, PrismaClient } from '../prisma/generated/prisma/client.js';
import type { SecretBox } from '../infra/crypto/secrets.js';
import { createWorkspace, type CreatedWorkspace } from '../resolvers/workspace/workspaces.js';

const FIRST = [
  'Ana',
  'Bruno',
  'Chen',
  'Dara',
  'Elif',
  'Femi',
  'Gita',
  'Hugo',
  'Ines',
  'Jonas',
  'Kemal',
  'Lucia',
  'Mateo',
  'Nadia',
  'Omar',
  'Priya',
  'Quinn',
  'Rosa',
  'Sven',
  'Tomas',
  'Uma',
  'Vera',
  'Wen',
  'Yusuf',
  'Zoe',
];
const LAST = [
  'Silva',
  'Okafor',
  'Nguyen',
  'Schmidt',
  'Garcia',
  'Kowalski',
  'Haddad',
  'Tanaka',
  'Rossi',
  'Ivanova',
  'Mensah',
  'Dubois',
  'Costa',
  'Novak',
  'Ali',
  'Larsen',
];
const TAGS = [
  ['vip', '#d4af37'],
  ['lead', '#1e88e5'],
  ['customer', '#43a047'],
  ['support', '#e53935'],
  ['newsletter', '#8e24aa'],
] as const;
const INBOUND = [
  'Hi, is my order on its way?',
  'Can I change my delivery address?',
  'Do you open on Sunday?',
  'Thanks, that worked!',
  'What does the premium plan include?',
];
const OUTBOUND = [
  'Hello! Let me check that for you.',
  'Your order ships today.',
  'We are open 9 to 18, Monday to Saturday.',
  'Glad to help!',
];
const STATUSES = ['active', 'active', 'active', 'pending', 'closed'] as const;
/** How long a batch may wait for the database (the embedded one serves one session at a time) and then take. */
const BATCH_TRANSACTION = { maxWait: 60_000, timeout: 120_000 };

export type SeedOptions = { contacts: number; name?: string; email?: string; batchSize?: number; onProgress?: (done: number) => void };

function pick<T>(items: readonly T[], n: number): T {
  return items[n % items.length] as T;
}

export async function seedDemo(services: { prisma: PrismaClient; secrets: SecretBox }, options: SeedOptions): Promise<CreatedWorkspace> {
  const { prisma } = services;
  const created = await createWorkspace(services, {
    name: options.name ?? 'Demo workspace',
    email: options.email ?? `demo+${Date.now()}@example.com`,
    userName: 'Demo Admin',
  });
  const company_id = created.workspace_id;
  await prisma.user.createMany({
    data: ['Maya Agent', 'Leo Agent'].map((name, index) => ({
      company_id,
      name,
      email: `agent${index + 1}.${company_id.slice(0, 8)}@example.com`,
      role: 'member',
    })),
  });
  const agents = await prisma.user.findMany({ where: { company_id }, select: { id: true } });
  const tags = await Promise.all(
    TAGS.map(([name, color]) => prisma.tag.create({ data: { company_id, name, color }, select: { id: true } })),
  );

  const batchSize = options.batchSize ?? 1000;
  const now = Date.now();
  const span = 90 * 24 * 3600 * 1000;
  for (let start = 0; start < options.contacts; start += batchSize) {
    const count = Math.min(batchSize, options.contacts - start);
    const customers: Prisma.CustomerCreateManyInput[] = [];
    const conversations: Prisma.ConversationCreateManyInput[] = [];
    const messages: Prisma.MessageCreateManyInput[] = [];
    const links: Prisma.CustomerTagCreateManyInput[] = [];
    for (let i = 0; i < count; i++) {
      const n = start + i;
      const createdAt = new Date(now - span + Math.floor((span * n) / Math.max(options.contacts, 1)));
      const first = pick(FIRST, n * 7);
      const last = pick(LAST, n * 13);
      const phone = `+1555${String(1_000_000 + n).padStart(7, '0')}`;
      const customerId = uuidv7({ msecs: createdAt.getTime() });
      const lastInbound = n % 4 === 3 ? null : new Date(createdAt.getTime() + ((n * 7919) % (span / 2)));
      customers.push({
        id: customerId,
        company_id,
        name: `${first} ${last}`,
        profile_name: first,
        phone_number: phone,
        wa_id: phone.slice(1),
        email: n % 3 === 0 ? null : `${first}.${last}${n}@example.com`.toLowerCase(),
        metadata: { source: pick(['website', 'whatsapp', 'import'], n) },
        last_message_at: lastInbound,
        created_at: createdAt,
        updated_at: createdAt,
      });
      const conversationId = uuidv7({ msecs: createdAt.getTime() });
      const status = pick(STATUSES, n);
      conversations.push({
        id: conversationId,
        company_id,
        customer_id: customerId,
        integration_id: created.integration_id,
        provider: 'sandbox',
        status,
        // Analytics measure resolution to closed_at; a closed demo conversation closed at its last activity.
        closed_at: status === 'closed' ? (lastInbound ?? createdAt) : null,
        service_enabled: n % 2 === 0,
        assigned_user_id: n % 5 === 0 ? null : pick(agents, n).id,
        last_message_at: lastInbound,
        created_at: createdAt,
        updated_at: lastInbound ?? createdAt,
      });
      if (lastInbound) {
        messages.push(
          {
            id: uuidv7({ msecs: lastInbound.getTime() - 60_000 }),
            company_id,
            conversation_id: conversationId,
            direction: 'outbound',
            body: pick(OUTBOUND, n),
            status: 'read',
            created_at: new Date(lastInbound.getTime() - 60_000),
            updated_at: lastInbound,
          },
          {
            id: uuidv7({ msecs: lastInbound.getTime() }),
            company_id,
            conversation_id: conversationId,
            direction: 'inbound',
            body: pick(INBOUND, n),
            status: 'received',
            created_at: lastInbound,
            updated_at: lastInbound,
          },
        );
      }
      if (n % 3 !== 1) links.push({ customer_id: customerId, tag_id: pick(tags, n).id });
    }
    // A batch is written whole or not at all. Prisma's default limit of 5 s for a transaction is too short for a
    // batch on a busy machine (5.6 s once, with the embedded database serving the CLI through the server): the seed
    // then failed at its first batch.
    await prisma.$transaction(async (tx) => {
      await tx.customer.createMany({ data: customers });
      await tx.conversation.createMany({ data: conversations });
      await tx.message.createMany({ data: messages });
      await tx.customerTag.createMany({ data: links });
    }, BATCH_TRANSACTION);
    options.onProgress?.(start + count);
  }
  return created;
}
