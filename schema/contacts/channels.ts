// A contact's channels (identities): list, add, remove.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { DeleteResult } from '../shared/deleteResult.js';
import {
  addChannel,
  CHANNEL_TYPES,
  type ChannelType as ChannelTypeName,
  listChannels,
  removeChannel,
} from '../../resolvers/contacts/channels.js';

const ChannelType = builder.enumType('ContactChannelType', {
  description:
    'phone: an E.164 number; wa_id: a messaging-provider user id; bsuid and parent_bsuid: WhatsApp business-scoped user ids; ' +
    'username: a WhatsApp username; email: an email address.',
  values: CHANNEL_TYPES,
});

const ContactChannel = builder.prismaObject('ContactChannel', {
  description: "One identity of a contact. The primary one of each type is the contact's phone_number, wa_id, bsuid, username or email.",
  fields: (t) => ({
    id: t.exposeID('id'),
    customer_id: t.exposeID('customer_id'),
    type: t.field({ type: ChannelType, resolve: (channel) => channel.type as ChannelTypeName }),
    value: t.exposeString('value', { description: 'E.164 phone number, provider user id, or lowercased email address.' }),
    provider: t.exposeString('provider', { description: 'Messaging provider of the identity, for example whatsapp; email for emails.' }),
    is_primary: t.exposeBoolean('is_primary'),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
  }),
});

const ContactChannelList = builder.objectRef<Awaited<ReturnType<typeof listChannels>>>('ContactChannelList').implement({
  description: "A contact's channels: by type, the primary one first, then oldest first.",
  fields: (t) => ({ channels: t.field({ type: [ContactChannel], resolve: (list) => list.channels }) }),
});

builder.queryField('contactChannels', (t) =>
  t.field({
    type: ContactChannelList,
    description: "A contact's channels (phone numbers, wa_ids, business-scoped user ids, usernames and email addresses, per provider).",
    authScopes: { permission: 'customers:read' },
    args: { customer_id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx, info) =>
      listChannels(ctx, { customer_id: String(args.customer_id) }, queryFromInfo({ context: ctx, info, path: ['channels'] })),
  }),
);

builder.mutationFields((t) => ({
  contactChannelAdd: t.prismaField({
    type: ContactChannel,
    description:
      "Adds an identity to a contact. The first of its type, or one added with is_primary, becomes the primary and the contact's field.",
    authScopes: { permission: 'customers' },
    args: {
      customer_id: t.arg.id({ required: true }),
      type: t.arg({ type: ChannelType, required: true }),
      value: t.arg.string({ required: true }),
      provider: t.arg.string({
        required: false,
        description: "Default: email for emails; otherwise the provider of the workspace's first integration (whatsapp if none).",
      }),
      is_primary: t.arg.boolean({ required: false }),
    },
    resolve: (query, _root, args, ctx) => addChannel(ctx, { ...args, customer_id: String(args.customer_id) }, query),
  }),
  contactChannelRemove: t.field({
    type: DeleteResult,
    description: 'Removes an identity from its contact; when it was the primary, the next of its type takes its place.',
    authScopes: { permission: 'customers' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => removeChannel(ctx, { id: String(args.id) }),
  }),
}));
