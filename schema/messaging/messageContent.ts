// What an inbound message is beyond its text, as the transcript shows it: a location, shared contact cards,
// the reply a contact chose (interactive button or list, or a template's quick-reply button, with its id), or a
// reaction's emoji. Read from the message's `content` column, which the inbound path writes
// (resolvers/messaging/whatsappPayload.ts).
import { builder } from '../builder.js';
import { oneOf } from '../shared/jsonSchemaHints.js';

type Location = { latitude: number; longitude: number; name: string | null; address: string | null; url: string | null };
type Card = {
  name: string | null;
  phones: { phone: string | null; wa_id: string | null; type: string | null }[];
  emails: { email: string; type: string | null }[];
  organization: string | null;
};
type Reply = { kind: string; id: string | null; title: string | null; description: string | null };
type Reaction = { emoji: string | null };
export type MessageContent = { location?: Location; contacts?: Card[]; reply?: Reply; reaction?: Reaction };

export const MessageLocation = builder.objectRef<Location>('MessageLocation').implement({
  description: 'A location the contact shared.',
  fields: (t) => ({
    latitude: t.exposeFloat('latitude'),
    longitude: t.exposeFloat('longitude'),
    name: t.exposeString('name', { nullable: true }),
    address: t.exposeString('address', { nullable: true }),
    url: t.exposeString('url', { nullable: true }),
  }),
});

const ContactCardPhone = builder.objectRef<Card['phones'][number]>('ContactCardPhone').implement({
  fields: (t) => ({
    phone: t.exposeString('phone', { nullable: true }),
    wa_id: t.exposeString('wa_id', { nullable: true, description: 'Set when the number is on WhatsApp.' }),
    type: t.exposeString('type', { nullable: true, description: 'HOME, WORK, CELL… as the sender labelled it.' }),
  }),
});

const ContactCardEmail = builder.objectRef<Card['emails'][number]>('ContactCardEmail').implement({
  fields: (t) => ({ email: t.exposeString('email'), type: t.exposeString('type', { nullable: true }) }),
});

export const MessageContactCard = builder.objectRef<Card>('MessageContactCard').implement({
  description: 'A contact card the contact shared.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: true }),
    phones: t.field({ type: [ContactCardPhone], resolve: (card) => card.phones }),
    emails: t.field({ type: [ContactCardEmail], resolve: (card) => card.emails }),
    organization: t.exposeString('organization', { nullable: true }),
  }),
});

export const MessageReply = builder.objectRef<Reply>('MessageReply').implement({
  description: 'The option a contact chose: an interactive reply button or list row, or a template quick-reply button.',
  fields: (t) => ({
    kind: t.exposeString('kind', oneOf(['button_reply', 'list_reply', 'quick_reply'])),
    id: t.exposeString('id', {
      nullable: true,
      description: "The id the business gave the option (a quick-reply button's payload), to act on without parsing the title.",
    }),
    title: t.exposeString('title', { nullable: true }),
    description: t.exposeString('description', { nullable: true, description: "A list row's description." }),
  }),
});

export const MessageReaction = builder.objectRef<Reaction>('MessageReaction').implement({
  description: 'A reaction to a message; the message reacted to is reply_to_message_id.',
  fields: (t) => ({ emoji: t.exposeString('emoji', { nullable: true, description: 'Null when the contact removed the reaction.' }) }),
});

/** The stored content, or an empty one for messages without (and for anything not an object). */
export function contentOf(value: unknown): MessageContent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return value;
}
