// Proves that the hand-written SQL migrations build exactly the database that prisma/schema.prisma
// describes: every table, column (type, nullability, default), index (columns, order, method, operator
// class, uniqueness, name) and foreign key. Prisma's schema engine is not available offline, so this test
// is what keeps the two in step. What schema.prisma cannot express (a generated column's expression, an
// index on an expression, an index with included columns, a partial index, an exclusion constraint, a trigger) is listed
// in DATABASE_ONLY below and checked exactly too.
import { readFileSync } from 'node:fs';
import { describe, expect, it, afterAll } from 'vitest';
import wasm from '@prisma/prisma-schema-wasm';
import { openTestDatabase } from '../support/harness.js';
import { emptyDatabaseEnv } from '../support/freshDatabase.js';
import { migrate, readMigrations } from '../../infra/db/migrate.js';
import { openDatabaseBefore } from '../support/databaseBefore.js';

type DmmfField = {
  name: string;
  dbName?: string | null;
  kind: 'scalar' | 'object' | 'enum';
  type: string;
  isList: boolean;
  isRequired: boolean;
  isUpdatedAt: boolean;
  nativeType: [string, string[]] | null;
  default?: { name: string; args: unknown[] } | string | number | boolean | string[];
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
};
type DmmfModel = { name: string; dbName: string | null; fields: DmmfField[] };
type DmmfIndex = {
  model: string;
  type: 'id' | 'normal' | 'unique' | 'fulltext';
  dbName?: string;
  algorithm?: string;
  fields: { name: string; sortOrder?: 'asc' | 'desc'; operatorClass?: string }[];
};

const prismaSchema = readFileSync(new URL('../../prisma/schema.prisma', import.meta.url), 'utf8');
const dmmf = JSON.parse(wasm.get_dmmf(JSON.stringify({ prismaSchema }))).datamodel as { models: DmmfModel[]; indexes: DmmfIndex[] };

/** Prisma's DMMF leaves out `Unsupported("type")` fields (they may still be indexed), so read them from the file. */
type UnsupportedField = { name: string; type: string; isRequired: boolean };
const unsupportedFields = new Map<string, UnsupportedField[]>(
  [...prismaSchema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)].map(([, model, body]) => [
    model!,
    [...body!.matchAll(/^\s*(\w+)\s+Unsupported\("([^"]+)"\)(\?)?/gm)].map(([, name, type, optional]) => ({
      name: name!,
      type: type!,
      isRequired: !optional,
    })),
  ]),
);

