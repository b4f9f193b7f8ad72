// Which step of the search statement (resolvers/shared/substringSearch.ts) answers a page, read from the statement's
// own executed plan: a term the newest rows show to be common, one match short of its page, is completed by the
// further window, read in order, and never by the index step, which would fetch every older match of the term (a
// last name one short of its page at a million contacts took 330 ms that way); a rare term does reach the index
// step, which shows that the plan tells the steps apart. The rows read in order come from the index of that order
// alone (migration 0049), and a phone term's pieces from their own index. Each holds of the plan made for the term
// (a custom plan: the embedded database, and any unnamed statement) and of the one plan made for any term (the
// generic plan of PostgreSQL's search sessions, infra/db/database.ts), on both databases, and whether the index step
// asks the GIN indexes for the workspace's rows or for the term's alone (a workspace holding most of the table,
// resolvers/shared/workspaceShares.ts): then no lookup names the workspace, and the answers are the same. 1,100
// contacts: the newest 1,000 hold 50 matches of the common term, the next 80 none, the oldest 20 all match.
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import type { Prisma } from '../../prisma/generated/prisma/client.js';
import { contactSearch } from '../../resolvers/contacts/contacts.js';
import { openHarness } from '../support/harness.js';
import type { SearchedWorkspace } from '../../resolvers/shared/workspaceShares.js';

const h = await openHarness();
const ws = await h.workspace('Search steps');
const TOTAL = 1_100;
const start = Date.now() - TOTAL * 1000;
const names = Array.from({ length: TOTAL }, (_, ordinal) => {
  const common = ordinal < 20 || (ordinal >= 100 && ordinal % 20 === 0);
  return ordinal === 5 ? 'Zyx Rarely 5' : `${common ? 'Ana Kowalski' : 'Ana Silva'} ${ordinal}`;
});
await h.db.sql.query(
  `INSERT INTO customers (id, company_id, name, phone_number, created_at, updated_at)
   SELECT id, $1::uuid, name, '+1555' || lpad(ordinal::text, 7, '0'), now(), now()
   FROM unnest($2::uuid[], $3::text[]) WITH ORDINALITY AS given(id, name, ordinal)`,
  [ws.workspace_id, names.map((_, ordinal) => uuidv7({ msecs: start + ordinal * 1000 })), names],
);
await h.db.sql.query('ANALYZE customers');

type PlanNode = {
  Alias?: string;
  'Node Type': string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Filter?: string;
  'Actual Loops': number;
  Plans?: PlanNode[];
};

type Plans = 'custom' | 'generic';
/** Whether the index step's lookups ask for the workspace's rows (`workspace`) or the term's alone (`term alone`). */
type Lookups = 'workspace' | 'term alone';
const searched = (lookups: Lookups): SearchedWorkspace => ({
  id: ws.workspace_id,
  holdsMostOf: new Set(lookups === 'term alone' ? ['customers'] : []),
});

