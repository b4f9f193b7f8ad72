import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
const db = await PGlite.create('memory://', { extensions: { btree_gist, pg_trgm } });
await db.exec(`CREATE EXTENSION IF NOT EXISTS btree_gist;
CREATE TABLE t (id uuid, company_id uuid, s timestamptz, e timestamptz, status text,
  EXCLUDE USING gist (company_id WITH =, tstzrange(s, e) WITH &&) WHERE (status = 'scheduled'));
CREATE TABLE d (title text not null, content text not null, search tsvector GENERATED ALWAYS AS (setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', content), 'B')) STORED);
CREATE INDEX d_idx ON d USING gin (search);
`);
await db.query(
  `insert into t values (gen_random_uuid(), '00000000-0000-0000-0000-000000000001', '2030-01-01T10:00Z', '2030-01-01T11:00Z', 'scheduled')`,
);
try {
  await db.query(
    `insert into t values (gen_random_uuid(), '00000000-0000-0000-0000-000000000001', '2030-01-01T10:30Z', '2030-01-01T11:30Z', 'scheduled')`,
  );
} catch (e) {
  console.log('excl', e.code, e.message, e.constraint);
}
await db.query(`insert into d (title, content) values ('Opening hours', 'We are open Monday to Friday from 9am. Deliveries ship daily.')`);
console.log(
  (
    await db.query(
      `select ts_rank(search, q) r, ts_headline('english', content, q, 'StartSel=**, StopSel=**') h from d, websearch_to_tsquery('english', 'delivery "monday to friday"') q where search @@ q`,
    )
  ).rows,
);
console.log((await db.query(`select pg_get_constraintdef(oid) from pg_constraint where contype='x'`)).rows);
console.log(
  (
    await db.query(
      `select a.attname, a.attgenerated, pg_get_expr(d.adbin, d.adrelid) from pg_attribute a join pg_attrdef d on d.adrelid=a.attrelid and d.adnum=a.attnum where a.attrelid='d'::regclass`,
    )
  ).rows,
);
console.log((await db.query(`select indexdef from pg_indexes where tablename in ('t','d')`)).rows);
