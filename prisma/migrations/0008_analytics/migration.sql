-- Analytics: when a conversation was closed (resolution time), and range scans of a workspace's messages.
-- The conversation close mutation sets "closed_at" when the status becomes closed and clears it on reopen.
ALTER TABLE "conversations" ADD COLUMN "closed_at" TIMESTAMPTZ(3);
-- Conversations closed before this column existed: their last change is the best estimate of the close.
UPDATE "conversations" SET "closed_at" = "updated_at" WHERE "status" = 'closed';
CREATE INDEX "conversations_company_id_closed_at_idx" ON "conversations"("company_id", "closed_at");
CREATE INDEX "messages_company_id_created_at_idx" ON "messages"("company_id", "created_at");
