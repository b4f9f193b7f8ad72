// A contact's identities (channels): phone numbers, messaging-provider user ids (wa_id), WhatsApp
// business-scoped user ids (bsuid, and the parent_bsuid shared across a business's portfolios), usernames
// and email addresses, each for a provider. The rule that keeps the Customer fields true: after every
// change, `mirrorPrimaries` makes the oldest channel of a type primary when none is, and copies each
// mirrored type's primary value onto Customer.phone_number / wa_id / bsuid / username / email (null when
// the contact has no channel of it).
import { z } from 'zod';
import { Prisma } from '../../prisma/generated/prisma/client.js';
import { type Context, type Db, requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { idInput, parseInput, uuid } from '../shared/validation.js';

type Query = { select?: Prisma.ContactChannelSelect; include?: Prisma.ContactChannelInclude };

export const CHANNEL_TYPES = ['phone', 'wa_id', 'bsuid', 'parent_bsuid', 'username', 'email'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** The Customer column that mirrors each type's primary channel (also the field name clients use), or null. */
export const MIRROR_COLUMN = {
  phone: 'phone_number',
  wa_id: 'wa_id',
  bsuid: 'bsuid',
  parent_bsuid: null,
  username: 'username',
  email: 'email',
} as const satisfies Record<ChannelType, keyof Prisma.CustomerUncheckedUpdateInput | null>;

/** The types a contact's own writable fields (phone_number, wa_id, email) set; the others come from providers and channels. */
export const CONTACT_FIELD_TYPES = ['phone', 'wa_id', 'email'] as const satisfies readonly ChannelType[];

type MirrorColumn = NonNullable<(typeof MIRROR_COLUMN)[ChannelType]>;

export const phoneNumber = z
  .string()
  .trim()
  .regex(/^\+[1-9]\d{6,14}$/, { message: 'must be an E.164 phone number such as +14155550123' });
/** WhatsApp ids are digits today; business-scoped user ids (BSUID) may carry letters, dots and colons. */
export const waId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._:-]{1,128}$/, { message: 'must be 1 to 128 letters, digits, dots, colons, dashes or underscores' });
/**
 * A business-scoped user id: an ISO country code, a dot, then letters and digits (US.13491208655302741918);
 * a parent BSUID has ENT between them (US.ENT.11815799212886844830).
 */
export const bsuid = z
  .string()
  .trim()
  .regex(/^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/, { message: 'must be a business-scoped user id such as US.13491208655302741918' });
/** A WhatsApp username as Meta reports it; usernames change, so it is never used to find a contact. */
export const username = z
  .string()
  .trim()
  .regex(/^@?[A-Za-z0-9._]{1,64}$/, { message: 'must be 1 to 64 letters, digits, dots or underscores' });
export const emailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'must be an email address' }).max(320, { message: 'must be at most 320 characters' }));

const VALUE_SCHEMA: Record<ChannelType, z.ZodType<string, string>> = {
  phone: phoneNumber,
  wa_id: waId,
  bsuid,
  parent_bsuid: bsuid,
  username,
  email: emailAddress,
};

const providerName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z][a-z0-9_-]{0,31}$/, { message: 'must be a provider name such as whatsapp' });

/** The provider a new channel of each type gets when none is given. */
export type DefaultProviders = (type: ChannelType) => string;

/** Email addresses belong to no messaging provider; phones and wa_ids to the workspace's first integration's. */
export async function defaultProviders(db: Db, workspaceId: string): Promise<DefaultProviders> {
  const integration = await db.integration.findFirst({
    where: { company_id: workspaceId },
    orderBy: { id: 'asc' },
    select: { provider: true },
  });
  return (type) => (type === 'email' ? 'email' : (integration?.provider ?? 'whatsapp'));
}

function alreadyUsed(type: ChannelType, ownerId: string): DomainError {
  const field = MIRROR_COLUMN[type] ?? type;
  return new DomainError('CONFLICT', `This ${field} already belongs to a contact`, {
    [field]: 'already belongs to a contact',
    contact_id: ownerId,
  });
}

export type Identity = { type: ChannelType; provider: string; value: string };

