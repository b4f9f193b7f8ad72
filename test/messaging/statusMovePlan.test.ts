// How PostgreSQL runs a round of status moves (resolvers/messaging/messageStatus.ts), read from the statement's own
// executed plan on each database: the moved message is found and updated through its index, never by reading the
// whole messages table. With the planner's default estimate for a JSON function (a hundred moves), a database of
// some ten thousand messages hashed every message at each move, 10–17 ms a move under load. And the statement is
// planned once: PostgreSQL keeps a generic plan of it rather than planning each execution.
import { describe, expect, it } from 'vitest';
import { forwardMove, moveStatement } from '../../resolvers/messaging/messageStatus.js';
import { openHarness } from '../support/harness.js';
import { seedConversation } from '../support/conversations.js';

const h = await openHarness();
const ws = await h.workspace('Status move plan');
const contact = await h.db.prisma.customer.create({
  data: { company_id: ws.workspace_id, name: 'Iris', wa_id: '15550177888', phone_number: '+15550177888' },
});
const conversation = await seedConversation(h.db.prisma, ws, contact.id);
const MESSAGES = 20_000;
await h.db.sql.query(
  `INSERT INTO messages (id, company_id, conversation_id, direction, body, status, created_at, updated_at)
   SELECT gen_random_uuid(), $1::uuid, $2::uuid, 'outbound', 'Order ' || n, 'sent', now(), now()
   FROM generate_series(1, $3::int) AS n`,
  [ws.workspace_id, conversation.id, MESSAGES],
);
await h.db.sql.query('ANALYZE messages');

/** What the move statement's values are: text, numbers, lists of text and NULL. */
type StatementValue = string | number | string[] | null;

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };

function nodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodes)];
}

describe('a round of status moves', () => {
  it('moves the message through its index, without a scan of the messages table', async () => {
    const [first] = await h.db.sql.query<{ id: string }>('SELECT id FROM messages WHERE conversation_id = $1 LIMIT 1', [conversation.id]);
    const id = first!.id;
    const statement = moveStatement(ws.workspace_id, [forwardMove(id, 'delivered')]);
    const [explained] = await h.db.sql.query<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`,
      statement.values,
    );
    const raw = explained!['QUERY PLAN'];
    const [{ Plan }] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];

    const scans = nodes(Plan).filter((node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'messages');
    expect(scans).toEqual([]);
    const [moved] = await h.db.sql.query<{ status: string }>('SELECT status FROM messages WHERE id = $1', [id]);
    expect(moved!.status).toBe('delivered');
  });
});

describe('the statement of a round of status moves', () => {
  it('is planned once and its plan kept: PostgreSQL runs it from a generic plan after its first executions', async () => {
    // Every execution planned anew cost PostgreSQL about 1 ms a round under the send load: the LIMIT, passed as a
    // parameter, reached only custom plans, which the planner then kept choosing. Nothing here moves (unknown ids).
    const moves = () => [1, 2, 3].map(() => forwardMove(crypto.randomUUID(), 'delivered'));
    const { text } = moveStatement(ws.workspace_id, moves());
    await h.db.sql.exec(`PREPARE round_of_moves AS ${text}`);
    try {
      const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;
      const literal = (value: StatementValue): string => {
        if (value === null) return 'NULL';
        return quoted(Array.isArray(value) ? `{${value.join(',')}}` : String(value));
      };
      for (let execution = 0; execution < 8; execution++) {
        const values = moveStatement(ws.workspace_id, moves()).values as StatementValue[];
        await h.db.sql.query(`EXECUTE round_of_moves(${values.map(literal).join(', ')})`);
      }
      const [plans] = await h.db.sql.query<{ generic_plans: number }>(
        "SELECT generic_plans::int FROM pg_prepared_statements WHERE name = 'round_of_moves'",
      );
      expect(plans!.generic_plans).toBeGreaterThanOrEqual(3);
    } finally {
      await h.db.sql.exec('DEALLOCATE round_of_moves');
    }
  });
});
