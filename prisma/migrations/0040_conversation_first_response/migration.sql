-- Reports (issue 38): a conversation's first response kept on the conversation, so that reports read one row per
-- conversation instead of searching its messages. first_inbound_at is its first inbound message ever;
-- first_response_at, first_responder_type and first_responder_id are the first outbound message after it that is
-- not a campaign's (null while unanswered). A trigger keeps them as messages are written, by any path (ingestion,
-- sends, the AI agent, automations, imports), once per statement over the rows it inserted, so a bulk insert costs
-- two set-based updates. Messages are never moved between conversations nor edited in time, so inserts are the
-- only writes that change them; a message removed later (retention) leaves the fact in place.
ALTER TABLE "conversations"
  ADD COLUMN "first_inbound_at" TIMESTAMPTZ(3),
  ADD COLUMN "first_response_at" TIMESTAMPTZ(3),
  ADD COLUMN "first_responder_type" TEXT,
  ADD COLUMN "first_responder_id" TEXT;

CREATE FUNCTION "conversations_first_response"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- An inbound message older than the conversation's first (a late delivery, an import) becomes its first.
  UPDATE "conversations" c SET "first_inbound_at" = i.first_at
  FROM (SELECT "conversation_id", min("created_at") AS first_at FROM inserted
        WHERE "direction" = 'inbound' GROUP BY "conversation_id") i
  WHERE c."id" = i."conversation_id" AND (c."first_inbound_at" IS NULL OR c."first_inbound_at" > i.first_at);
  -- The first response is looked up again only where an inserted message can change it: the conversation was
  -- unanswered, or the message is older than its first response (a new first inbound, a reply written back in time).
  UPDATE "conversations" c SET ("first_response_at", "first_responder_type", "first_responder_id") = (
      SELECT o."created_at", o."sender_type", o."sender_id" FROM "messages" o
      WHERE o."conversation_id" = c."id" AND o."direction" = 'outbound' AND o."created_at" > c."first_inbound_at"
        AND o."sender_type" IS DISTINCT FROM 'campaign'
      ORDER BY o."created_at" LIMIT 1)
  FROM (SELECT "conversation_id", min("created_at") AS oldest FROM inserted
        WHERE "direction" = 'inbound' OR "sender_type" IS DISTINCT FROM 'campaign' GROUP BY "conversation_id") i
  WHERE c."id" = i."conversation_id" AND c."first_inbound_at" IS NOT NULL
    AND (c."first_response_at" IS NULL OR i.oldest < c."first_response_at");
  RETURN NULL;
END;
$$;
CREATE TRIGGER "conversations_first_response" AFTER INSERT ON "messages"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "conversations_first_response"();

-- The conversations written so far, from their messages.
UPDATE "conversations" c SET "first_inbound_at" = f.first_at
FROM (SELECT "conversation_id", min("created_at") AS first_at FROM "messages" WHERE "direction" = 'inbound'
      GROUP BY "conversation_id") f
WHERE c."id" = f."conversation_id";
UPDATE "conversations" c SET "first_response_at" = r."created_at", "first_responder_type" = r."sender_type",
                             "first_responder_id" = r."sender_id"
FROM (SELECT DISTINCT ON (o."conversation_id") o."conversation_id", o."created_at", o."sender_type", o."sender_id"
      FROM "messages" o JOIN "conversations" f ON f."id" = o."conversation_id"
      WHERE o."direction" = 'outbound' AND o."created_at" > f."first_inbound_at" AND o."sender_type" IS DISTINCT FROM 'campaign'
      ORDER BY o."conversation_id", o."created_at") r
WHERE c."id" = r."conversation_id";

CREATE INDEX "conversations_company_id_first_inbound_at_idx" ON "conversations"("company_id", "first_inbound_at");