/** Refuses identities that a contact of the workspace already has, in one query. */
async function assertUnused(db: Db, workspaceId: string, identities: Identity[]) {
  if (identities.length === 0) return;
  const owner = await db.contactChannel.findFirst({
    where: { company_id: workspaceId, OR: identities },
    select: { customer_id: true, type: true },
  });
  if (owner) throw alreadyUsed(owner.type as ChannelType, owner.customer_id);
}

/**
 * The channels of a contact being created, as nested create data: all primary, like the contact's own fields
 * that hold the same values, so the mirror rule holds from the start. Identities in use are refused.
 */
export async function firstChannels(db: Db, workspaceId: string, identities: Identity[]) {
  await assertUnused(db, workspaceId, identities);
  return { createMany: { data: identities.map((identity) => ({ ...identity, company_id: workspaceId, is_primary: true })) } };
}

/** Runs a write, turning a unique-index race into the same CONFLICT that the checks give. */
export async function refusingDuplicates<Result>(write: () => Promise<Result>): Promise<Result> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new DomainError('CONFLICT', 'This identity already belongs to a contact');
    }
    throw error;
  }
}

async function mirrorPrimaries(db: Db, customerId: string, types: readonly ChannelType[] = CHANNEL_TYPES) {
  const data: Partial<Record<MirrorColumn, string | null>> = {};
  for (const type of types) {
    const primary = await db.contactChannel.findFirst({
      where: { customer_id: customerId, type },
      orderBy: [{ is_primary: 'desc' }, { id: 'asc' }],
      select: { id: true, value: true, is_primary: true },
    });
    if (primary && !primary.is_primary) {
      await db.contactChannel.update({ where: { id: primary.id }, data: { is_primary: true } });
    }
    const column = MIRROR_COLUMN[type];
    if (column) data[column] = primary?.value ?? null;
  }
  await db.customer.update({ where: { id: customerId }, data });
}

type NewChannel = {
  workspaceId: string;
  customerId: string;
  type: ChannelType;
  value: string;
  provider?: string | null | undefined;
  primary: boolean;
};

async function insertChannel(db: Db, channel: NewChannel, query: Query = {}) {
  const provider = channel.provider ?? (await defaultProviders(db, channel.workspaceId))(channel.type);
  await assertUnused(db, channel.workspaceId, [{ type: channel.type, provider, value: channel.value }]);
  if (channel.primary) {
    await db.contactChannel.updateMany({
      where: { customer_id: channel.customerId, type: channel.type, is_primary: true },
      data: { is_primary: false },
    });
  }
  const created = await db.contactChannel.create({
    data: {
      company_id: channel.workspaceId,
      customer_id: channel.customerId,
      type: channel.type,
      value: channel.value,
      provider,
      is_primary: channel.primary,
    },
  });
  await mirrorPrimaries(db, channel.customerId, [channel.type]);
  return db.contactChannel.findUniqueOrThrow({ ...query, where: { id: created.id } });
}

/**
 * Makes `value` the contact's primary identity of `type` (what writing phone_number, wa_id or email on the
 * contact means): an existing channel of the contact with that value is promoted, else the current primary
 * takes the new value (the number changed), else a new primary channel is added. Null removes the primary;
 * the next channel of the type, if any, takes its place.
 */
export async function setPrimaryIdentity(db: Db, workspaceId: string, customerId: string, type: ChannelType, value: string | null) {
  const primary = await db.contactChannel.findFirst({ where: { customer_id: customerId, type, is_primary: true } });
  if (value === null) {
    if (primary) await db.contactChannel.delete({ where: { id: primary.id } });
    return mirrorPrimaries(db, customerId, [type]);
  }
  if (primary?.value === value) return;
  const own = await db.contactChannel.findFirst({ where: { customer_id: customerId, type, value }, orderBy: { id: 'asc' } });
  if (own) {
    if (primary) await db.contactChannel.update({ where: { id: primary.id }, data: { is_primary: false } });
    await db.contactChannel.update({ where: { id: own.id }, data: { is_primary: true } });
    return mirrorPrimaries(db, customerId, [type]);
  }
  if (!primary) {
    await insertChannel(db, { workspaceId, customerId, type, value, primary: true });
    return;
  }
  await assertUnused(db, workspaceId, [{ type, provider: primary.provider, value }]);
  await db.contactChannel.update({ where: { id: primary.id }, data: { value } });
  return mirrorPrimaries(db, customerId, [type]);
}