/** What schema.prisma cannot describe, with the exact definitions PostgreSQL reports for them. */
const DATABASE_ONLY = {
  generatedColumns: [
    `customers.search_grams GENERATED ALWAYS AS (short_grams(VARIADIC ARRAY[name, phone_number, email])) STORED`,
    `customers.search_text GENERATED ALWAYS AS (lower(((((COALESCE(name, ''::text) || '\n'::text) || COALESCE(email, ''::text)) || '\n'::text) || COALESCE(phone_number, ''::text)))) STORED`,
    `knowledge_documents.search GENERATED ALWAYS AS ((setweight(to_tsvector('english'::regconfig, title), 'A'::"char") || setweight(to_tsvector('english'::regconfig, content), 'B'::"char"))) STORED`,
  ],
  expressionIndexes: [
    `CREATE INDEX customers_company_id_phone_pieces_idx ON public.customers USING gin (company_id, phone_pieces(phone_number))`,
    `CREATE INDEX messages_company_id_body_grams_idx ON public.messages USING gin (company_id, short_grams(VARIADIC ARRAY[body]))`,
  ],
  coveringIndexes: [
    `CREATE INDEX customers_company_id_id_search_idx ON public.customers USING btree (company_id, id DESC) INCLUDE (search_text)`,
  ],
  partialIndexes: [
    `CREATE INDEX events_undispatched_idx ON public.events USING btree (id) WHERE (dispatched_at IS NULL)`,
    `CREATE INDEX events_automations_pending_idx ON public.events USING btree (id) WHERE (automations_done_at IS NULL)`,
    `CREATE INDEX campaign_recipients_pending_idx ON public.campaign_recipients USING btree (campaign_id, contact_id) WHERE (status = 'pending'::text)`,
  ],
  triggers: [
    `CREATE TRIGGER conversations_deleted_report_changes AFTER DELETE ON public.conversations REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION report_changes_conversations()`,
    `CREATE TRIGGER conversations_first_response AFTER INSERT ON public.messages REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION conversations_first_response()`,
    `CREATE TRIGGER conversations_inserted_report_changes AFTER INSERT ON public.conversations REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION report_changes_conversations()`,
    `CREATE TRIGGER conversations_updated_report_changes AFTER UPDATE ON public.conversations FOR EACH ROW WHEN (((old.created_at IS DISTINCT FROM new.created_at) OR (old.closed_at IS DISTINCT FROM new.closed_at) OR (old.first_inbound_at IS DISTINCT FROM new.first_inbound_at) OR (old.first_response_at IS DISTINCT FROM new.first_response_at) OR (old.first_responder_id IS DISTINCT FROM new.first_responder_id))) EXECUTE FUNCTION report_changes_conversation_updated()`,
    `CREATE TRIGGER customers_last_message_at AFTER INSERT OR UPDATE OF last_message_at, customer_id ON public.conversations FOR EACH ROW WHEN ((new.last_message_at IS NOT NULL)) EXECUTE FUNCTION customers_last_message_at()`,
    `CREATE TRIGGER events_notify AFTER INSERT ON public.events FOR EACH ROW EXECUTE FUNCTION events_notify()`,
    `CREATE TRIGGER messages_deleted_report_changes AFTER DELETE ON public.messages REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION report_changes_created()`,
    `CREATE TRIGGER messages_inserted_report_changes AFTER INSERT ON public.messages REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION report_changes_created()`,
    `CREATE TRIGGER status_changes_deleted_report_changes AFTER DELETE ON public.conversation_status_changes REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION report_changes_created()`,
    `CREATE TRIGGER status_changes_inserted_report_changes AFTER INSERT ON public.conversation_status_changes REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION report_changes_created()`,
    `CREATE TRIGGER workspaces_report_days_forget AFTER UPDATE ON public.workspaces FOR EACH ROW WHEN (((old.business_hours IS DISTINCT FROM new.business_hours) OR (old.time_zone IS DISTINCT FROM new.time_zone))) EXECUTE FUNCTION report_days_forget()`,
  ],
  exclusionConstraints: [
    `appointments.appointments_no_overlap: EXCLUDE USING gist (company_id WITH =, tstzrange(start_at, blocked_until) WITH &&) WHERE ((status = 'scheduled'::text))`,
  ],
};

/** The indexes schema.prisma cannot describe, left out of its comparison and checked on their own. */
const DATABASE_ONLY_INDEXES = [...DATABASE_ONLY.expressionIndexes, ...DATABASE_ONLY.coveringIndexes, ...DATABASE_ONLY.partialIndexes];

const models = new Map(dmmf.models.map((model) => [model.name, model]));
const tableOf = (model: DmmfModel) => model.dbName ?? model.name;
const columnOf = (model: DmmfModel, fieldName: string) => {
  const field = model.fields.find((candidate) => candidate.name === fieldName);
  if (field) return field.dbName ?? field.name;
  if (unsupportedFields.get(model.name)?.some((candidate) => candidate.name === fieldName)) return fieldName;
  throw new Error(`${model.name}.${fieldName} missing`);
};

