// Trying the sandbox without leaving the console: a customer message made up here is built as the WhatsApp Cloud API
// would send it, signed with the sandbox integration's app secret and handed to the provider callback's own code
// path (providerCallback.ts), exactly as POST /webhooks/whatsapp hands a delivery over: same signature check, same
// storage, same events. Only a workspace whose connected integration is the sandbox may do it (else NOT_FOUND).
import { createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Integration } from '../../prisma/generated/prisma/client.js';
import type { Context } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { parseInput } from '../shared/validation.js';
import { openCredentials } from '../workspace/integrations.js';
import { receiveProviderCallback } from './providerCallback.js';

/** The sandbox's sample photo (adapters/providers/sandboxMedia.ts), for a simulated image message. */
const SAMPLE_PHOTO = { id: 'sandbox-media-photo', mime_type: 'image/jpeg' };

const simulatedInput = z.object({
  from: z
    .string()
    .trim()
    .transform((value) => value.replace(/^\+/, ''))
    .pipe(z.string().regex(/^[1-9]\d{6,14}$/, { message: 'must be a phone number in E.164 format' })),
  name: z.string().trim().min(1).max(256).nullish(),
  text: z.string().trim().min(1, { message: 'is required' }).max(4096),
  image: z.boolean().nullish(),
});

export type SimulatedInbound = z.input<typeof simulatedInput>;

/** Sends a made-up customer message to the workspace's sandbox number; answers the message and its conversation. */
export async function sendSandboxInbound(ctx: Context, raw: SimulatedInbound): Promise<{ message_id: string; conversation_id: string }> {
  const { workspaceId } = requireActor(ctx);
  const input = parseInput(simulatedInput, raw);
  const integration = await ctx.prisma.integration.findFirst({
    where: { company_id: workspaceId, status: 'connected' },
    orderBy: { id: 'desc' },
  });
  if (integration?.provider !== 'sandbox') throw notFound('Sandbox integration');
  const providerMessageId = `wamid.${randomBytes(24).toString('base64url')}`;
  const content = input.image
    ? { type: 'image', image: { ...SAMPLE_PHOTO, caption: input.text } }
    : { type: 'text', text: { body: input.text } };
  const body = JSON.stringify(
    whatsappDelivery(integration, {
      contacts: [{ profile: { name: input.name ?? `+${input.from}` }, wa_id: input.from }],
      messages: [{ from: input.from, id: providerMessageId, timestamp: String(Math.floor(Date.now() / 1000)), ...content }],
    }),
  );
  const appSecret = openCredentials(ctx.secrets, integration.credentials).app_secret;
  const signature = `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
  await receiveProviderCallback(ctx, { provider: 'whatsapp', body, signature });
  const message = await ctx.prisma.message.findFirst({
    where: { company_id: workspaceId, provider_message_id: providerMessageId },
    select: { id: true, conversation_id: true },
  });
  // The callback keeps a part it cannot store as a dead letter and still acknowledges the delivery.
  if (!message) throw new DomainError('VALIDATION_ERROR', 'The simulated message was refused; see GET /api/v1/inbound-failures');
  return { message_id: message.id, conversation_id: message.conversation_id };
}

/** The WhatsApp Cloud API's webhook envelope around one change of the `messages` field. */
function whatsappDelivery(integration: Integration, value: Record<string, unknown>) {
  const metadata = {
    display_phone_number: integration.display_phone_number?.replace(/^\+/, '') ?? integration.phone_number_id,
    phone_number_id: integration.phone_number_id,
  };
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: integration.business_account_id,
        changes: [
          {
            field: 'messages',
            value: { messaging_product: 'whatsapp', metadata, ...value },
          },
        ],
      },
    ],
  };
}
