// Sending a message on a conversation (messageSend), or to a contact by its phone number or business-scoped
// user id (`to`: first contact, resolvers/messaging/firstContact.ts). A free-form body only within 24 hours of the contact's
// last inbound message (conversation.last_message_at; outbound sends do not move it); an APPROVED template
// with every placeholder filled at any time, except a MARKETING one to a contact who opted out (409 CONTACT_OPTED_OUT). Sent through the one outbound path (resolvers/messaging/outbound.ts):
// recorded as pending first, the provider called outside any transaction, the outcome recorded after.
import { z } from 'zod';
import type { Actor, Context } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { withIdempotency } from '../shared/idempotency.js';
import { connectedIntegration, connectedIntegrationOf, conversationIntegration, providerIntegration } from '../workspace/integrations.js';
import { conversationForRecipient, recipientAddress } from './firstContact.js';
import { messageViewSelect, type MessageView } from '../shared/views.js';
import {
  dispatchMessage,
  messagingAddress,
  recordPendingMessage,
  templateSendInput,
  templateMessage,
  type MessageSender,
  type OutboundMessage,
  type OutboundSend,
} from './outbound.js';
import { providerFailure } from '../shared/providerFailure.js';
import { mediaContent, mediaSendInput, storedMedia, type MediaSendInput } from './mediaInput.js';
import type { MessagingProvider } from '../../adapters/providers/types.js';
import { messagingWindow } from './window.js';
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

/** What transports pass in, before validation (GraphQL gives a button's sub_type as any string). */
export type MessageSendInput = { [Field in keyof z.input<typeof sendInput>]?: unknown };
export type MessageSendResult = { message: MessageView };

function assertWindowOpen(conversation: { last_message_at: Date | null; window_closed_at: Date | null }, now: number): void {
  const lastInboundAt = conversation.last_message_at;
  const window = messagingWindow(conversation, now);
  if (window.open) return;
  throw new DomainError(
    'MESSAGING_WINDOW_CLOSED',
    "Free-form messages can only be sent within 24 hours of the contact's last message; send an approved template instead",
    {
      window_closed_at: window.closes_at?.toISOString() ?? null,
      last_inbound_at: lastInboundAt?.toISOString() ?? null,
      reason: 'a template message is required',
    },
  );
}

/** The integration a first contact goes through: the one named, else the workspace's connected one. */
async function recipientIntegration(ctx: Context, workspaceId: string, integrationId: string | null | undefined) {
  return integrationId ? conversationIntegration(ctx.prisma, workspaceId, integrationId) : connectedIntegration(ctx.prisma, workspaceId);
}

async function prepare(ctx: Context, actor: Actor, input: z.infer<typeof sendInput>): Promise<OutboundSend> {
  if (!input.to) return prepareOn(ctx, actor, input, input.conversation_id!, null);
  const { workspaceId } = actor;
  const integration = await recipientIntegration(ctx, workspaceId, input.integration_id);
  // The template is checked before the contact or conversation is created: a refused send writes nothing.
  const provider = ctx.messaging.for(providerIntegration(ctx.secrets, integration));
  const message = input.template ? await templateMessage(provider, input.template) : null;
  const conversationId = await conversationForRecipient(
    ctx,
    workspaceId,
    integration,
    input.to,
    message !== null,
    message?.category ?? null,
  );
  return prepareOn(ctx, actor, input, conversationId, message);
}

async function prepareOn(
  ctx: Context,
  actor: Actor,
  input: z.infer<typeof sendInput>,
  conversationId: string,
  checkedTemplate: OutboundMessage | null,
): Promise<OutboundSend> {
  const { workspaceId, keyId, agentRunId, session, userId } = actor;
  const conversation = await ctx.prisma.conversation.findFirst({
    where: { id: conversationId, company_id: workspaceId },
    select: {
      id: true,
      status: true,
      last_message_at: true,
      window_closed_at: true,
      integration: true,
      customer: { select: { id: true, wa_id: true, phone_number: true, bsuid: true, marketing_consent_status: true } },
    },
  });
  if (!conversation) throw notFound('Conversation');
  if (conversation.status === 'closed') {
    throw new DomainError('CONVERSATION_CLOSED', 'The conversation is closed; messages cannot be sent on it', {
      conversation_id: conversation.id,
      status: conversation.status,
    });
  }
  const to = messagingAddress(conversation.customer);
  if (!to) {
    throw new DomainError('VALIDATION_ERROR', 'The contact has no messaging address', {
      conversation_id: 'the contact has no wa_id, phone number or business-scoped user id',
    });
  }
  const integration = connectedIntegrationOf(conversation.integration, workspaceId);
  const provider = ctx.messaging.for(providerIntegration(ctx.secrets, integration));
  const sender: MessageSender = agentRunId
    ? { type: 'agent', id: agentRunId }
    : session
      ? { type: 'user', id: userId }
      : { type: 'api_key', id: keyId };
  const common = { workspaceId, sender, conversationId: conversation.id, provider, to };
  const template = checkedTemplate ?? (input.template ? await templateMessage(provider, input.template) : null);
  if (template) {
    assertMarketingAllowed(conversation.customer, template.category ?? null);
    return { ...common, ...template };
  }
  assertWindowOpen(conversation, Date.now());
  if (input.media) return { ...common, ...(await mediaMessage(provider, input.media)) };
  const body = input.body ?? '';
  return { ...common, content: { type: 'text', body }, body, template: null };
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

async function deliver(ctx: Context, send: OutboundSend): Promise<MessageSendResult> {
  const id = await recordPendingMessage(ctx.prisma, send);
  const outcome = await dispatchMessage(ctx, send, id);
  if (!outcome.sent) throw providerFailure(outcome.error, { message_id: id });
  const message = outcome.message ?? (await ctx.prisma.message.findUniqueOrThrow({ where: { id }, select: messageViewSelect }));
  return { message };
}

function revive(stored: unknown): MessageSendResult {
  const { message } = stored as { message: MessageView & { created_at: string } };
  return { message: { ...message, created_at: new Date(message.created_at) } };
}

/** The caller is resolved once, here, and handed to each step of the send. */
export async function sendMessage(ctx: Context, raw: MessageSendInput): Promise<MessageSendResult> {
  const actor = requireActor(ctx);
  const input = parseInput(sendInput, raw);
  return withIdempotency(
    ctx,
    { workspaceId: actor.workspaceId, operation: 'messageSend', input },
    {
      prepare: () => prepare(ctx, actor, input),
      execute: (prepared) => deliver(ctx, prepared),
      revive,
    },
  );
}
