// The media of a free-form send: `{type, link | upload: {filename, content_type, content_base64}, caption}`,
// checked against WhatsApp's own limits (types and sizes per kind; no caption on audio; captions up to 1024
// characters) so that a file the provider would refuse is a 400 naming the field, before anything is written.
// Limits: https://developers.facebook.com/documentation/business-messaging/whatsapp/business-phone-numbers/media
import { z } from 'zod';
import { OUTBOUND_MEDIA_TYPES, type MediaContent, type OutboundMediaType } from '../../adapters/providers/types.js';

const MB = 1024 * 1024;

/** What WhatsApp takes for each kind of media message: content types and the largest file. */
export const MEDIA_LIMITS: Record<OutboundMediaType, { contentTypes: readonly string[]; maxBytes: number }> = {
  image: { contentTypes: ['image/jpeg', 'image/png'], maxBytes: 5 * MB },
  video: { contentTypes: ['video/mp4', 'video/3gpp'], maxBytes: 16 * MB },
  audio: { contentTypes: ['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg'], maxBytes: 16 * MB },
  document: {
    contentTypes: [
      'text/plain',
      'application/pdf',
      'application/msword',
      'application/vnd.ms-excel',
      'application/vnd.ms-powerpoint',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ],
    maxBytes: 100 * MB,
  },
};

export const MAX_CAPTION_LENGTH = 1024;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const mediaSendInput = z
  .object({
    type: z.enum(OUTBOUND_MEDIA_TYPES, { message: `must be one of ${OUTBOUND_MEDIA_TYPES.join(', ')}` }),
    link: z
      .url({ protocol: /^https$/, message: 'must be an https URL' })
      .max(2048)
      .nullish(),
    upload: z
      .object({
        filename: z.string({ message: 'is required' }).trim().min(1, { message: 'is required' }).max(255),
        content_type: z.string({ message: 'is required' }).trim().toLowerCase().min(1, { message: 'is required' }),
        content_base64: z.string({ message: 'is required' }).regex(BASE64, { message: 'must be base64' }),
      })
      .nullish(),
    caption: z
      .string()
      .max(MAX_CAPTION_LENGTH, { message: `must be at most ${MAX_CAPTION_LENGTH} characters` })
      .nullish(),
  })
  .superRefine((media, context) => {
    if (!media.link === !media.upload)
      context.addIssue({ code: 'custom', path: ['link'], message: 'give either link or upload, not both' });
    if (media.type === 'audio' && media.caption) context.addIssue({ code: 'custom', path: ['caption'], message: 'audio takes no caption' });
    const limits = MEDIA_LIMITS[media.type];
    if (!media.upload || !limits) return;
    const { content_type: contentType, content_base64: base64 } = media.upload;
    if (!limits.contentTypes.includes(contentType)) {
      context.addIssue({
        code: 'custom',
        path: ['upload', 'content_type'],
        message: `must be one of ${limits.contentTypes.join(', ')} for ${media.type}`,
      });
    }
    const bytes = (base64.length / 4) * 3 - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
    if (bytes === 0) context.addIssue({ code: 'custom', path: ['upload', 'content_base64'], message: 'must not be empty' });
    if (bytes > limits.maxBytes) {
      context.addIssue({
        code: 'custom',
        path: ['upload', 'content_base64'],
        message: `must be at most ${limits.maxBytes / MB} MB for ${media.type} (this file is ${(bytes / MB).toFixed(1)} MB)`,
      });
    }
  });

export type MediaSendInput = z.infer<typeof mediaSendInput>;

/** What the message record keeps of sent media (the same shape as received media). */
export function storedMedia(media: MediaSendInput, providerId: string | null) {
  return {
    id: providerId,
    mime_type: media.upload?.content_type ?? null,
    sha256: null,
    filename: media.upload?.filename ?? null,
    caption: media.caption ?? null,
    size: media.upload ? Buffer.byteLength(media.upload.content_base64, 'base64') : null,
    ...(media.link ? { link: media.link } : {}),
  };
}

/** The provider's media content for a checked input, once any upload has its id. */
export function mediaContent(media: MediaSendInput, providerId: string | null): MediaContent {
  return {
    type: media.type,
    source: providerId ? { id: providerId } : { link: media.link! },
    ...(media.caption ? { caption: media.caption } : {}),
    ...(media.type === 'document' && media.upload ? { filename: media.upload.filename } : {}),
  };
}
