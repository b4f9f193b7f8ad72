// Names for the statements the service runs again and again, so that each connection parses a statement once
// and PostgreSQL may keep its plan (a named prepared statement) instead of parsing and planning it on every run:
// a send's statements cost PostgreSQL 11 ms of CPU unnamed and 5–6 ms named (docs/performance.md).
// Named on their second sighting, so one-off statements never take a place in each connection's cache, and at
// most MAX_NAMED of them: the driver and the server keep every named statement for the connection's life.
// Written here because the driver adapter only takes a naming function (its `statementNameGenerator`).

/** Distinct statement texts remembered (seen once, or named); texts beyond them run unnamed. */
const MAX_REMEMBERED = 2_000;
const MAX_NAMED = 500;

export type StatementNamer = (query: { sql: string }) => string;

export function statementNamer(): StatementNamer {
  const names = new Map<string, string | null>();
  let named = 0;
  return (query) => {
    const name = names.get(query.sql);
    if (name) return name;
    if (name === null && named < MAX_NAMED) {
      const given = `crm_${++named}`;
      names.set(query.sql, given);
      return given;
    }
    if (name === undefined && names.size < MAX_REMEMBERED) names.set(query.sql, null);
    // The driver runs a statement without a name as an unnamed (one-shot) one.
    return undefined as unknown as string;
  };
}
