// Media files fetched from a messaging provider, kept under DATA_DIR/media by content: the bytes are streamed
// to a temporary file while their SHA-256 is computed, and kept under that digest (hex) only when it matches
// what the provider announced, so a file served from here is always the one the message describes. The folder is
// bounded (MEDIA_CACHE_MAX_BYTES): the files least recently served give way first. A bound of 0 keeps
// nothing: each file lives only until it has been opened for its one answer (an open file outlives its name).
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export type MediaFilesOptions = { directory: string; maxBytes: number };

export type StoredFile = { key: string; size: number };

/** Why a file was not kept. */
export class MediaFileRefused extends Error {
  constructor(readonly reason: 'digest_mismatch' | 'too_large') {
    super(reason === 'digest_mismatch' ? 'The file does not match its SHA-256' : 'The file is larger than allowed');
  }
}

export type MediaFiles = {
  /** The stored file under this key, marked as just used; null when there is none. */
  find(key: string): Promise<StoredFile | null>;
  /** Streams `body` into the store and keeps it under its hex SHA-256, which must be `expected.sha256` when that is given. */
  store(body: ReadableStream<Uint8Array>, expected: { sha256: string | null; maxBytes: number }): Promise<StoredFile>;
  /** The file's bytes for one answer; null when it is gone. */
  open(key: string): Promise<ReadableStream<Uint8Array> | null>;
};

/** Keys are hex digests or other plain names: nothing that could leave the folder. */
const KEY = /^[A-Za-z0-9_-]{1,128}$/;

export function createMediaFiles(options: MediaFilesOptions): MediaFiles {
  const folder = options.directory;
  const ready = mkdir(folder, { recursive: true });
  const pathOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`Invalid media file key ${key}`);
    return join(folder, `${key}.bin`);
  };

  /** Removes the least recently used files until the folder is within its bound; `keep` stays. */
  async function evict(keep: string): Promise<void> {
    const names = (await readdir(folder)).filter((name) => name.endsWith('.bin'));
    const files = await Promise.all(
      names.map(async (name) => {
        const info = await stat(join(folder, name)).catch(() => null);
        return info ? { name, size: info.size, used: info.mtimeMs } : null;
      }),
    );
    const present = files.filter((file) => file !== null).sort((a, b) => a.used - b.used);
    let total = present.reduce((sum, file) => sum + file.size, 0);
    for (const file of present) {
      if (total <= options.maxBytes) return;
      if (file.name === `${keep}.bin`) continue;
      await rm(join(folder, file.name), { force: true });
      total -= file.size;
    }
  }

  return {
    async find(key) {
      await ready;
      const path = pathOf(key);
      const info = await stat(path).catch(() => null);
      if (!info) return null;
      const now = new Date();
      await utimes(path, now, now).catch(() => undefined);
      return { key, size: info.size };
    },

    async store(body, expected) {
      await ready;
      const temporary = join(folder, `.${randomBytes(8).toString('hex')}.part`);
      const digest = createHash('sha256');
      let size = 0;
      const measure = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          if (size > expected.maxBytes) return done(new MediaFileRefused('too_large'));
          digest.update(chunk);
          done(null, chunk);
        },
      });
      try {
        await pipeline(Readable.fromWeb(body as import('node:stream/web').ReadableStream), measure, createWriteStream(temporary));
        const key = digest.digest('hex');
        if (expected.sha256 !== null && key !== expected.sha256) throw new MediaFileRefused('digest_mismatch');
        await rename(temporary, pathOf(key));
        await evict(key);
        return { key, size };
      } finally {
        await rm(temporary, { force: true });
      }
    },

    async open(key) {
      await ready;
      const path = pathOf(key);
      const handle = await open(path, 'r').catch(() => null);
      if (!handle) return null;
      // Nothing is kept: the name goes now, the bytes when the answer has read them.
      if (options.maxBytes === 0) await rm(path, { force: true });
      return Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>;
    },
  };
}
