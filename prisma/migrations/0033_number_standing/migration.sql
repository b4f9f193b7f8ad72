-- The number's standing as the provider tells it (issue 36): its messaging-limit tier and throughput each keep
-- where their value came from (`provider`: Meta's phone_number_quality_update webhook or the phone number's Graph
-- API fields; `manual`: set by an owner or admin) and when; the latest to tell wins. The quality rating (GREEN,
-- YELLOW, RED, UNKNOWN) only ever comes from the provider.
ALTER TABLE "integrations" ADD COLUMN "messaging_limit_tier_source" TEXT;
ALTER TABLE "integrations" ADD COLUMN "messaging_limit_tier_updated_at" TIMESTAMPTZ(3);
ALTER TABLE "integrations" ADD COLUMN "throughput_source" TEXT;
ALTER TABLE "integrations" ADD COLUMN "throughput_updated_at" TIMESTAMPTZ(3);
ALTER TABLE "integrations" ADD COLUMN "quality_rating" TEXT;
ALTER TABLE "integrations" ADD COLUMN "quality_rating_updated_at" TIMESTAMPTZ(3);
