// A message's media file, for GET /api/v1/messages/{id}/media: fetched from the provider with the
// integration's credentials the first time (WhatsApp's download URLs expire within minutes, so none is kept),
// checked against the SHA-256 the provider announced, and kept by content in the bounded media store
// (infra/media/mediaFiles.ts), from which the route streams it. The message record learns the file's size.
import { ProviderError } from '../../adapters/providers/errors.js';
import { MediaFileRefused } from '../../infra/media/mediaFiles.js';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import type { Context } from '../shared/context.js';
import { requireActor } from '../shared/context.js';
import { DomainError, notFound } from '../shared/errors.js';
import { idInput, parseInput } from '../shared/validation.js';
import { conversationIntegration, providerIntegration } from '../workspace/integrations.js';
import { providerFailure } from '../shared/providerFailure.js';
import { MEDIA_LIMITS } from './mediaInput.js';

/** WhatsApp's largest media file (a document). */
const MAX_MEDIA_BYTES = Math.max(...Object.values(MEDIA_LIMITS).map((limits) => limits.maxBytes));

export type MessageMediaFile = {
  message_id: string;
  mime_type: string | null;
  filename: string | null;
  size: number;
  sha256: string;
  file_key: string;
};

type StoredMedia = { id?: unknown; mime_type?: unknown; sha256?: unknown; file_sha256?: unknown; filename?: unknown; size?: unknown };

/** A digest as lower-case hex, whether the provider gave it as hex or as base64 (WhatsApp uses both). */
function hexDigest(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (/^[0-9a-f]{64}$/i.test(value)) return value.toLowerCase();
  const bytes = Buffer.from(value, 'base64');
  return bytes.length === 32 && /^[A-Za-z0-9+/]{43}=$/.test(value) ? bytes.toString('hex') : null;
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);

export async function messageMediaFile(ctx: Context, raw: { id: string }): Promise<MessageMediaFile> {
  const { workspaceId } = requireActor(ctx);
  const { id } = parseInput(idInput, raw);
  const message = await ctx.prisma.message.findFirst({
    where: { id, company_id: workspaceId },
    select: { id: true, media: true, conversation: { select: { integration_id: true } } },
  });
  if (!message) throw notFound('Message');
  const media = (message.media ?? {}) as StoredMedia;
  const mediaId = text(media.id);
  if (!mediaId) throw new DomainError('NOT_FOUND', 'This message has no media file');
  // The provider's digest, else the one computed when the file was first fetched.
  const announced = hexDigest(media.sha256) ?? hexDigest(media.file_sha256);
  const answer = (size: number, sha256: string): MessageMediaFile => ({
    message_id: message.id,
    mime_type: text(media.mime_type),
    filename: text(media.filename),
    size,
    sha256,
    file_key: sha256,
  });
  const kept = announced ? await ctx.mediaFiles.find(announced) : null;
  if (kept) return answer(kept.size, kept.key);

  const integration = await conversationIntegration(ctx.prisma, workspaceId, message.conversation.integration_id);
  const provider = ctx.messaging.for(providerIntegration(ctx.secrets, integration));
  let stored: { key: string; size: number };
  try {
    const file = await provider.fetchMedia(mediaId);
    stored = await ctx.mediaFiles.store(file.body, { sha256: announced ?? hexDigest(file.sha256), maxBytes: MAX_MEDIA_BYTES });
  } catch (error) {
    if (error instanceof ProviderError && error.reason === 'media_not_found')
      throw new DomainError(
        'NOT_FOUND',
        'The messaging provider no longer has this media file (WhatsApp keeps received media for 30 days)',
      );
    if (error instanceof MediaFileRefused)
      throw providerFailure(new ProviderError(integration.provider, 'unavailable', `The media file could not be used: ${error.message}`));
    throw providerFailure(error);
  }
  // The record learns what only the file tells: its size, and its digest when the provider announced none.
  if (media.size !== stored.size || !announced) {
    const learned = { ...media, size: stored.size, ...(announced ? {} : { file_sha256: stored.key }) };
    await ctx.prisma.message.update({ where: { id: message.id }, data: { media: learned as Prisma.InputJsonObject } });
  }
  return answer(stored.size, stored.key);
}