function sqlType(field: DmmfField): string {
  const native = field.nativeType?.[0];
  const base =
    native === 'Uuid'
      ? 'uuid'
      : native === 'Timestamptz'
        ? `timestamptz(${field.nativeType?.[1][0] ?? 6})`
        : native === 'Date'
          ? 'date'
          : (
              {
                String: 'text',
                Boolean: 'bool',
                Int: 'int4',
                BigInt: 'int8',
                Float: 'float8',
                Json: 'jsonb',
                DateTime: 'timestamp(3)',
              } as Record<string, string>
            )[field.type];
  if (!base) throw new Error(`No SQL type for ${field.type}`);
  return field.isList ? `${base}[]` : base;
}

function sqlDefault(field: DmmfField): string | null {
  const value = field.default;
  if (value === undefined || field.isUpdatedAt) return null;
  // PostgreSQL types an empty array literal itself (ARRAY[]::text[]); a filled one by its items.
  if (Array.isArray(value)) return value.length === 0 ? 'ARRAY[]::text[]' : `ARRAY[${value.map((item) => `'${item}'::text`).join(', ')}]`;
  if (typeof value === 'object') {
    if (value.name === 'dbgenerated') return String(value.args[0]);
    return value.name === 'now' ? 'CURRENT_TIMESTAMP' : null; // uuid(7) is generated by the client
  }
  if (typeof value === 'string') return `'${value}'::${field.type === 'Json' ? 'jsonb' : 'text'}`;
  // Prisma's DMMF writes some decimal defaults with binary noise (0.57 as 0.5700000000000001); PostgreSQL does not.
  return typeof value === 'number' ? String(Number(value.toPrecision(12))) : String(value);
}

/** Operator classes that PostgreSQL's index definitions leave out, being the default for their column's type, and that
 * schema.prisma must still name: Prisma knows no default GIN class for a uuid (btree_gin's uuid_ops). */
const DEFAULT_OPERATOR_CLASSES = new Set(['gin uuid_ops']);

/** Prisma's constraint naming: table_columns_suffix, truncated to PostgreSQL's 63 characters. */
function conventionalName(table: string, columns: string[], suffix: string): string {
  const base = `${table}_${columns.join('_')}`;
  return base.length + suffix.length + 1 > 63 ? `${base.slice(0, 63 - suffix.length - 1)}_${suffix}` : `${base}_${suffix}`;
}

function expectedSchema() {
  const columns: string[] = [];
  const indexes: string[] = [];
  const foreignKeys: string[] = [];
  for (const model of dmmf.models) {
    const table = tableOf(model);
    for (const field of model.fields) {
      if (field.kind === 'object') {
        if (!field.relationFromFields?.length) continue;
        const target = models.get(field.type)!;
        const from = field.relationFromFields.map((name) => columnOf(model, name));
        const to = field.relationToFields!.map((name) => columnOf(target, name));
        const onDelete = { Cascade: 'CASCADE', SetNull: 'SET NULL', Restrict: 'RESTRICT', NoAction: 'NO ACTION' }[
          field.relationOnDelete ?? 'NoAction'
        ];
        foreignKeys.push(
          `${table}.${conventionalName(table, from, 'fkey')}: FOREIGN KEY (${from.join(', ')}) REFERENCES ${tableOf(target)}(${to.join(', ')}) ON UPDATE CASCADE ON DELETE ${onDelete}`,
        );
        continue;
      }
      const required = field.isRequired && !field.isList;
      columns.push(
        `${table}.${field.dbName ?? field.name} ${sqlType(field)} ${required ? 'NOT NULL' : 'NULL'} default=${sqlDefault(field)}`,
      );
    }
    for (const field of unsupportedFields.get(model.name) ?? []) {
      columns.push(`${table}.${field.name} ${field.type} ${field.isRequired ? 'NOT NULL' : 'NULL'} default=null`);
    }
  }
  for (const index of dmmf.indexes) {
    const model = models.get(index.model)!;
    const table = tableOf(model);
    const cols = index.fields.map((field) => columnOf(model, field.name));
    const suffix = { id: 'pkey', unique: 'key', normal: 'idx', fulltext: 'idx' }[index.type];
    const name = index.dbName ?? (index.type === 'id' ? `${table}_pkey` : conventionalName(table, cols, suffix));
    const method = (index.algorithm ?? 'BTree').toLowerCase();
    const parts = index.fields.map((field, i) =>
      [
        cols[i],
        DEFAULT_OPERATOR_CLASSES.has(`${method} ${field.operatorClass}`) ? undefined : field.operatorClass,
        field.sortOrder === 'desc' ? 'DESC' : undefined,
      ]
        .filter(Boolean)
        .join(' '),
    );
    const unique = index.type === 'id' || index.type === 'unique' ? 'UNIQUE ' : '';
    indexes.push(`CREATE ${unique}INDEX ${name} ON public.${table} USING ${method} (${parts.join(', ')})`);
  }
  return { columns: columns.sort(), indexes: indexes.sort(), foreignKeys: foreignKeys.sort() };
}

