-- Reports (issue 38): the conversations report's figures kept per day of the workspace, so that a year is read
-- from 366 rows instead of counted again from every conversation and message of the year
-- (resolvers/reports/dailyFigures.ts). A day's row is computed from the same tables the report reads and is kept
-- until something it counts changes: every write that can change a day's figures marks the UTC hour it dates
-- (report_changes), by any path, in its own transaction; the next report recomputes the days those hours touch.
CREATE TABLE "report_days" (
  "company_id" UUID NOT NULL,
  -- The local date, in time_zone (the workspace's when computed; rows of another zone are not read).
  "day" DATE NOT NULL,
  "time_zone" TEXT NOT NULL,
  -- Counts and duration sketches (resolvers/reports/sketch.ts) of the day; null: changed, to compute again.
  "figures" JSONB,
  -- When the snapshot it was computed from was taken (microseconds): a later computation never yields to an older one.
  "computed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "report_days_pkey" PRIMARY KEY ("company_id", "day"),
  CONSTRAINT "report_days_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- One row per workspace, UTC hour and database connection (its backend pid): concurrent writers each bump their
-- own row, so marking never waits on another transaction. version tells a report that consumed a mark whether it
-- was marked again meanwhile (then the mark stays for the next report).
CREATE TABLE "report_changes" (
  "company_id" UUID NOT NULL,
  "hour" TIMESTAMPTZ(3) NOT NULL,
  "backend" INTEGER NOT NULL,
  "version" INTEGER NOT NULL DEFAULT 1,
  CONSTRAINT "report_changes_pkey" PRIMARY KEY ("company_id", "hour", "backend"),
  CONSTRAINT "report_changes_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Marks the hours of the instants in `changed` (company_id, at). A workspace being deleted marks nothing.
CREATE FUNCTION "report_changes_mark"(changed_company UUID[], changed_at TIMESTAMPTZ[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "report_changes" ("company_id", "hour", "backend")
  SELECT DISTINCT c.company_id, date_bin('1 hour', c.at, TIMESTAMPTZ '1970-01-01 00:00:00+00'), pg_backend_pid()
  FROM unnest(changed_company, changed_at) AS c(company_id, at)
  WHERE c.at IS NOT NULL AND EXISTS (SELECT 1 FROM "workspaces" w WHERE w."id" = c.company_id)
  ON CONFLICT ("company_id", "hour", "backend") DO UPDATE SET "version" = "report_changes"."version" + 1;
$$;

-- Messages (counted by created_at) and status changes (reopenings, by created_at): inserted or deleted rows.
CREATE FUNCTION "report_changes_created"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "report_changes_mark"(array_agg("company_id"), array_agg("created_at")) FROM changed;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "messages_inserted_report_changes" AFTER INSERT ON "messages"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "report_changes_created"();
CREATE TRIGGER "messages_deleted_report_changes" AFTER DELETE ON "messages"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "report_changes_created"();
CREATE TRIGGER "status_changes_inserted_report_changes" AFTER INSERT ON "conversation_status_changes"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "report_changes_created"();
CREATE TRIGGER "status_changes_deleted_report_changes" AFTER DELETE ON "conversation_status_changes"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "report_changes_created"();

-- Conversations count on three dates: opened (created_at), closed (closed_at), first response (first_inbound_at).
CREATE FUNCTION "report_changes_conversations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "report_changes_mark"(array_agg(c."company_id"), array_agg(d.at))
  FROM changed c CROSS JOIN LATERAL (VALUES (c."created_at"), (c."closed_at"), (c."first_inbound_at")) AS d(at);
  RETURN NULL;
END;
$$;
CREATE TRIGGER "conversations_inserted_report_changes" AFTER INSERT ON "conversations"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "report_changes_conversations"();
CREATE TRIGGER "conversations_deleted_report_changes" AFTER DELETE ON "conversations"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "report_changes_conversations"();

-- An update changes a day's figures only when a date it counts on, or the first response, changes; then both the
-- old and the new dates are marked. Row by row, so the many other updates of a conversation cost one comparison.
CREATE FUNCTION "report_changes_conversation_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "report_changes_mark"(
    ARRAY[OLD."company_id", OLD."company_id", OLD."company_id", NEW."company_id", NEW."company_id", NEW."company_id"],
    ARRAY[OLD."created_at", OLD."closed_at", OLD."first_inbound_at", NEW."created_at", NEW."closed_at", NEW."first_inbound_at"]);
  RETURN NULL;
END;
$$;
CREATE TRIGGER "conversations_updated_report_changes" AFTER UPDATE ON "conversations" FOR EACH ROW
  WHEN (OLD."created_at" IS DISTINCT FROM NEW."created_at" OR OLD."closed_at" IS DISTINCT FROM NEW."closed_at"
        OR OLD."first_inbound_at" IS DISTINCT FROM NEW."first_inbound_at"
        OR OLD."first_response_at" IS DISTINCT FROM NEW."first_response_at"
        OR OLD."first_responder_id" IS DISTINCT FROM NEW."first_responder_id")
  EXECUTE FUNCTION "report_changes_conversation_updated"();

-- Business hours (business seconds) and the time zone (what a day is) change every kept day of the workspace.
CREATE FUNCTION "report_days_forget"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "report_days" WHERE "company_id" = NEW."id";
  RETURN NULL;
END;
$$;
CREATE TRIGGER "workspaces_report_days_forget" AFTER UPDATE ON "workspaces" FOR EACH ROW
  WHEN (OLD."business_hours" IS DISTINCT FROM NEW."business_hours" OR OLD."time_zone" IS DISTINCT FROM NEW."time_zone")
  EXECUTE FUNCTION "report_days_forget"();
