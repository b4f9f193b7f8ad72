// Contacts, the spec's customers: the list item (Customer), the single record (CustomerDetail) and the
// list envelope (CustomerList), with the list, search and get queries.
import type { ObjectRef } from '@pothos/core';
import type { Customer as CustomerRow } from '../../prisma/generated/prisma/client.js';
import { builder } from '../builder.js';
import { type ContactDetail, type ContactRow, getContact, listContacts, searchContacts } from '../../resolvers/contacts/contacts.js';
import { pageType } from '../shared/page.js';
import { limitArg } from '../shared/pageLimit.js';
import { EMAIL, URI } from '../shared/jsonSchemaHints.js';
import { marketingConsentOf } from '../../resolvers/contacts/consent.js';
import { MarketingConsentType } from './marketingConsent.js';

export const Customer = builder.prismaObject('Customer', {
  description: 'A contact (customer) of the workspace.',
  fields: () => ({}),
});

// The single record is read with its tags and count by one statement (resolvers/contacts/contacts.ts).
export const CustomerDetail = builder.objectRef<ContactDetail>('CustomerDetail').implement({
  description: 'A single contact: every Customer field plus its profile, notes, tags and activity.',
  fields: (t) => ({
    profile_name: t.exposeString('profile_name', { nullable: true }),
    notes: t.exposeString('notes', { nullable: true }),
    tags: t.exposeStringList('tags', { nullable: true, description: 'Names of the tags assigned to the contact, alphabetically.' }),
    last_message_at: t.expose('last_message_at', { type: 'DateTime', nullable: true }),
    conversation_count: t.exposeInt('conversation_count', { description: 'Total number of conversations with this contact.' }),
  }),
});

/** A contact from either source: a written statement (ContactRow, timestamps as ISO text) or a Prisma relation. */
type AnyContact = { [Column in keyof CustomerRow]: CustomerRow[Column] | ContactRow[Column] };

// The list item's fields, shared by both types.
const listItemTypes: ObjectRef<typeof builder.$inferSchemaTypes, AnyContact>[] = [Customer, CustomerDetail];
for (const variant of listItemTypes) {
  builder.objectFields(variant, (t) => ({
    id: t.exposeID('id'),
    company_id: t.exposeID('company_id', { nullable: true }),
    phone_number: t.exposeString('phone_number', { nullable: true, description: 'E.164 format.' }),
    wa_id: t.exposeString('wa_id', { nullable: true, description: 'Messaging-provider identifier of the contact.' }),
    bsuid: t.exposeString('bsuid', {
      nullable: true,
      description: 'WhatsApp business-scoped user id (US.13491208655302741918): the primary bsuid channel.',
    }),
    username: t.exposeString('username', { nullable: true, description: 'WhatsApp username, for display: the primary username channel.' }),
    email: t.exposeString('email', { nullable: true, ...EMAIL }),
    name: t.exposeString('name', { nullable: true }),
    image_url: t.exposeString('image_url', { nullable: true, ...URI }),
    metadata: t.expose('metadata', { type: 'JSON', nullable: true }),
    created_at: t.expose('created_at', { type: 'DateTime', nullable: true }),
    updated_at: t.expose('updated_at', { type: 'DateTime', nullable: true }),
    marketing_consent: t.field({ type: MarketingConsentType, resolve: (contact) => marketingConsentOf(contact) }),
  }));
}

const CustomerList = pageType<AnyContact>('CustomerList', Customer);

builder.queryFields((t) => ({
  contacts: t.field({
    type: CustomerList,
    description: 'Contacts, newest first. `cursor` is the id of the last contact seen.',
    authScopes: { permission: 'customers:read' },
    args: {
      limit: limitArg(t.arg, 50),
      cursor: t.arg.id({ required: false }),
      search: t.arg.string({ required: false, description: 'Matches name, phone number or email.' }),
      tag_id: t.arg.id({ required: false }),
    },
    resolve: (_root, args, ctx) => listContacts(ctx, args),
  }),
  contactSearch: t.field({
    type: CustomerList,
    description: 'Contacts whose name, phone number or email contains q, newest first.',
    authScopes: { permission: 'customers:read' },
    args: {
      q: t.arg.string({ required: true }),
      limit: limitArg(t.arg, 50),
      cursor: t.arg.id({ required: false }),
    },
    resolve: (_root, args, ctx) => searchContacts(ctx, args),
  }),
  contact: t.field({
    type: CustomerDetail,
    description: 'One contact of the workspace.',
    authScopes: { permission: 'customers:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => getContact(ctx, { id: String(args.id) }),
  }),
}));