/**
 * A contact just created takes the identities it was created for as its primary channels. They are inserted
 * without looking for a holder first: when a concurrent transaction has claimed one (committed or not), the
 * insert fails on the unique index instead of leaving two contacts of one person, and the caller retries to
 * find the contact that transaction made.
 */
export async function claimIdentities(db: Db, workspaceId: string, customerId: string, identities: Identity[]) {
  await db.contactChannel.createMany({
    data: identities.map((identity) => ({ company_id: workspaceId, customer_id: customerId, ...identity, is_primary: true })),
  });
  await mirrorPrimaries(
    db,
    customerId,
    identities.map((identity) => identity.type),
  );
}

/**
 * Identities a provider reported for a contact (an inbound message's wa_id and the phone number it implies,
 * its BSUID, parent BSUID and username) become the contact's primary channels of their types where it has
 * none yet, and so its fields. They never displace a primary the team set, and one that another contact
 * already holds is left out instead of refused: a contact's message is stored whoever else has its number.
 * The types in `current` (the username, which its owner changes) take the reported value instead.
 */
export async function adoptReportedIdentities(
  db: Db,
  workspaceId: string,
  customerId: string,
  identities: Identity[],
  current: readonly ChannelType[] = [],
) {
  for (const identity of identities) {
    const holder = await db.contactChannel.findFirst({ where: { company_id: workspaceId, ...identity }, select: { customer_id: true } });
    if (holder) continue;
    const primary = await db.contactChannel.findFirst({ where: { customer_id: customerId, type: identity.type, is_primary: true } });
    if (primary && !current.includes(identity.type)) continue;
    if (primary) await db.contactChannel.update({ where: { id: primary.id }, data: { value: identity.value } });
    else await db.contactChannel.create({ data: { company_id: workspaceId, customer_id: customerId, ...identity, is_primary: true } });
    await mirrorPrimaries(db, customerId, [identity.type]);
  }
}

async function requireContact(db: Db, workspaceId: string, customerId: string) {
  const contact = await db.customer.findFirst({ where: { id: customerId, company_id: workspaceId }, select: { id: true } });
  if (!contact) throw notFound('Customer');
}

const customerIdInput = z.object({ customer_id: uuid });

export async function listChannels(ctx: Context, input: { customer_id: string }, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const { customer_id } = parseInput(customerIdInput, input);
  await requireContact(ctx.prisma, workspaceId, customer_id);
  const channels = await ctx.prisma.contactChannel.findMany({
    ...query,
    where: { customer_id },
    orderBy: [{ type: 'asc' }, { is_primary: 'desc' }, { id: 'asc' }],
  });
  return { channels };
}

const addInput = z
  .object({
    customer_id: uuid,
    type: z.enum(CHANNEL_TYPES, { message: `must be one of ${CHANNEL_TYPES.join(', ')}` }),
    value: z.string({ message: 'is required' }),
    provider: providerName.nullish(),
    is_primary: z.boolean().nullish(),
  })
  .transform((input, context) => {
    const value = VALUE_SCHEMA[input.type].safeParse(input.value);
    if (!value.success) {
      context.addIssue({ code: 'custom', path: ['value'], message: value.error.issues[0]?.message ?? 'is invalid' });
      return z.NEVER;
    }
    return { ...input, value: value.data };
  });

export async function addChannel(ctx: Context, input: z.input<typeof addInput>, query: Query = {}) {
  const { workspaceId } = requireActor(ctx);
  const args = parseInput(addInput, input);
  const { customer_id, type, value, provider, is_primary } = args;
  return refusingDuplicates(() =>
    ctx.prisma.$transaction(async (tx) => {
      await requireContact(tx, workspaceId, customer_id);
      return insertChannel(tx, { workspaceId, customerId: customer_id, type, value, provider, primary: is_primary ?? false }, query);
    }),
  );
}

export async function removeChannel(ctx: Context, input: { id: string }) {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, input);
  return ctx.prisma.$transaction(async (tx) => {
    const channel = await tx.contactChannel.findFirst({ where: { id, company_id: workspaceId } });
    if (!channel) throw notFound('Channel');
    await tx.contactChannel.delete({ where: { id } });
    await mirrorPrimaries(tx, channel.customer_id, [channel.type as ChannelType]);
    return { id, deleted: true };
  });
}
