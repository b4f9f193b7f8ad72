-- The webhook fan-out (workers/webhooks/queue.ts) takes the oldest events not yet dispatched. With the index on
-- (dispatched_at, id) the planner, misled by statistics that had not yet seen how few events wait, walked the
-- primary key and skipped every dispatched event: 20 ms at 22,000 events, growing with the event feed. A partial
-- index holds only the events waiting (none, or a batch), so taking them stays a read of a few entries.
DROP INDEX "events_dispatched_at_id_idx";
CREATE INDEX "events_undispatched_idx" ON "events" ("id") WHERE "dispatched_at" IS NULL;