/** A statement's value as SQL text (a workspace id, a pattern, a number), for EXECUTE's arguments. */
const literal = (value: unknown) => (typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`);

/** The statement's rows and its executed plan (EXPLAIN ANALYZE's JSON), planned for its values or once for any. */
async function run(statement: Prisma.Sql, plans: Plans): Promise<{ rows: { id: string }[]; explained: unknown }> {
  if (plans === 'custom') {
    const rows = await h.db.sql.query<{ id: string }>(statement.text, statement.values);
    const [explained] = await h.db.sql.query<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`,
      statement.values,
    );
    return { rows, explained: explained!['QUERY PLAN'] };
  }
  return h.db.sql.session(async (session) => {
    const values = statement.values.map(literal).join(', ');
    await session.exec(`SET plan_cache_mode = force_generic_plan; PREPARE search_steps AS ${statement.text}`);
    try {
      const rows = await session.query<{ id: string }>(`EXECUTE search_steps(${values})`);
      const [explained] = await session.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE search_steps(${values})`);
      return { rows, explained: explained!['QUERY PLAN'] };
    } finally {
      await session.exec('DEALLOCATE search_steps; RESET plan_cache_mode');
    }
  });
}

/** The page's ids, how many times the index step's reads of the contacts (aliased `candidate`, however the planner
 * reads them) ran while answering it, the windows' scans of the contacts that ran (node type and index), every
 * index that a scan which ran read, and the conditions of the index step's reads of the table that ran (the
 * lookups, before the rows they find are kept to the workspace's or checked). */
async function answer(
  term: string,
  plans: Plans,
  lookups: Lookups = 'workspace',
): Promise<{ ids: string[]; lookups: number; scans: string[]; indexes: Set<string>; lookupConditions: string[] }> {
  const { rows, explained: raw } = await run(contactSearch(searched(lookups), term, null, 51), plans);
  const ids = rows.map((row) => row.id);
  // A plan made for the values names the workspace; one made for any value names its parameter instead.
  expect(JSON.stringify(raw).includes(ws.workspace_id)).toBe(plans === 'custom');
  const [{ Plan }] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
  let candidateReads = 0;
  const scans: string[] = [];
  const indexes = new Set<string>();
  const lookupConditions: string[] = [];
  const visit = (node: PlanNode) => {
    if (node.Alias?.startsWith('candidate')) candidateReads += node['Actual Loops'];
    else if (node.Alias === 'customers' && node['Actual Loops'] > 0) scans.push(`${node['Node Type']} ${node['Index Name'] ?? ''}`.trim());
    if (node['Index Name'] && node['Actual Loops'] > 0) indexes.add(node['Index Name']);
    if (node.Alias?.startsWith('candidate') && node['Node Type'].endsWith(' Scan') && node['Node Type'] !== 'Subquery Scan') {
      if (node['Actual Loops'] > 0) lookupConditions.push([node['Index Cond'], node['Recheck Cond'], node.Filter].join(' '));
    }
    node.Plans?.forEach(visit);
  };
  visit(Plan);
  return { ids, lookups: candidateReads, scans, indexes, lookupConditions };
}

describe.each<Lookups>(['workspace', 'term alone'])('the index step asking for the %s', (lookups) => {
  it.each<Plans>(['custom', 'generic'])('names the workspace in its lookups only when it asks for it (%s plan)', async (plans) => {
    for (const term of ['zyx', '+1 555 000 0999', 'zy']) {
      const { ids, lookupConditions } = await answer(term, plans, lookups);
      expect(ids).toHaveLength(1);
      expect(lookupConditions.length).toBeGreaterThan(0);
      for (const condition of lookupConditions) expect(condition.includes('company_id')).toBe(lookups === 'workspace');
    }
  });

  it('answers what the other way answers, for every kind of term', async () => {
    const other: Lookups = lookups === 'workspace' ? 'term alone' : 'workspace';
    for (const term of ['kowalski', 'zyx', 'zy', 'k', '5550001', '+1 555 000 0999', 'silva 10', 'nobody', 'ana']) {
      const { ids } = await answer(term, 'custom', lookups);
      expect(ids, term).toEqual((await answer(term, 'custom', other)).ids);
    }
  });
});

describe.each<Plans>(['custom', 'generic'])('the steps of a contact search, %s plan', (plans) => {
  it('completes a common term one match short of its page from the further window, without the index step', async () => {
    const { ids, lookups } = await answer('kowalski', plans);
    expect(ids).toHaveLength(51);
    expect(lookups).toBe(0);
  });

  it('reaches the index step for a rare term', async () => {
    const { ids, lookups } = await answer('zyx', plans);
    expect(ids).toHaveLength(1);
    expect(lookups).toBeGreaterThan(0);
  });

  it('reads the newest rows from the index of their order alone, for a word and for digits', async () => {
    // Index-only scans need the table's visibility map, which VACUUM (autovacuum, in production) keeps.
    await h.db.sql.query('VACUUM ANALYZE customers');
    for (const term of ['kowalski', '5550001']) {
      const { scans } = await answer(term, plans);
      expect(scans.length).toBeGreaterThan(0);
      expect(new Set(scans)).toEqual(new Set(['Index Only Scan customers_company_id_id_search_idx']));
    }
  });

  // With the phone number among the window index's included columns, the planner read `+1555009`'s pieces at 10,000
  // contacts by computing every contact's from that index (58 ms, against 3 ms through the pieces' GIN index).
  it("looks a phone number's pieces up in their own index, never computing every contact's", async () => {
    await h.db.sql.query('VACUUM ANALYZE customers');
    const { ids, lookups, indexes } = await answer('+1 555 000 0999', plans);
    expect(ids).toHaveLength(1);
    expect(lookups).toBeGreaterThan(0);
    expect(indexes).toContain('customers_company_id_phone_pieces_idx');
  });
});
