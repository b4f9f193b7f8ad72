-- Reports (issue 38). Each close and reopen of a conversation is kept as a status change, so that reports can
-- count reopenings (closed_at only dates the latest closing). Indexes serve the report queries
-- (resolvers/reports/): a conversation's outbound replies after an inbound message in time order, conversations
-- opened in a range, campaign messages sent in a range, template messages in a range.
CREATE TABLE "conversation_status_changes" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "conversation_id" UUID NOT NULL,
    "from_status" TEXT NOT NULL,
    "to_status" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "conversation_status_changes_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "conversation_status_changes_company_id_created_at_idx" ON "conversation_status_changes"("company_id", "created_at");
CREATE INDEX "conversation_status_changes_conversation_id_idx" ON "conversation_status_changes"("conversation_id");
ALTER TABLE "conversation_status_changes" ADD CONSTRAINT "conversation_status_changes_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "conversation_status_changes" ADD CONSTRAINT "conversation_status_changes_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE INDEX "messages_conversation_id_direction_created_at_idx" ON "messages"("conversation_id", "direction", "created_at");
CREATE INDEX "conversations_company_id_created_at_idx" ON "conversations"("company_id", "created_at");
CREATE INDEX "campaign_recipients_company_id_sent_at_idx" ON "campaign_recipients"("company_id", "sent_at");
