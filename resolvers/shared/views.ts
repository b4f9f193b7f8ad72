// The public shapes of a message, its conversation and its contact, built in one place: the GraphQL
// Message and MessageDetail, the data of message.received / message.status events and the AI-agent hand-off all use them.
// Field names are the spec's (Message; Conversation without the embedded customer; Customer list item).
import type { Conversation, Customer, Message } from '../../prisma/generated/prisma/client.js';
import type { WithIsoTimestamps } from './isoTimestamps.js';

export type MessageView = Pick<Message, 'id' | 'conversation_id' | 'body' | 'direction' | 'status' | 'created_at'>;

/** The stored message's columns that every read surface shows (MessageDetail). */
export type MessageDetailColumns = MessageView &
  Pick<
    Message,
    | 'type'
    | 'media'
    | 'content'
    | 'template_name'
    | 'template_language'
    | 'sender_type'
    | 'sender_id'
    | 'reply_to_message_id'
    | 'error_code'
    | 'error_title'
    | 'error_details'
    | 'pricing'
    | 'sent_at'
    | 'delivered_at'
    | 'read_at'
    | 'failed_at'
    | 'provider_message_id'
    | 'updated_at'
  >;

/** The stored message as every read surface shows it (MessageDetail; schema/messaging/messageDetail.ts shapes its
 * parts): read through Prisma, or by a written statement with its timestamps as the API's text (isoTimestamps.ts). */
export type MessageDetailRow = MessageDetailColumns | WithIsoTimestamps<MessageDetailColumns>;

export type ConversationView = Pick<
  Conversation,
  | 'id'
  | 'company_id'
  | 'customer_id'
  | 'agent_id'
  | 'integration_id'
  | 'session_id'
  | 'provider'
  | 'status'
  | 'service_enabled'
  | 'assigned_user_id'
  | 'details'
  | 'last_message_at'
  | 'external_conversation_id'
  | 'created_at'
  | 'updated_at'
>;

export type ContactView = Pick<
  Customer,
  'id' | 'company_id' | 'phone_number' | 'wa_id' | 'email' | 'name' | 'image_url' | 'metadata' | 'created_at' | 'updated_at'
>;

/** The data of a message event: {message, conversation, contact}. */
export type MessageEventData = { message: MessageView; conversation: ConversationView; contact: ContactView };

export const messageViewSelect = {
  id: true,
  conversation_id: true,
  body: true,
  direction: true,
  status: true,
  created_at: true,
} as const;

export const messageDetailSelect = {
  ...messageViewSelect,
  type: true,
  media: true,
  content: true,
  template_name: true,
  template_language: true,
  sender_type: true,
  sender_id: true,
  reply_to_message_id: true,
  error_code: true,
  error_title: true,
  error_details: true,
  pricing: true,
  sent_at: true,
  delivered_at: true,
  read_at: true,
  failed_at: true,
  provider_message_id: true,
  updated_at: true,
} as const;

export const conversationViewSelect = {
  id: true,
  company_id: true,
  customer_id: true,
  agent_id: true,
  integration_id: true,
  session_id: true,
  provider: true,
  status: true,
  service_enabled: true,
  assigned_user_id: true,
  details: true,
  last_message_at: true,
  external_conversation_id: true,
  created_at: true,
  updated_at: true,
} as const;

export const contactViewSelect = {
  id: true,
  company_id: true,
  phone_number: true,
  wa_id: true,
  email: true,
  name: true,
  image_url: true,
  metadata: true,
  created_at: true,
  updated_at: true,
} as const;
