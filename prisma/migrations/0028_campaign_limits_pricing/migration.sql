-- Campaigns within the number's limits, and what messages cost (issue 36, points 4 and 5).
-- An integration (a business phone number) has a throughput in messages per second (Meta's default 80) and a
-- messaging-limit tier (unique recipients per rolling 24 h; null while neither the provider nor a person told it);
-- send_slot_at is the number's shared pacing clock (resolvers/campaigns/numberLimits.ts), so every runner in
-- every process keeps the number's throughput. A campaign that meets a limit says which in waiting_reason.
-- A message keeps the `pricing` object of the provider's status reports.
ALTER TABLE "integrations" ADD COLUMN "throughput_per_second" INTEGER NOT NULL DEFAULT 80;
ALTER TABLE "integrations" ADD COLUMN "messaging_limit_tier" TEXT;
ALTER TABLE "integrations" ADD COLUMN "send_slot_at" TIMESTAMPTZ(3);
ALTER TABLE "campaigns" ADD COLUMN "waiting_reason" TEXT;
ALTER TABLE "messages" ADD COLUMN "pricing" JSONB;
-- The rolling 24-hour window of a workspace's campaign sends (unique recipients, the pair rate).
CREATE INDEX "campaign_recipients_company_id_claimed_at_idx" ON "campaign_recipients"("company_id", "claimed_at");
