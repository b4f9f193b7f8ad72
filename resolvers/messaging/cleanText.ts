// What PostgreSQL can store of a provider's text. It refuses the NUL character in text and jsonb, and an
// unpaired UTF-16 surrogate (which JSON.parse happily yields from "\ud800") is not text at all; both are
// removed, never replaced, from every string of a provider payload before anything reads it. API input is
// refused instead (400): only what a provider reports, which it would otherwise redeliver forever, is cleaned.
import { DomainError } from '../shared/errors.js';

// eslint-disable-next-line no-control-regex -- the NUL character is exactly what must go
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function cleanText(text: string): string {
  return text.replace(UNSTORABLE, '');
}

/** Far deeper than any provider payload, and shallow enough for every recursive reader after this one. */
const MAX_DEPTH = 64;

/** The JSON value with every string (keys too) cleaned; a value nested deeper than MAX_DEPTH is refused. */
export function cleanJson(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) throw new DomainError('VALIDATION_ERROR', `The payload nests deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) return value.map((item) => cleanJson(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [cleanText(key), cleanJson(item, depth + 1)]));
}
