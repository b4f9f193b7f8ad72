// Timestamps read as the API's text by PostgreSQL itself, for the written statements that read many rows per
// request (a page of contacts, a contact's detail). Through Prisma, a timestamp column costs the driver adapter a
// string, the client a Date parsed from it, and the DateTime scalar an ISO string formatted from that Date: on a
// page of 50 contacts that was a fifth of the service's CPU per request (docs/performance.md). to_char writes the
// very text toISOString would, for every timestamp the service holds: the columns keep milliseconds
// (Timestamptz(3)) and years 1 to 9999 (DateTime inputs are refused outside them, and message times are clamped
// to now), which both write with four digits.
import { Prisma } from '../../prisma/generated/prisma/client.js';

/** An instant as the API answers it: ISO 8601 in UTC with milliseconds, e.g. 2026-01-31T09:30:00.000Z. */
export type IsoTimestamp = string & { readonly isoTimestamp: true };

/** The columns of `Row` that hold a timestamp. */
export type TimestampColumn<Row> = { [Column in keyof Row]-?: Row[Column] extends Date | null ? Column : never }[keyof Row] & string;

/** `Row` as read with its timestamps as ISO text. */
export type WithIsoTimestamps<Row> = {
  [Column in keyof Row]: Row[Column] extends Date ? IsoTimestamp : Row[Column] extends Date | null ? IsoTimestamp | null : Row[Column];
};

/** Every timestamp column of a row type, as a record so that the compiler finds one left out or misnamed. */
export type TimestampColumns<Row> = Record<TimestampColumn<Row>, true>;

const ISO_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"';

/** The select list of `columns` of the table aliased `alias`, each under its own name, the timestamps as ISO text. */
export function selectWithIsoTimestamps<Row>(alias: string, columns: readonly string[], timestamps: TimestampColumns<Row>): Prisma.Sql {
  return Prisma.raw(
    columns
      .map((column) =>
        column in timestamps ? `to_char(${alias}."${column}" AT TIME ZONE 'UTC', '${ISO_FORMAT}') AS "${column}"` : `${alias}."${column}"`,
      )
      .join(', '),
  );
}

/** A row read otherwise (one Prisma has just written) in the form of the statements above. */
export function withIsoTimestamps<Row extends object>(row: Row, timestamps: TimestampColumns<Row>): WithIsoTimestamps<Row> {
  const converted: Record<string, unknown> = { ...(row as Record<string, unknown>) };
  for (const column of Object.keys(timestamps)) {
    const value = converted[column];
    if (value instanceof Date) converted[column] = value.toISOString();
  }
  return converted as WithIsoTimestamps<Row>;
}
