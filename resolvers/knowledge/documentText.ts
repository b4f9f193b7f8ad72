// The text of an uploaded knowledge document: base64 content decoded within a size limit, then read by its
// content type — plain text and Markdown as they are, HTML converted to text (scripts, styles, images and
// link targets dropped) by html-to-text, which parses the markup rather than pattern-matching it.
import { convert } from 'html-to-text';
import { DomainError } from '../shared/errors.js';

export const MAX_UPLOAD_BYTES = 1024 * 1024;

type Reader = (text: string) => string;

const keepAsIs: Reader = (text) => text;

const htmlToText: Reader = (html) =>
  convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      { selector: 'iframe', format: 'skip' },
      { selector: 'template', format: 'skip' },
      { selector: 'table', format: 'dataTable' },
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
    ],
  });

const READERS: Record<string, Reader> = {
  'text/plain': keepAsIs,
  'text/markdown': keepAsIs,
  'text/x-markdown': keepAsIs,
  'text/html': htmlToText,
};

export const SUPPORTED_CONTENT_TYPES = Object.keys(READERS);

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function parseContentType(contentType: string): { mediaType: string; charset: string } {
  const [mediaType = '', ...parameters] = contentType.split(';').map((part) => part.trim());
  const charset = parameters.map((parameter) => /^charset\s*=\s*"?([^";]+)"?$/i.exec(parameter)?.[1]).find((value) => value !== undefined);
  return { mediaType: mediaType.toLowerCase(), charset: charset ?? 'utf-8' };
}

function decodeBase64(contentBase64: string): Buffer {
  const compact = contentBase64.replace(/\s+/g, '');
  if (compact.length > Math.ceil(MAX_UPLOAD_BYTES / 3) * 4) throw tooLarge();
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) {
    throw new DomainError('VALIDATION_ERROR', 'Invalid content_base64', { content_base64: 'must be base64-encoded' });
  }
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > MAX_UPLOAD_BYTES) throw tooLarge();
  return bytes;
}

function tooLarge(): DomainError {
  return new DomainError('PAYLOAD_TOO_LARGE', `The file exceeds ${MAX_UPLOAD_BYTES} bytes`, {
    content_base64: `must decode to at most ${MAX_UPLOAD_BYTES} bytes`,
  });
}

function decodeText(bytes: Buffer, charset: string): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    throw new DomainError('VALIDATION_ERROR', 'Unsupported charset', { content_type: `charset ${charset} is not supported` });
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new DomainError('VALIDATION_ERROR', 'The file is not valid text', { content_base64: `is not valid ${charset} text` });
  }
}

/** The text of an upload, or a VALIDATION_ERROR / PAYLOAD_TOO_LARGE naming the field at fault. */
export function extractText(upload: { content_base64: string; content_type: string }): { text: string; mediaType: string } {
  const { mediaType, charset } = parseContentType(upload.content_type);
  const read = READERS[mediaType];
  if (!read) {
    throw new DomainError('VALIDATION_ERROR', 'Unsupported content type', {
      content_type: `must be one of ${SUPPORTED_CONTENT_TYPES.join(', ')}`,
    });
  }
  const text = decodeText(decodeBase64(upload.content_base64), charset);
  return { text: read(text).trim(), mediaType };
}
