// Writing contacts: create, update, delete, and bulk import with a result per row.
import { builder } from '../builder.js';
import { oneOf, EMAIL, URI } from '../shared/jsonSchemaHints.js';
import { CustomerDetail } from './contacts.js';
import { createContact, deleteContact, importContacts, MAX_IMPORT_ROWS, updateContact } from '../../resolvers/contacts/mutations.js';

type StringOptions = { description?: string } & Partial<typeof EMAIL>;

/**
 * A contact's writable fields, as mutation arguments and as the ContactInput of a bulk import; `text` and
 * `json` make an optional String or JSON field of either kind.
 */
function contactFields<Text, Json>(text: (options?: StringOptions) => Text, json: (description: string) => Json) {
  return {
    name: text(),
    phone_number: text({ description: 'E.164, for example +14155550123. Becomes the primary phone channel.' }),
    wa_id: text({ description: 'Messaging-provider identifier. Becomes the primary wa_id channel.' }),
    email: text({ description: 'Stored lowercased. Becomes the primary email channel.', ...EMAIL }),
    image_url: text({ description: 'An http(s) URL.', ...URI }),
    metadata: json('A free-form key-value object; replaces the stored one.'),
    profile_name: text(),
    notes: text(),
  };
}

const ContactInput = builder.inputType('ContactInput', {
  description: 'A contact to create. At least one of name, phone_number, wa_id or email.',
  fields: (t) =>
    contactFields(
      (options) => t.string({ required: false, ...options }),
      (description) => t.field({ type: 'JSON', required: false, description }),
    ),
});

const ContactDeleteResult = builder.objectRef<Awaited<ReturnType<typeof deleteContact>>>('ContactDeleteResult').implement({
  description: 'The deleted contact and how much went with it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    deleted: t.exposeBoolean('deleted', { description: 'Always true.' }),
    deleted_conversations: t.exposeInt('deleted_conversations', { description: 'Conversations deleted with the contact.' }),
    deleted_messages: t.exposeInt('deleted_messages', { description: 'Messages deleted with those conversations.' }),
  }),
});

type ImportResult = Awaited<ReturnType<typeof importContacts>>;
type Row = ImportResult['results'][number];

const RowError = builder.objectRef<NonNullable<Row['error']>>('RowError').implement({
  description: 'Why one row was not written: the error its own request would have answered.',
  fields: (t) => ({
    code: t.exposeString('code'),
    message: t.exposeString('message'),
    details: t.expose('details', { type: 'JSON', nullable: true }),
  }),
});

const ContactImportRow = builder.objectRef<Row>('ContactImportRow').implement({
  fields: (t) => ({
    index: t.exposeInt('index', { description: 'Position of the row in the request, from 0.' }),
    status: t.exposeString('status', oneOf(['created', 'failed'])),
    contact: t.field({ type: CustomerDetail, nullable: true, resolve: (row) => row.contact }),
    error: t.field({ type: RowError, nullable: true, resolve: (row) => row.error }),
  }),
});

const ContactImportResult = builder.objectRef<ImportResult>('ContactImportResult').implement({
  description: 'The outcome of a bulk import, one result per row in request order.',
  fields: (t) => ({
    created: t.exposeInt('created'),
    failed: t.exposeInt('failed'),
    results: t.field({ type: [ContactImportRow], resolve: (result) => result.results }),
  }),
});

builder.mutationFields((t) => {
  const contactArgs = contactFields(
    (options) => t.arg.string({ required: false, ...options }),
    (description) => t.arg({ type: 'JSON', required: false, description }),
  );
  return {
    contactCreate: t.field({
      type: CustomerDetail,
      description: 'Creates a contact. Its phone_number, wa_id and email become its primary channels.',
      authScopes: { permission: 'customers' },
      args: contactArgs,
      resolve: (_root, args, ctx) => createContact(ctx, args),
    }),
    contactUpdate: t.field({
      type: CustomerDetail,
      description: 'Changes the given fields of a contact; an omitted field stays, null clears it.',
      authScopes: { permission: 'customers' },
      args: { id: t.arg.id({ required: true }), ...contactArgs },
      resolve: (_root, args, ctx) => updateContact(ctx, args),
    }),
    contactDelete: t.field({
      type: ContactDeleteResult,
      description: 'Deletes a contact with its channels, tag assignments and conversations (their messages, notes and summaries).',
      authScopes: { permission: 'customers' },
      args: { id: t.arg.id({ required: true }) },
      resolve: (_root, args, ctx) => deleteContact(ctx, { id: String(args.id) }),
    }),
    contactsBulkImport: t.field({
      type: ContactImportResult,
      description: `Creates up to ${MAX_IMPORT_ROWS} contacts, each on its own: a failed row writes nothing, the others are written.`,
      authScopes: { permission: 'customers' },
      args: { contacts: t.arg({ type: [ContactInput], required: true }) },
      resolve: (_root, args, ctx) => importContacts(ctx, args),
    }),
  };
});
