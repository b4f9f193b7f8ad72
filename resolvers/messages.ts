// Sending a message on a conversation (messageSend). A free-form body only within 24 hours of the contact's
// last inbound message (conversation.last_message_at; outbound sends do not move it); an APPROVED template
// with every placeholder filled at any time. The message is recorded before the provider is called
// (status pending) and its outcome after, so a provider failure leaves it recorded as failed, never lost;
// the provider call runs outside any transaction.
import { z } from 'zod';
import type { MessagingProvider, OutboundContent } from '../providers/types.js';
import { fillTemplate } from '../providers/templates.js';
import { ProviderError } from '../providers/errors.js';
import type { Context } from './context.js';
import { requireActor } from './context.js';
import { DomainError, notFound } from './errors.js';
import { withIdempotency } from './idempotency.js';
import { conversationIntegration, providerIntegration } from './integrations.js';
import { advanceMessageStatus } from './messageStatus.js';
import { messageViewSelect, type MessageView } from './messageViews.js';
import { providerFailure } from './providerFailure.js';
import { sendableTemplate } from './templates.js';
import { parseInput, uuid } from './validation.js';

const MESSAGING_WINDOW_MS = 24 * 3600 * 1000;
const MAX_TEXT_LENGTH = 4096;

const templateInput = z.object({
  name: z.string().regex(/^[a-z0-9_]{1,512}$/, { message: 'must be lowercase letters, digits and underscores' }),
  language: z.string().regex(/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$/, { message: 'must be a language tag such as en_US' }),
  parameters: z
    .array(z.string().trim().min(1, { message: 'must not be empty' }).max(1024))
    .max(100)
    .nullish()
    .transform((value) => value ?? []),
});

const sendInput = z
  .object({
    conversation_id: uuid,
    body: z
      .string()
      .refine((value) => value.trim() !== '', { message: 'must not be empty' })
      .refine((value) => value.length <= MAX_TEXT_LENGTH, { message: `must be at most ${MAX_TEXT_LENGTH} characters` })
      .nullish(),
    template: templateInput.nullish(),
  })
  .superRefine((input, context) => {
    if (!input.body === !input.template) {
      context.addIssue({ code: 'custom', path: ['body'], message: 'give either body (a free-form text) or template, not both' });
    }
  });

export type MessageSendInput = z.input<typeof sendInput>;
export type MessageSendResult = { message: MessageView };

type PreparedSend = {
  workspaceId: string;
  conversationId: string;
  provider: MessagingProvider;
  to: string;
  content: OutboundContent;
  body: string;
  template: { name: string; language: string; parameters: string[] } | null;
};

function assertWindowOpen(lastInboundAt: Date | null, now: number): void {
  if (lastInboundAt && now - lastInboundAt.getTime() < MESSAGING_WINDOW_MS) return;
  throw new DomainError(
    'MESSAGING_WINDOW_CLOSED',
    "Free-form messages can only be sent within 24 hours of the contact's last message; send an approved template instead",
    {
      window_closed_at: lastInboundAt ? new Date(lastInboundAt.getTime() + MESSAGING_WINDOW_MS).toISOString() : null,
      last_inbound_at: lastInboundAt?.toISOString() ?? null,
      reason: 'a template message is required',
    },
  );
}

async function prepare(ctx: Context, input: z.infer<typeof sendInput>): Promise<PreparedSend> {
  const { workspaceId } = requireActor(ctx);
  const conversation = await ctx.prisma.conversation.findFirst({
    where: { id: input.conversation_id, company_id: workspaceId },
    select: { id: true, status: true, last_message_at: true, integration_id: true, customer: { select: { wa_id: true, phone_number: true } } },
  });
  if (!conversation) throw notFound('Conversation');
  if (conversation.status === 'closed') {
    throw new DomainError('CONVERSATION_CLOSED', 'The conversation is closed; messages cannot be sent on it', {
      conversation_id: conversation.id,
      status: conversation.status,
    });
  }
  const to = conversation.customer.wa_id ?? conversation.customer.phone_number?.replace(/^\+/, '') ?? null;
  if (!to) {
    throw new DomainError('VALIDATION_ERROR', 'The contact has no messaging address', {
      conversation_id: 'the contact has neither a wa_id nor a phone number',
    });
  }
  const integration = await conversationIntegration(ctx.prisma, workspaceId, conversation.integration_id);
  const provider = ctx.messaging.for(providerIntegration(ctx.secrets, integration));
  const common = { workspaceId, conversationId: conversation.id, provider, to };
  if (input.template) {
    const template = await sendableTemplate(provider, input.template);
    const filled = fillTemplate(template, input.template.parameters);
    return { ...common, content: filled.content, body: filled.text, template: input.template };
  }
  assertWindowOpen(conversation.last_message_at, Date.now());
  const body = input.body ?? '';
  return { ...common, content: { type: 'text', body }, body, template: null };
}

function failureRecord(error: unknown): { error_code: string; error_message: string } {
  if (error instanceof ProviderError) return { error_code: error.code ?? error.reason, error_message: error.message };
  return { error_code: 'internal', error_message: 'Unexpected error while sending' };
}

async function deliver(ctx: Context, send: PreparedSend): Promise<MessageSendResult> {
  const { workspaceId } = send;
  const { id } = await ctx.prisma.message.create({
    data: {
      company_id: workspaceId,
      conversation_id: send.conversationId,
      direction: 'outbound',
      body: send.body,
      status: 'pending',
      template_name: send.template?.name ?? null,
      template_language: send.template?.language ?? null,
      template_parameters: send.template ? send.template.parameters : undefined,
    },
    select: { id: true },
  });
  let providerMessageId: string;
  try {
    ({ providerMessageId } = await send.provider.send({ to: send.to, reference: id, content: send.content }));
  } catch (error) {
    await ctx.prisma.$transaction((tx) => advanceMessageStatus(tx, workspaceId, id, 'failed', failureRecord(error)));
    throw providerFailure(error, { message_id: id });
  }
  // A status report that arrived first may already have moved the message further; then this is a no-op.
  await ctx.prisma.$transaction((tx) => advanceMessageStatus(tx, workspaceId, id, 'sent', { provider_message_id: providerMessageId }));
  const message = await ctx.prisma.message.findUniqueOrThrow({ where: { id }, select: messageViewSelect });
  return { message };
}

function revive(stored: unknown): MessageSendResult {
  const { message } = stored as { message: MessageView & { created_at: string } };
  return { message: { ...message, created_at: new Date(message.created_at) } };
}

export async function sendMessage(ctx: Context, raw: MessageSendInput): Promise<MessageSendResult> {
  const input = parseInput(sendInput, raw);
  return withIdempotency(ctx, { operation: 'messageSend', input }, {
    prepare: () => prepare(ctx, input),
    execute: (prepared) => deliver(ctx, prepared),
    revive,
  });
}
