-- The messaging-limit tier counts a number's unique recipients of the rolling 24 hours (resolvers/campaigns/
-- numberLimits.ts). Counted from the campaign claims at every claim, that read the whole window: at the 100K tier up
-- to 100,000 rows a claim. Here the window is kept as it goes: one row per contact with its last campaign send through
-- the number, removed once older than the window, and the number's count of them, both written under the number's
-- row lock in the claim's transaction. contact_id has no foreign key: a message sent to a contact deleted since still
-- counts against the number's tier until the window passes it.
CREATE TABLE "number_window_recipients" (
  "integration_id" UUID NOT NULL,
  "contact_id" UUID NOT NULL,
  "last_sent_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "number_window_recipients_pkey" PRIMARY KEY ("integration_id", "contact_id"),
  CONSTRAINT "number_window_recipients_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "integrations"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "number_window_recipients_integration_id_last_sent_at_idx" ON "number_window_recipients" ("integration_id", "last_sent_at");

ALTER TABLE "integrations" ADD COLUMN "window_recipient_count" INTEGER NOT NULL DEFAULT 0;

-- The window as the claims made so far give it.
INSERT INTO "number_window_recipients" ("integration_id", "contact_id", "last_sent_at")
SELECT c."integration_id", r."contact_id", max(r."claimed_at")
FROM "campaign_recipients" r JOIN "campaigns" c ON c."id" = r."campaign_id"
WHERE r."claimed_at" > CURRENT_TIMESTAMP - interval '24 hours' AND c."integration_id" IS NOT NULL
GROUP BY c."integration_id", r."contact_id";

UPDATE "integrations" i SET "window_recipient_count" = w."recipients"
FROM (SELECT "integration_id", count(*)::int AS "recipients" FROM "number_window_recipients" GROUP BY "integration_id") w
WHERE w."integration_id" = i."id";
