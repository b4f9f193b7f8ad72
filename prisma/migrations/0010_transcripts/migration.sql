-- Transcripts (issue 14): the message record read by every surface (MessageDetail). Existing rows are filled
-- as far as what was stored allows; docs/api-decisions.md ("Message record") says what each column means.
ALTER TABLE "messages" RENAME COLUMN "error_message" TO "error_title";
ALTER TABLE "messages"
    ADD COLUMN "type" TEXT NOT NULL DEFAULT 'text',
    ADD COLUMN "media" JSONB,
    ADD COLUMN "sender_type" TEXT,
    ADD COLUMN "sender_id" TEXT,
    ADD COLUMN "reply_to_message_id" UUID,
    ADD COLUMN "error_details" TEXT,
    ADD COLUMN "sent_at" TIMESTAMPTZ(3),
    ADD COLUMN "delivered_at" TIMESTAMPTZ(3),
    ADD COLUMN "read_at" TIMESTAMPTZ(3),
    ADD COLUMN "failed_at" TIMESTAMPTZ(3);

-- Template sends were recorded with their template's name.
UPDATE "messages" SET "type" = 'template' WHERE "template_name" IS NOT NULL;

-- Senders: an inbound message is its contact's; an outbound one is its campaign's when a campaign recipient
-- points at it, else it came through the API (which key is not known for rows written before this migration).
UPDATE "messages" m SET "sender_type" = 'contact', "sender_id" = c."customer_id"::text
FROM "conversations" c WHERE m."direction" = 'inbound' AND c."id" = m."conversation_id";
UPDATE "messages" m SET "sender_type" = 'campaign', "sender_id" = r."campaign_id"::text
FROM "campaign_recipients" r WHERE m."direction" = 'outbound' AND r."message_id" = m."id";
UPDATE "messages" SET "sender_type" = 'api_key' WHERE "direction" = 'outbound' AND "sender_type" IS NULL;

-- Status times: a campaign recipient stamped each step of its message; otherwise an inbound message was sent
-- at created_at (the provider's time), and an outbound one reached its current status at updated_at.
UPDATE "messages" m SET "sent_at" = r."sent_at", "delivered_at" = r."delivered_at", "read_at" = r."read_at", "failed_at" = r."failed_at"
FROM "campaign_recipients" r WHERE r."message_id" = m."id";
UPDATE "messages" SET "sent_at" = "created_at" WHERE "direction" = 'inbound';
UPDATE "messages" SET
    "sent_at" = COALESCE("sent_at", CASE WHEN "status" IN ('sent', 'delivered', 'read') THEN "updated_at" END),
    "delivered_at" = COALESCE("delivered_at", CASE WHEN "status" IN ('delivered', 'read') THEN "updated_at" END),
    "read_at" = COALESCE("read_at", CASE WHEN "status" = 'read' THEN "updated_at" END),
    "failed_at" = COALESCE("failed_at", CASE WHEN "status" = 'failed' THEN "updated_at" END)
WHERE "direction" = 'outbound';

ALTER TABLE "messages" ADD CONSTRAINT "messages_reply_to_message_id_fkey" FOREIGN KEY ("reply_to_message_id") REFERENCES "messages"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "messages_reply_to_message_id_idx" ON "messages"("reply_to_message_id");
-- messageSearch pages a workspace's messages newest first.
CREATE INDEX "messages_company_id_id_idx" ON "messages"("company_id", "id" DESC);