describe('SQL migrations', async () => {
  const db = await openTestDatabase();
  afterAll(() => db.close());
  // Made here, not in the tests that use them: the databases are dropped by an afterAll hook, which a test cannot add.
  const emptyUrl = (await emptyDatabaseEnv())['DATABASE_URL'];
  const emptyUrlForWindow = (await emptyDatabaseEnv())['DATABASE_URL'];

  async function actualSchema() {
    const columns = await db.sql.query<{
      table_name: string;
      column_name: string;
      type: string;
      not_null: boolean;
      column_default: string | null;
      generated: boolean;
    }>(`
      SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS type,
             a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS column_default, a.attgenerated = 's' AS generated
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid AND c.relkind = 'r'
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relname <> '_migrations'`);
    const typeName = (type: string) =>
      type
        .replace(/timestamp\((\d)\) with time zone/, 'timestamptz($1)')
        .replace('text[]', 'text[]')
        .replace('boolean', 'bool')
        .replace('integer', 'int4')
        .replace('bigint', 'int8')
        .replace('double precision', 'float8');
    const constraints = await db.sql.query<{ table_name: string; name: string; kind: string; definition: string }>(`
      SELECT c.relname AS table_name, con.conname AS name, con.contype AS kind, pg_get_constraintdef(con.oid) AS definition
      FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
      WHERE con.contype IN ('f', 'x')`);
    const ofKind = (kind: string) => constraints.filter((row) => row.kind === kind);
    // An exclusion constraint is checked as a constraint (below), not as the index that backs it.
    const exclusionNames = new Set(ofKind('x').map((row) => row.name));
    const triggers = await db.sql.query<{ definition: string }>(`
      SELECT pg_get_triggerdef(t.oid) AS definition FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public' WHERE NOT t.tgisinternal`);
    const indexes = await db.sql.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_migrations'`,
    );
    return {
      columns: columns
        .map(
          (row) =>
            `${row.table_name}.${row.column_name} ${typeName(row.type)} ${row.not_null ? 'NOT NULL' : 'NULL'} default=${row.generated ? null : row.column_default}`,
        )
        .sort(),
      indexes: indexes
        .filter((row) => !exclusionNames.has(row.indexname))
        .map((row) => row.indexdef)
        .filter((definition) => !DATABASE_ONLY_INDEXES.includes(definition))
        .sort(),
      expressionIndexes: indexes
        .filter((row) => !exclusionNames.has(row.indexname))
        .map((row) => row.indexdef)
        .filter((definition) => / USING \w+ \((\w+, )*\w+\(/.test(definition))
        .sort(),
      coveringIndexes: indexes
        .filter((row) => !exclusionNames.has(row.indexname))
        .map((row) => row.indexdef)
        .filter((definition) => / INCLUDE \(/.test(definition))
        .sort(),
      partialIndexes: indexes
        .filter((row) => !exclusionNames.has(row.indexname))
        .map((row) => row.indexdef)
        .filter((definition) => / WHERE /.test(definition))
        .sort(),
      foreignKeys: ofKind('f')
        .map((row) => `${row.table_name}.${row.name}: ${row.definition}`)
        .sort(),
      generatedColumns: columns
        .filter((row) => row.generated)
        .map((row) => `${row.table_name}.${row.column_name} GENERATED ALWAYS AS (${row.column_default}) STORED`)
        .sort(),
      triggers: triggers.map((row) => row.definition).sort(),
      exclusionConstraints: ofKind('x')
        .map((row) => `${row.table_name}.${row.name}: ${row.definition}`)
        .sort(),
    };
  }

  it('builds every table, column, index and foreign key that schema.prisma declares, and nothing else', async () => {
    const expected = expectedSchema();
    const actual = await actualSchema();
    expect(actual.columns).toEqual(expected.columns);
    expect(actual.indexes).toEqual(expected.indexes);
    expect(actual.foreignKeys).toEqual(expected.foreignKeys);
  });

  it('builds exactly the generated columns, expression, covering and partial indexes, exclusion constraints and triggers that schema.prisma cannot describe', async () => {
    const actual = await actualSchema();
    expect(actual.triggers).toEqual([...DATABASE_ONLY.triggers].sort());
    expect(actual.generatedColumns).toEqual([...DATABASE_ONLY.generatedColumns].sort());
    expect(actual.exclusionConstraints).toEqual([...DATABASE_ONLY.exclusionConstraints].sort());
    expect(actual.expressionIndexes).toEqual([...DATABASE_ONLY.expressionIndexes].sort());
    expect(actual.coveringIndexes).toEqual([...DATABASE_ONLY.coveringIndexes].sort());
    expect(actual.partialIndexes).toEqual([...DATABASE_ONLY.partialIndexes].sort());
  });

  it('applies each migration once: a second run applies nothing', async () => {
    expect(await migrate(db.sql)).toEqual([]);
  });

  it('fills in the first response of the conversations written before migration 0040, from their messages', async () => {
    // An empty database (PostgreSQL: a new one, made for this file; embedded: in memory) brought up to the migration
    // before it.
    const before = await openDatabaseBefore('0040', emptyUrl ? { url: emptyUrl, poolSize: 2 } : {});
    try {
      const id = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
      const [workspace, customer, answered, unanswered, campaignOnly] = [1, 2, 3, 4, 5].map(id);
      const message = (n: number, conversation: string, direction: string, sender: string, minute: number) =>
        `('${id(n)}', '${workspace}', '${conversation}', '${direction}', 'Hi', 'sent', '${sender}', ` +
        `timestamptz '2026-09-01 10:00Z' + interval '${minute} minutes', now())`;
      await before.sql.exec(`
        INSERT INTO workspaces (id, name, public_id, updated_at) VALUES ('${workspace}', 'Before 0040', 'before0040', now());
        INSERT INTO customers (id, company_id, updated_at) VALUES ('${customer}', '${workspace}', now());
        INSERT INTO conversations (id, company_id, customer_id, provider, updated_at) VALUES
          ('${answered}', '${workspace}', '${customer}', 'sandbox', now()),
          ('${unanswered}', '${workspace}', '${customer}', 'sandbox', now()),
          ('${campaignOnly}', '${workspace}', '${customer}', 'sandbox', now());
        INSERT INTO messages (id, company_id, conversation_id, direction, body, status, sender_type, created_at, updated_at) VALUES
          ${message(10, answered!, 'outbound', 'user', -5)}, ${message(11, answered!, 'inbound', 'contact', 0)},
          ${message(12, answered!, 'outbound', 'campaign', 1)}, ${message(13, answered!, 'outbound', 'agent', 3)},
          ${message(14, answered!, 'inbound', 'contact', 4)}, ${message(15, answered!, 'outbound', 'user', 6)},
          ${message(16, unanswered!, 'inbound', 'contact', 0)},
          ${message(17, campaignOnly!, 'outbound', 'campaign', 0)};`);
      await migrate(before.sql);
      const kept = await before.sql.query<Record<string, string | null>>(`
        SELECT id::text, to_char(first_inbound_at AT TIME ZONE 'UTC', 'HH24:MI') AS first_inbound,
               to_char(first_response_at AT TIME ZONE 'UTC', 'HH24:MI') AS first_response, first_responder_type
        FROM conversations ORDER BY id`);
      expect(kept).toEqual([
        { id: answered, first_inbound: '10:00', first_response: '10:03', first_responder_type: 'agent' },
        { id: unanswered, first_inbound: '10:00', first_response: null, first_responder_type: null },
        { id: campaignOnly, first_inbound: null, first_response: null, first_responder_type: null },
      ]);
    } finally {
      await before.close();
    }
  });

  it("fills each number's window of recipients from the campaign claims of the last 24 hours (migration 0047)", async () => {
    const before = await openDatabaseBefore('0047', emptyUrlForWindow ? { url: emptyUrlForWindow, poolSize: 2 } : {});
    try {
      const id = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
      const [workspace, number, otherNumber, recent, old, twice, spring, autumn, elsewhere] = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(id);
      const claim = (campaign: string, contact: string, hoursAgo: number) =>
        `('${campaign}', '${contact}', '${workspace}', 'sent', now() - interval '${hoursAgo} hours', now())`;
      await before.sql.exec(`
        INSERT INTO workspaces (id, name, public_id, updated_at) VALUES ('${workspace}', 'Before 0047', 'before0047', now());
        INSERT INTO integrations (id, company_id, provider, phone_number_id, business_account_id, credentials, updated_at) VALUES
          ('${number}', '${workspace}', 'sandbox', 'before0047-a', 'waba', 'sealed', now()),
          ('${otherNumber}', '${workspace}', 'sandbox', 'before0047-b', 'waba', 'sealed', now());
        INSERT INTO customers (id, company_id, updated_at) VALUES
          ('${recent}', '${workspace}', now()), ('${old}', '${workspace}', now()), ('${twice}', '${workspace}', now());
        INSERT INTO campaigns (id, company_id, name, template_name, template_language, template_parameters, integration_id, updated_at) VALUES
          ('${spring}', '${workspace}', 'Spring', 't', 'en_US', '[]', '${number}', now()),
          ('${autumn}', '${workspace}', 'Autumn', 't', 'en_US', '[]', '${number}', now()),
          ('${elsewhere}', '${workspace}', 'Elsewhere', 't', 'en_US', '[]', '${otherNumber}', now());
        INSERT INTO campaign_recipients (campaign_id, contact_id, company_id, status, claimed_at, updated_at) VALUES
          ${claim(spring!, recent!, 2)}, ${claim(spring!, old!, 30)}, ${claim(spring!, twice!, 5)},
          ${claim(autumn!, twice!, 1)}, ${claim(elsewhere!, recent!, 3)};`);
      await migrate(before.sql);
      const window = await before.sql.query<{ integration_id: string; contact_id: string; hours_ago: number }>(`
        SELECT integration_id::text, contact_id::text, round(extract(epoch FROM now() - last_sent_at) / 3600)::int AS hours_ago
        FROM number_window_recipients ORDER BY integration_id, contact_id`);
      expect(window).toEqual([
        { integration_id: number, contact_id: recent, hours_ago: 2 },
        { integration_id: number, contact_id: twice, hours_ago: 1 },
        { integration_id: otherNumber, contact_id: recent, hours_ago: 3 },
      ]);
      const counts = await before.sql.query<{ id: string; window_recipient_count: number }>(
        'SELECT id::text, window_recipient_count FROM integrations ORDER BY id',
      );
      expect(counts).toEqual([
        { id: number, window_recipient_count: 2 },
        { id: otherNumber, window_recipient_count: 1 },
      ]);
    } finally {
      await before.close();
    }
  });

  it('refuses to run when an applied migration file was edited', async () => {
    const edited = readMigrations().map((migration, index) => (index === 0 ? { ...migration, checksum: 'changed' } : migration));
    await expect(migrate(db.sql, edited)).rejects.toThrow(/was changed after it was applied/);
  });
});
