// Creating, updating, deleting and bulk-importing contacts of the caller's workspace. Identity fields
// (phone_number, wa_id, email) are written through the contact's channels (resolvers/contacts/channels.ts),
// so the contact and its channels never disagree.
import { z } from 'zod';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, type Db, requireActor } from '../shared/context.js';
import { DomainError, type ErrorCode, notFound } from '../shared/errors.js';
import { idInput, parseInput, uuid } from '../shared/validation.js';
import {
  CONTACT_FIELD_TYPES,
  MIRROR_COLUMN,
  defaultProviders,
  emailAddress,
  firstChannels,
  phoneNumber,
  refusingDuplicates,
  setPrimaryIdentity,
  waId,
  type DefaultProviders,
} from './channels.js';
import { asContactRow, contactDetail, type ContactDetail } from './contacts.js';
import { recordContactCreated } from './contactEvents.js';
import { inTransaction } from '../shared/transaction.js';

export const MAX_IMPORT_ROWS = 500;

const contactFields = {
  name: z.string().trim().min(1, { message: 'must not be empty' }).max(200, { message: 'must be at most 200 characters' }).nullish(),
  phone_number: phoneNumber.nullish(),
  wa_id: waId.nullish(),
  email: emailAddress.nullish(),
  image_url: z
    .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
    .max(2048)
    .nullish(),
  metadata: z.record(z.string(), z.unknown(), { message: 'must be an object' }).nullish(),
  profile_name: z.string().trim().max(200, { message: 'must be at most 200 characters' }).nullish(),
  notes: z.string().max(10_000, { message: 'must be at most 10000 characters' }).nullish(),
};

const createInput = z
  .object(contactFields)
  .refine((contact) => Boolean(contact.name || contact.phone_number || contact.wa_id || contact.email), {
    message: 'needs at least one of name, phone_number, wa_id or email',
  });

const updateInput = z.object({ id: uuid, ...contactFields });

type ContactInput = z.output<typeof createInput>;

/** Non-identity fields as Prisma data: absent stays unchanged, null clears (JSON null is SQL NULL). */
function profileData(input: Partial<ContactInput>) {
  const { name, image_url, metadata, profile_name, notes } = input;
  return {
    name,
    image_url,
    profile_name,
    notes,
    metadata: metadata === null ? Prisma.DbNull : (metadata as Prisma.InputJsonObject | undefined),
  };
}

async function writeIdentities(db: Db, workspaceId: string, customerId: string, input: Partial<ContactInput>) {
  for (const type of CONTACT_FIELD_TYPES) {
    const value = input[MIRROR_COLUMN[type]];
    if (value !== undefined) await setPrimaryIdentity(db, workspaceId, customerId, type, value);
  }
}

/** Creates the contact (recording contact.created); a new contact has no tags and no conversations yet. */
async function insertContact(db: Db, workspaceId: string, input: ContactInput, providers: DefaultProviders): Promise<ContactDetail> {
  const identities = CONTACT_FIELD_TYPES.flatMap((type) => {
    const value = input[MIRROR_COLUMN[type]];
    return value ? [{ type, value, provider: providers(type) }] : [];
  });
  const { phone_number, wa_id, email } = input;
  // One write creates the contact and its channels, in the transaction that records its event: a failure leaves none.
  const created = await db.customer.create({
    data: {
      company_id: workspaceId,
      ...profileData(input),
      phone_number,
      wa_id,
      email,
      channels: await firstChannels(db, workspaceId, identities),
    },
  });
  await recordContactCreated(db, workspaceId, created.id);
  return { ...asContactRow(created), tags: [], conversation_count: 0 };
}

export async function createContact(ctx: Context, input: Record<string, unknown>) {
  const { workspaceId } = requireActor(ctx);
  const contact = parseInput(createInput, input);
  const providers = await defaultProviders(ctx.prisma, workspaceId);
  return refusingDuplicates(() => inTransaction(ctx.prisma, (tx) => insertContact(tx, workspaceId, contact, providers)));
}

export async function updateContact(ctx: Context, input: Record<string, unknown>) {
  const { workspaceId } = requireActor(ctx);
  const { id, ...changes } = parseInput(updateInput, input);
  await refusingDuplicates(() =>
    ctx.prisma.$transaction(async (tx) => {
      const found = await tx.customer.findFirst({ where: { id, company_id: workspaceId }, select: { id: true } });
      if (!found) throw notFound('Customer');
      await tx.customer.update({ where: { id }, data: profileData(changes) });
      await writeIdentities(tx, workspaceId, id, changes);
    }),
  );
  // Read once committed, as every read of a contact is (contactDetail); deleted meanwhile, it is not found.
  const updated = await contactDetail(ctx.sql, workspaceId, id);
  if (!updated) throw notFound('Customer');
  return updated;
}

/** Deletes the contact with everything that is about it: conversations, their messages, notes, summaries. */
export async function deleteContact(ctx: Context, input: { id: string }) {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, input);
  return ctx.prisma.$transaction(async (tx) => {
    const found = await tx.customer.findFirst({ where: { id, company_id: workspaceId }, select: { id: true } });
    if (!found) throw notFound('Customer');
    const deleted_conversations = await tx.conversation.count({ where: { customer_id: id } });
    const deleted_messages = await tx.message.count({ where: { conversation: { customer_id: id } } });
    await tx.customer.delete({ where: { id } });
    return { id, deleted: true, deleted_conversations, deleted_messages };
  });
}

type ImportRow<Contact> =
  | { index: number; status: 'created'; contact: Contact; error: null }
  | {
      index: number;
      status: 'failed';
      contact: null;
      error: { code: ErrorCode; message: string; details: Record<string, unknown> | null };
    };

const importInput = z.object({
  contacts: z
    .array(z.unknown(), { message: 'must be a list of contacts' })
    .min(1, { message: 'must hold at least one contact' })
    .max(MAX_IMPORT_ROWS, { message: `must hold at most ${MAX_IMPORT_ROWS} contacts` }),
});

/**
 * Creates each row on its own, as a single create would: a row that fails (invalid, or an identity another
 * contact already has, including an earlier row of the same import) writes nothing and is reported with the
 * error its single create would have given; the other rows are written. Rows are not merged into existing
 * contacts: an import is a series of creates.
 */
export async function importContacts(ctx: Context, input: { contacts: unknown[] }) {
  const { workspaceId } = requireActor(ctx);
  const { contacts } = parseInput(importInput, input);
  const providers = await defaultProviders(ctx.prisma, workspaceId);
  const results: ImportRow<ContactDetail>[] = [];
  for (const [index, row] of contacts.entries()) {
    try {
      const contact = parseInput(createInput, row);
      const created = await refusingDuplicates(() => inTransaction(ctx.prisma, (tx) => insertContact(tx, workspaceId, contact, providers)));
      results.push({ index, status: 'created', contact: created, error: null });
    } catch (error) {
      // Anything but a domain error (the database went away) ends the import as a failed request; the rows
      // written so far stay, and importing again reports them as CONFLICT rows with their contact_id.
      if (!(error instanceof DomainError)) throw error;
      results.push({
        index,
        status: 'failed',
        contact: null,
        error: { code: error.code, message: error.message, details: error.details ?? null },
      });
    }
  }
  const created = results.filter((row) => row.status === 'created').length;
  return { created, failed: results.length - created, results };
}
