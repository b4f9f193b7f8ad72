// Keyset pagination, the one way every list pages. A list has a total order on a unique key; a page is the
// rows after the cursor in that order, read with one row more than asked to learn whether more follow, and
// its next_cursor is the key of its last row, so a walk is exact across ties and unaffected by rows added
// meanwhile. Lists ordered by one unique column (ids are UUIDv7, so `id` descending is newest first) use
// columnPage, whose cursor is that column's value; lists ordered by several columns encode them into an
// opaque cursor of their own, read back by cursorArgument, and page with keysetPage.
import { z } from 'zod';

export type Page<Row> = { data: Row[]; next_cursor: string | null; has_more: boolean };

/** One page: `read(take)` returns up to `take` rows after the cursor, in list order (take is limit + 1). */
export async function keysetPage<Row>(
  limit: number,
  read: (take: number) => Promise<Row[]>,
  cursorOf: (row: Row) => string,
): Promise<Page<Row>> {
  const rows = await read(limit + 1);
  const has_more = rows.length > limit;
  const data = has_more ? rows.slice(0, limit) : rows;
  const last = data.at(-1);
  return { data, has_more, next_cursor: has_more && last ? cursorOf(last) : null };
}

type Order = 'asc' | 'desc';

/** What a query needs to read one page of a list ordered by `column`. */
export type ColumnWindow<Column extends string> = {
  /** The rows after the cursor (empty on the first page): spread it into the query's where. */
  after: Partial<Record<Column, { lt: string } | { gt: string }>>;
  orderBy: Record<Column, Order>;
  take: number;
};

/** One page of a list ordered by one unique column; the cursor is the column's value in the last row seen. */
export function columnPage<Column extends string, Row extends Record<Column, string>>(
  column: Column,
  order: Order,
  args: { limit: number; cursor?: string | null | undefined },
  read: (window: ColumnWindow<Column>) => Promise<Row[]>,
): Promise<Page<Row>> {
  const bound = order === 'desc' ? { lt: args.cursor } : { gt: args.cursor };
  const after = (args.cursor ? { [column]: bound } : {}) as ColumnWindow<Column>['after'];
  const orderBy = { [column]: order } as ColumnWindow<Column>['orderBy'];
  return keysetPage(
    args.limit,
    (take) => read({ after, orderBy, take }),
    (row) => row[column],
  );
}

/** A cursor argument of a list with a cursor of its own: decoded into its position, or refused with `message`. */
export function cursorArgument<Position>(
  decode: (value: string) => Position | null,
  message = 'must be the next_cursor of a previous page',
) {
  return z
    .string()
    .transform((value, context) => {
      const position = decode(value);
      if (position === null) context.addIssue({ code: 'custom', message });
      return position ?? z.NEVER;
    })
    .nullish();
}
