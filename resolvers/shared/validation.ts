// Input validation for resolvers: zod schemas whose failures become one VALIDATION_ERROR with a reason per
// field, named as the public contract names the field.
import { z } from 'zod';
import { invalid } from './errors.js';

export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'input';
    details[field] ??= issue.message;
  }
  throw invalid(details);
}

export const uuid = z.string().uuid({ message: 'must be a UUID' });

/** `{id}`, the input of every get/update/delete by id; one schema, built once (zod compiles on first use). */
export const idInput = z.object({ id: uuid });

export function limit(defaultValue: number) {
  return z
    .number({ message: 'must be an integer' })
    .int({ message: 'must be an integer' })
    .min(1, { message: 'must be between 1 and 100' })
    .max(100, { message: 'must be between 1 and 100' })
    .nullish()
    .transform((value) => value ?? defaultValue);
}

/** A search's `q`: required, trimmed, 1 to `maxLength` characters. (A message given to z.string() alone would also
 * answer a term that is too long, as zod applies it to every issue of the string.) */
export function searchTerm(maxLength: number) {
  return z
    .string({ message: 'is required' })
    .trim()
    .min(1, { message: 'must be at least 1 character' })
    .max(maxLength, { message: `must be at most ${maxLength} characters` });
}

/** ISO 8601 date-time with a time zone (Z or an offset), as the spec's datetime type. */
export const isoDateTime = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' });

/** Whether `date` is an instant the database holds and compares: years 1 to 9999, what PostgreSQL's timestamptz and
 * ISO 8601 without an expanded year both hold (an invalid Date is not). */
export function isStorableInstant(date: Date): boolean {
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999;
}

/** A date-time already parsed by the GraphQL DateTime scalar. */
export const instant = z.date({ message: 'must be an ISO 8601 date-time' });

/** A range [from, to) of at most `maxDays` days; a violation is reported on `to`. */
export function dateRange(maxDays: number) {
  return z
    .object({ from: instant, to: instant })
    .refine((range) => range.to > range.from, { message: 'must be after from', path: ['to'] })
    .refine((range) => range.to.getTime() - range.from.getTime() <= maxDays * 86_400_000, {
      message: `must be at most ${maxDays} days after from`,
      path: ['to'],
    });
}
