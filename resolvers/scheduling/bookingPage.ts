// The public booking page (GET /book/<public_id>) and its key-less API: what anyone may see and do with a
// workspace's public id and no API key. The public id is the only input that selects the workspace; each
// function then acts for that workspace through the resolvers an API key uses (types, slots, contact create,
// booking), so their rules apply unchanged. Answers carry nothing about other contacts or appointments.
import { z } from 'zod';
import type { PrismaClient } from '../../prisma/generated/prisma/client.js';
import type { Context } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { getAppointmentType, listAppointmentTypes } from './appointmentTypes.js';
import { listCalendarSlots } from './calendarSlots.js';
import { bookAppointment } from './appointments.js';
import { createContact } from '../contacts/mutations.js';
import { findContactByPhone } from '../contacts/contacts.js';
import { emailAddress, phoneNumber } from '../contacts/channels.js';
import { localIso } from './availability.js';
import { dateRange, instant, parseInput, uuid } from '../shared/validation.js';

/** Half the keyed calendarSlots range (62 days): a month view, with room for a week that spans a DST change. */
export const MAX_PUBLIC_SLOT_DAYS = 31;

const PUBLIC_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Marks the contacts the booking page created, for the team (contact metadata). */
const CONTACT_SOURCE = { source: 'booking_page' };

/** The input fields of these functions: the only keys an error's details may name towards a visitor. */
const PUBLIC_FIELDS = new Set(['public_id', 'appointment_type_id', 'from', 'to', 'start_at', 'name', 'phone', 'email', 'notes']);

const bookInput = z.object({
  appointment_type_id: uuid,
  start_at: instant,
  name: z.string().trim().min(1, { message: 'is required' }).max(200, { message: 'must be at most 200 characters' }),
  phone: phoneNumber,
  email: emailAddress.nullish(),
  notes: z.string().trim().max(5000, { message: 'must be at most 5000 characters' }).nullish(),
});

type Booker = z.output<typeof bookInput>;

async function workspaceOf(ctx: Context, publicId: string) {
  const workspace = PUBLIC_ID.test(publicId)
    ? await ctx.prisma.workspace.findUnique({ where: { public_id: publicId }, select: { id: true, name: true, time_zone: true } })
    : null;
  if (!workspace) throw notFound('Booking page');
  return workspace;
}

/**
 * A context acting for the workspace behind a public id, whoever calls (a key sent along is ignored), for the
 * resolvers the page reuses. It carries no scopes: it never runs GraphQL.
 */
function actingFor(ctx: Context, workspaceId: string): Context {
  return {
    ...ctx,
    actor: { workspaceId, userId: null, keyId: 'booking-page', keyPrefix: 'booking-page', scopes: new Set() },
  };
}

/**
 * Runs `work` with a context whose database calls join one transaction: all of it is written or nothing. The
 * resolvers it runs join it rather than open their own (resolvers/shared/transaction.ts).
 */
function inOneTransaction<Result>(ctx: Context, work: (scoped: Context) => Promise<Result>): Promise<Result> {
  return ctx.prisma.$transaction((tx) => work({ ...ctx, prisma: tx as PrismaClient }));
}

/** The same error without details a visitor did not send (such as the id of a conflicting appointment). */
function forVisitors(error: unknown): unknown {
  if (!(error instanceof DomainError) || !error.details) return error;
  const details = Object.fromEntries(Object.entries(error.details).filter(([field]) => PUBLIC_FIELDS.has(field)));
  return new DomainError(error.code, error.message, Object.keys(details).length > 0 ? details : undefined);
}

async function publicly<Result>(work: () => Promise<Result>): Promise<Result> {
  try {
    return await work();
  } catch (error) {
    throw forVisitors(error);
  }
}

/** The workspace's name, time zone and bookable (active) appointment types, by name. */
export function bookingPage(ctx: Context, input: { public_id: string }) {
  return publicly(async () => {
    const workspace = await workspaceOf(ctx, input.public_id);
    const { appointment_types } = await listAppointmentTypes(
      actingFor(ctx, workspace.id),
      { active: true },
      { select: { id: true, name: true, duration_minutes: true } },
    );
    return { name: workspace.name, time_zone: workspace.time_zone, appointment_types };
  });
}

/** The free slots of an active type of the workspace starting in [from, to), at most MAX_PUBLIC_SLOT_DAYS. */
export function bookingPageSlots(ctx: Context, input: { public_id: string; appointment_type_id: string; from: Date; to: Date }) {
  return publicly(async () => {
    const workspace = await workspaceOf(ctx, input.public_id);
    parseInput(dateRange(MAX_PUBLIC_SLOT_DAYS), input);
    return listCalendarSlots(actingFor(ctx, workspace.id), input);
  });
}

const CONFIRMATION = { select: { id: true, start_at: true, end_at: true } };

function conflictOn(error: unknown, field: string): boolean {
  return error instanceof DomainError && error.code === 'CONFLICT' && error.details?.[field] !== undefined;
}

/** A new contact for the booker. An email that belongs to another contact is left off, and not told. */
async function createBookerContact(ctx: Context, booker: Booker) {
  const contact = { name: booker.name, phone_number: booker.phone, metadata: CONTACT_SOURCE };
  if (booker.email) {
    try {
      return await createContact(ctx, { ...contact, email: booker.email });
    } catch (error) {
      if (!conflictOn(error, 'email')) throw error;
    }
  }
  return createContact(ctx, contact);
}

/**
 * Books for the workspace's contact with the booker's phone number; without one, creates the contact and
 * books in one transaction, so a refused booking leaves no contact behind. A contact that another request
 * created meanwhile (a CONFLICT on the identity, not on the time) is found by a second pass.
 */
async function bookForBooker(ctx: Context, booker: Booker) {
  const booking = { appointment_type_id: booker.appointment_type_id, start_at: booker.start_at, notes: booker.notes || null };
  for (let pass = 1; ; pass++) {
    const existing = await findContactByPhone(ctx, booker.phone, { select: { id: true } });
    if (existing) return bookAppointment(ctx, { ...booking, customer_id: existing.id }, CONFIRMATION);
    try {
      return await inOneTransaction(ctx, async (scoped) => {
        const contact = await createBookerContact(scoped, booker);
        return bookAppointment(scoped, { ...booking, customer_id: contact.id }, CONFIRMATION);
      });
    } catch (error) {
      const lostIdentityRace = error instanceof DomainError && error.code === 'CONFLICT' && !conflictOn(error, 'start_at');
      if (!lostIdentityRace || pass === 2) throw error;
    }
  }
}

/**
 * Books a slot for a visitor: finds the contact by phone or creates it (name, phone, email), then books with
 * the rules of appointmentBook. Answers only what the visitor needs to keep.
 */
export function bookingPageBook(ctx: Context, input: z.input<typeof bookInput> & { public_id: string }) {
  return publicly(async () => {
    const workspace = await workspaceOf(ctx, input.public_id);
    const booker = parseInput(bookInput, input);
    const acting = actingFor(ctx, workspace.id);
    const appointment = await bookForBooker(acting, booker);
    const type = await getAppointmentType(acting, { id: booker.appointment_type_id }, { select: { name: true } });
    return {
      appointment_id: appointment.id,
      appointment_type_name: type.name,
      start_at: appointment.start_at,
      end_at: appointment.end_at,
      local_start: localIso(appointment.start_at, workspace.time_zone),
      local_end: localIso(appointment.end_at, workspace.time_zone),
      time_zone: workspace.time_zone,
    };
  });
}
