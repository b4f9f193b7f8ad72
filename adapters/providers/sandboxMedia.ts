// The sandbox's media store: real sample files (sandboxMedia/, one per kind an inbound message can carry, so
// tests and demos fetch real bytes offline) under fixed ids, and the files uploaded for sending, kept in
// memory for the process's life, the oldest given up beyond a bound.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { projectPath } from '../../infra/paths.js';
import { ProviderError } from './errors.js';
import type { MediaFile, MediaUpload } from './types.js';

/** The sample files an inbound sandbox message can name by `id`, with the type WhatsApp would report. */
export const SANDBOX_SAMPLE_MEDIA = {
  'sandbox-media-photo': { file: 'photo.jpg', mimeType: 'image/jpeg' },
  'sandbox-media-sticker': { file: 'sticker.webp', mimeType: 'image/webp' },
  'sandbox-media-invoice': { file: 'invoice.pdf', mimeType: 'application/pdf' },
  'sandbox-media-voice': { file: 'voice.mp3', mimeType: 'audio/mpeg' },
} as const;

const MAX_UPLOADS = 200;

type Stored = { bytes: Uint8Array; mimeType: string; sha256: string };

function stored(bytes: Uint8Array, mimeType: string): Stored {
  return { bytes, mimeType, sha256: createHash('sha256').update(bytes).digest('hex') };
}

export type SandboxMediaStore = {
  fetch(mediaId: string): MediaFile;
  upload(upload: MediaUpload): { id: string };
  has(mediaId: string): boolean;
};

export function createSandboxMediaStore(): SandboxMediaStore {
  const uploads = new Map<string, Stored>();
  const samples = new Map<string, Stored>();

  function find(mediaId: string): Stored | null {
    const uploaded = uploads.get(mediaId);
    if (uploaded) return uploaded;
    if (!Object.hasOwn(SANDBOX_SAMPLE_MEDIA, mediaId)) return null;
    let sample = samples.get(mediaId);
    if (!sample) {
      const { file, mimeType } = SANDBOX_SAMPLE_MEDIA[mediaId as keyof typeof SANDBOX_SAMPLE_MEDIA];
      sample = stored(readFileSync(projectPath('adapters', 'providers', 'sandboxMedia', file)), mimeType);
      samples.set(mediaId, sample);
    }
    return sample;
  }

  return {
    has: (mediaId) => find(mediaId) !== null,
    fetch(mediaId) {
      const file = find(mediaId);
      if (!file) throw new ProviderError('sandbox', 'media_not_found', `The sandbox has no media ${mediaId}`, '100');
      return {
        body: new Blob([file.bytes as Uint8Array<ArrayBuffer>]).stream(),
        mimeType: file.mimeType,
        sha256: file.sha256,
        size: file.bytes.byteLength,
      };
    },
    upload(upload) {
      const id = `sandbox-upload-${randomBytes(12).toString('hex')}`;
      uploads.set(id, stored(upload.bytes, upload.contentType));
      if (uploads.size > MAX_UPLOADS) uploads.delete(uploads.keys().next().value!);
      return { id };
    },
  };
}
