// The MCP sessions of every instance, in the database, so that a load balancer needs no sticky routing: any
// instance answers a Streamable HTTP session's requests, and a message POSTed for an HTTP+SSE session reaches the
// instance holding its stream through a queue table and NOTIFY (delivered at commit; on the embedded database,
// in process). A Streamable HTTP session's GET stream and resource subscriptions are columns of its row: any
// instance records a subscription, and the one holding the stream hears of it (NOTIFY on CHANGES_CHANNEL). Each
// instance names itself with a random id at start.
import { v7 as uuidv7 } from 'uuid';
import type { SqlConnection } from '../db/sql.js';
import type { Listen } from '../db/notifications.js';
import type { Actor } from '../auth/actor.js';

export type SessionKind = 'streamable' | 'sse';

export type StoredSession = { id: string; kind: SessionKind; instanceId: string; lastSeen: Date };

/** A message for an SSE session held by another instance, with who sent it as the receiving instance knew them. */
export type ForwardedMessage = {
  sessionId: string;
  message: unknown;
  actor: Actor;
  requestId: string;
  idempotencyKey: string | null;
};

export const FORWARD_CHANNEL = 'mcp_session_messages';
/** Told a session's id when its GET stream or subscriptions changed or it ended, so the instance holding its stream acts. */
export const CHANGES_CHANNEL = 'mcp_session_changes';
/** How often an instance confirms that it still holds its SSE streams; a row not confirmed for three
 * periods belongs to an instance that is gone. */
export const STREAM_HEARTBEAT_MS = 15_000;

/** What the instance holding a Streamable HTTP session's GET stream serves: which stream, and what it follows. */
export type StreamState = { streamId: string | null; subscriptions: string[] };

/** A Streamable HTTP session is alive while used within the idle time (`idleParam`, in ms), or while its GET stream is
 * confirmed (the heartbeat). */
const streamableAlive = (idleParam: string) => `(last_seen_at > now() - make_interval(secs => ${idleParam} / 1000.0)
  OR (stream_id IS NOT NULL AND last_seen_at > now() - make_interval(secs => ${(STREAM_HEARTBEAT_MS * 3) / 1000})))`;
/** Tells the instances about the sessions a statement returned (`changed`). */
const ANNOUNCE = `SELECT pg_notify('${CHANGES_CHANNEL}', id::text) FROM changed`;

type SessionRow = { id: string; kind: SessionKind; instance_id: string; last_seen_at: Date };
type MessageRow = {
  session_id: string;
  message: unknown;
  actor: Omit<Actor, 'scopes'> & { scopes: string[] };
  request_id: string;
  idempotency_key: string | null;
};

const toSession = (row: SessionRow): StoredSession => ({
  id: row.id,
  kind: row.kind,
  instanceId: row.instance_id,
  lastSeen: new Date(row.last_seen_at),
});

export type SessionStore = ReturnType<typeof createSessionStore>;

