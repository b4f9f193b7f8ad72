// Sending a message on a conversation (messageSend), or to a contact by its phone number or business-scoped
// user id (`to`: first contact, resolvers/messaging/firstContact.ts). A free-form body or media only within 24 hours
// of the contact's last inbound message (conversation.last_message_at; outbound sends do not move it) unless the
// provider said the window closed; an APPROVED template with every placeholder filled at any time, except a MARKETING
// one to a contact who opted out (409 CONTACT_OPTED_OUT). The send's steps are listed in sendMessage and checkedSend,
// one line each; what they call answers and never calls back. Sent through the one outbound path
// (resolvers/messaging/outbound.ts): recorded as pending first, the provider called outside any transaction.
import { z } from 'zod';
import type { Actor, Context } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { withIdempotency } from '../shared/idempotency.js';
import { connectedIntegration, conversationIntegration, providerIntegration } from '../workspace/integrations.js';
import { conversationForRecipient, recipientAddress } from './firstContact.js';
import type { MessageView } from '../shared/views.js';
import {
  deliverMessage,
  templateSendInput,
  templateMessage,
  type MessageSender,
  type OutboundMessage,
  type OutboundSend,
} from './outbound.js';
import { providerFailure } from '../shared/providerFailure.js';
import { mediaContent, mediaSendInput, storedMedia, type MediaSendInput } from './mediaInput.js';
import type { MessagingProvider } from '../../adapters/providers/types.js';
import { assertWindowOpen, sendableConversation } from './sendable.js';
import { assertMarketingAllowed } from '../contacts/consent.js';
import { parseInput, uuid } from '../shared/validation.js';

const MAX_TEXT_LENGTH = 4096;

const sendInput = z
  .object({
    conversation_id: uuid.nullish(),
    to: recipientAddress.nullish(),
    integration_id: uuid.nullish(),
    body: z
      .string()
      .refine((value) => value.trim() !== '', { message: 'must not be empty' })
      .refine((value) => value.length <= MAX_TEXT_LENGTH, { message: `must be at most ${MAX_TEXT_LENGTH} characters` })
      .nullish(),
    template: templateSendInput.nullish(),
    media: mediaSendInput.nullish(),
  })
  .superRefine((input, context) => {
    if ([input.body, input.template, input.media].filter(Boolean).length !== 1) {
      context.addIssue({ code: 'custom', path: ['body'], message: 'give one of body (a free-form text), template or media' });
    }
    if (!input.conversation_id === !input.to) {
      context.addIssue({ code: 'custom', path: ['conversation_id'], message: 'give either conversation_id or to, not both' });
    }
    if (input.integration_id && !input.to) {
      context.addIssue({ code: 'custom', path: ['integration_id'], message: 'is only taken with to' });
    }
  });

type SendInput = z.infer<typeof sendInput>;

/** What transports pass in, before validation (GraphQL gives a button's sub_type as any string). */
export type MessageSendInput = { [Field in keyof z.input<typeof sendInput>]?: unknown };
export type MessageSendResult = { message: MessageView };

/** The send's steps: validate; then, once per Idempotency-Key, check (checkedSend) and deliver (outbound.ts). The
 * caller is resolved once, here, and handed to each step. */
export async function sendMessage(ctx: Context, raw: MessageSendInput): Promise<MessageSendResult> {
  const actor = requireActor(ctx);
  const input = parseInput(sendInput, raw);
  return withIdempotency(
    ctx,
    { workspaceId: actor.workspaceId, operation: 'messageSend', input },
    {
      prepare: () => checkedSend(ctx, actor, input),
      execute: async (send) => ({ message: await deliverMessage(ctx, send) }),
      revive,
    },
  );
}

/** Every check of a send, in order; a refused send has sent nothing and, but for a first contact's, written nothing. */
async function checkedSend(ctx: Context, actor: Actor, input: SendInput): Promise<OutboundSend> {
  const { workspaceId } = actor;
  const first = input.to ? await firstContact(ctx, workspaceId, input.to, input) : null;
  const conversation = await sendableConversation(ctx.prisma, ctx, workspaceId, first?.conversationId ?? input.conversation_id!);
  const template = first?.template ?? (input.template ? await templateMessage(conversation.provider, input.template) : null);
  if (template) assertMarketingAllowed(conversation.contact, template.category ?? null);
  else assertWindowOpen(conversation.window, Date.now());
  const message = template ?? (input.media ? await mediaMessage(conversation.provider, input.media) : textMessage(input.body ?? ''));
  const { id: conversationId, provider, to } = conversation;
  return { workspaceId, sender: senderOf(actor), conversationId, provider, to, ...message };
}

/**
 * A send `to` an address: its conversation, found, or for a template opened with its contact. The template is
 * checked first, on the integration named or else the workspace's connected one, so a refused send creates nothing.
 */
async function firstContact(ctx: Context, workspaceId: string, to: string, input: SendInput) {
  const integration = input.integration_id
    ? await conversationIntegration(ctx.prisma, workspaceId, input.integration_id)
    : await connectedIntegration(ctx.prisma, workspaceId);
  const provider = ctx.messaging.for(providerIntegration(ctx.secrets, integration));
  const template = input.template ? await templateMessage(provider, input.template) : null;
  const conversationId = await conversationForRecipient(ctx, workspaceId, integration, to, template !== null, template?.category ?? null);
  return { conversationId, template };
}

/** Who the message is from: the AI agent's run, the signed-in person, or the API key. */
function senderOf({ agentRunId, session, userId, keyId }: Actor): MessageSender {
  if (agentRunId) return { type: 'agent', id: agentRunId };
  return session ? { type: 'user', id: userId } : { type: 'api_key', id: keyId };
}

function textMessage(body: string): OutboundMessage {
  return { content: { type: 'text', body }, body, template: null };
}

/** A media message; an upload goes to the provider's media store first, and is sent by the id it gets. */
async function mediaMessage(provider: MessagingProvider, media: MediaSendInput): Promise<OutboundMessage> {
  let providerId: string | null = null;
  if (media.upload) {
    const { filename, content_type: contentType, content_base64: base64 } = media.upload;
    try {
      ({ id: providerId } = await provider.uploadMedia({ filename, contentType, bytes: new Uint8Array(Buffer.from(base64, 'base64')) }));
    } catch (error) {
      throw providerFailure(error);
    }
  }
  return {
    content: { type: 'media', media: mediaContent(media, providerId) },
    body: media.caption || media.upload?.filename || `[${media.type}]`,
    template: null,
    media: storedMedia(media, providerId),
  };
}

function revive(stored: unknown): MessageSendResult {
  const { message } = stored as { message: MessageView & { created_at: string } };
  return { message: { ...message, created_at: new Date(message.created_at) } };
}
