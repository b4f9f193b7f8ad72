-- The event feed and live updates (issue 14). tx_id is the id of the transaction that recorded the event: the
-- feed reads events in (tx_id, id) order and only those whose transaction id is below the oldest transaction
-- still running, so an event committed late by a long transaction can never appear behind a reader's cursor
-- (resolvers/events/feed.ts). The trigger notifies listeners at commit, only of committed events.
ALTER TABLE "events" ADD COLUMN "tx_id" BIGINT NOT NULL DEFAULT ((pg_current_xact_id())::text)::bigint;
CREATE INDEX "events_company_id_tx_id_id_idx" ON "events"("company_id", "tx_id", "id");
CREATE INDEX "events_created_at_idx" ON "events"("created_at");

CREATE FUNCTION "events_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('crm_events', NEW.company_id::text);
  RETURN NULL;
END;
$$;
CREATE TRIGGER "events_notify" AFTER INSERT ON "events" FOR EACH ROW EXECUTE FUNCTION "events_notify"();