export function createSessionStore(sql: SqlConnection, listen: Listen, instanceId: string) {
  return {
    instanceId,

    async open(session: { id: string; keyId: string; kind: SessionKind }): Promise<void> {
      await sql.query('INSERT INTO mcp_sessions (id, key_id, kind, instance_id) VALUES ($1, $2, $3, $4)', [
        session.id,
        session.keyId,
        session.kind,
        instanceId,
      ]);
    },

    /** The key's session of that kind, marked as seen now; null when it does not exist, belongs to another key
     * or (Streamable HTTP) was idle longer than `idleMs` without a GET stream. */
    async touch(id: string, keyId: string, kind: SessionKind, idleMs: number): Promise<StoredSession | null> {
      const rows = await sql.query<SessionRow>(
        `UPDATE mcp_sessions SET last_seen_at = now()
         WHERE id = $1 AND key_id = $2 AND kind = $3 AND (kind = 'sse' OR ${streamableAlive('$4')})
         RETURNING id, kind, instance_id, last_seen_at`,
        [id, keyId, kind, idleMs],
      );
      return rows[0] ? toSession(rows[0]) : null;
    },

    /** The key's sessions, least recently used first. */
    async ofKey(keyId: string): Promise<StoredSession[]> {
      const rows = await sql.query<SessionRow>(
        'SELECT id, kind, instance_id, last_seen_at FROM mcp_sessions WHERE key_id = $1 ORDER BY last_seen_at, id',
        [keyId],
      );
      return rows.map(toSession);
    },

    async remove(ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await sql.query(`WITH changed AS (DELETE FROM mcp_sessions WHERE id = ANY($1::uuid[]) RETURNING id) ${ANNOUNCE}`, [ids]);
    },

    /** Which of these ids still have a session row. */
    async existing(ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await sql.query<{ id: string }>('SELECT id FROM mcp_sessions WHERE id = ANY($1::uuid[])', [ids]);
      return new Set(rows.map((row) => row.id));
    },

    /** Sessions opened through this instance (its SSE streams, and the Streamable HTTP sessions it started). */
    async countOwn(): Promise<number> {
      const [row] = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM mcp_sessions WHERE instance_id = $1', [instanceId]);
      return row?.n ?? 0;
    },

    /** Confirms this instance's SSE streams (the heartbeat other instances judge them by). */
    async confirmStreams(ids: readonly string[]): Promise<void> {
      if (ids.length > 0) await sql.query('UPDATE mcp_sessions SET last_seen_at = now() WHERE id = ANY($1::uuid[])', [ids]);
    },

    /** Removes Streamable HTTP sessions no longer alive, SSE sessions of instances that stopped confirming them,
     * and every session of a revoked key or OAuth grant (or of a grant whose person is no longer active). */
    async sweep(idleMs: number): Promise<void> {
      await sql.query(
        `WITH changed AS (
           DELETE FROM mcp_sessions s
           WHERE (s.kind = 'streamable' AND NOT ${streamableAlive('$1')})
              OR (s.kind = 'sse' AND s.last_seen_at < now() - make_interval(secs => $2 / 1000.0))
              OR EXISTS (SELECT 1 FROM api_keys k WHERE k.id = s.key_id AND k.revoked_at IS NOT NULL)
              OR EXISTS (SELECT 1 FROM oauth_grants g JOIN users u ON u.id = g.user_id
                         WHERE g.id = s.key_id AND (g.revoked_at IS NOT NULL OR u.status <> 'active'))
           RETURNING id)
         ${ANNOUNCE}`,
        [idleMs, STREAM_HEARTBEAT_MS * 3],
      );
    },

    /** Makes `streamId` the Streamable HTTP session's GET stream (a newer stream takes over from an older one). */
    async claimStream(id: string, streamId: string): Promise<void> {
      await sql.query(
        `WITH changed AS (UPDATE mcp_sessions SET stream_id = $2, last_seen_at = now() WHERE id = $1 RETURNING id) ${ANNOUNCE}`,
        [id, streamId],
      );
    },

    /** Forgets the session's GET stream once it closed, unless a newer one took over. */
    async releaseStream(id: string, streamId: string): Promise<void> {
      await sql.query('UPDATE mcp_sessions SET stream_id = NULL WHERE id = $1 AND stream_id = $2', [id, streamId]);
    },

    async streamState(id: string): Promise<StreamState | null> {
      const rows = await sql.query<{ stream_id: string | null; subscriptions: string[] }>(
        'SELECT stream_id, subscriptions FROM mcp_sessions WHERE id = $1',
        [id],
      );
      return rows[0] ? { streamId: rows[0].stream_id, subscriptions: rows[0].subscriptions } : null;
    },

    /** Adds a resource to the session's subscriptions; false when it already holds `max` others. */
    async subscribe(id: string, uri: string, max: number): Promise<boolean> {
      const rows = await sql.query(
        `WITH changed AS (
           UPDATE mcp_sessions
           SET subscriptions = CASE WHEN $2 = ANY(subscriptions) THEN subscriptions ELSE array_append(subscriptions, $2) END
           WHERE id = $1 AND ($2 = ANY(subscriptions) OR cardinality(subscriptions) < $3) RETURNING id)
         ${ANNOUNCE}`,
        [id, uri, max],
      );
      return rows.length > 0;
    },

    async unsubscribe(id: string, uri: string): Promise<void> {
      await sql.query(
        `WITH changed AS (UPDATE mcp_sessions SET subscriptions = array_remove(subscriptions, $2) WHERE id = $1 RETURNING id) ${ANNOUNCE}`,
        [id, uri],
      );
    },

    /** Hands `changed` the id of each session whose stream or subscriptions changed (null: some may have been missed). */
    watchChanges(changed: (sessionId: string | null) => void): Promise<() => Promise<void>> {
      return listen(CHANGES_CHANNEL, (payload) => changed(payload || null));
    },

    /** Queues a message for the instance holding an SSE session's stream and wakes it. */
    async forward(holder: string, forwarded: ForwardedMessage): Promise<void> {
      await sql.query(
        `WITH queued AS (
           INSERT INTO mcp_session_messages (id, session_id, instance_id, message, actor, request_id, idempotency_key)
           VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7) RETURNING instance_id)
         SELECT pg_notify('${FORWARD_CHANNEL}', instance_id) FROM queued`,
        [
          uuidv7(),
          forwarded.sessionId,
          holder,
          JSON.stringify(forwarded.message),
          JSON.stringify({ ...forwarded.actor, scopes: [...forwarded.actor.scopes] }),
          forwarded.requestId,
          forwarded.idempotencyKey,
        ],
      );
    },

    /** Hands each message queued for this instance to `deliver`, in the order queued; resolves to a stop function. */
    async receive(deliver: (message: ForwardedMessage) => void, onError: (error: unknown) => void): Promise<() => Promise<void>> {
      let draining: Promise<void> = Promise.resolve();
      const drain = async () => {
        const rows = await sql.query<MessageRow & { id: string }>(
          `DELETE FROM mcp_session_messages WHERE instance_id = $1
           RETURNING id, session_id, message, actor, request_id, idempotency_key`,
          [instanceId],
        );
        for (const row of rows.sort((a, b) => (a.id < b.id ? -1 : 1))) {
          deliver({
            sessionId: row.session_id,
            message: row.message,
            actor: { ...row.actor, scopes: new Set(row.actor.scopes) },
            requestId: row.request_id,
            idempotencyKey: row.idempotency_key,
          });
        }
      };
      // Notices arrive for every instance; a null one means some may have been missed.
      return listen(FORWARD_CHANNEL, (payload) => {
        if (payload === null || payload === instanceId) draining = draining.then(drain).catch(onError);
      });
    },
  };
}
