// Keyset pagination, newest first. A page is fetched with one extra row to learn whether more follow.
export type Page<Row> = { data: Row[]; next_cursor: string | null; has_more: boolean };

export function toPage<Row>(rows: Row[], limit: number, cursorOf: (row: Row) => string): Page<Row> {
  const has_more = rows.length > limit;
  const data = has_more ? rows.slice(0, limit) : rows;
  const last = data.at(-1);
  return { data, has_more, next_cursor: has_more && last ? cursorOf(last) : null };
}
