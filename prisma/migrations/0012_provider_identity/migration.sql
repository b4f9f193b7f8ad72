-- Real WhatsApp traffic (issue 15). Contacts get two more mirrored identities, the business-scoped user id
-- (BSUID) and the username, whose channels hold every value; parts of provider callbacks that can never be
-- stored are kept as inbound failures (dead letters).
ALTER TABLE "customers" ADD COLUMN "bsuid" TEXT, ADD COLUMN "username" TEXT;

CREATE TABLE "inbound_failures" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "integration_id" UUID,
    "phone_number_id" TEXT,
    "kind" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "inbound_failures_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "inbound_failures_company_id_fingerprint_key" ON "inbound_failures"("company_id", "fingerprint");
CREATE INDEX "inbound_failures_company_id_id_idx" ON "inbound_failures"("company_id", "id" DESC);
ALTER TABLE "inbound_failures" ADD CONSTRAINT "inbound_failures_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "inbound_failures" ADD CONSTRAINT "inbound_failures_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "integrations"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Earlier versions stored a BSUID sent in place of a phone number (country code, a dot, the id: US.1349…)
-- as the wa_id. It is the contact's BSUID: its wa_id channels become bsuid channels and the mirrors follow.
UPDATE "contact_channels" SET "type" = 'bsuid'
WHERE "type" = 'wa_id' AND "value" ~ '^[A-Z]{2}\.'
  AND NOT EXISTS (
    SELECT 1 FROM "contact_channels" o
    WHERE o."company_id" = "contact_channels"."company_id" AND o."type" = 'bsuid'
      AND o."provider" = "contact_channels"."provider" AND o."value" = "contact_channels"."value"
  );
UPDATE "customers" SET "bsuid" = "wa_id", "wa_id" = NULL WHERE "wa_id" ~ '^[A-Z]{2}\.';

-- Every contact gets its mirrored identities as primary channels where it has no channel of that type yet
-- (contacts written before every path went through the channels writer), like migration 0004 did.
INSERT INTO "contact_channels" ("id", "company_id", "customer_id", "type", "value", "provider", "is_primary", "updated_at")
SELECT
    encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid,
    c."company_id", c."id", identity."type", identity."value",
    CASE WHEN identity."type" = 'email' THEN 'email'
         ELSE COALESCE((SELECT i."provider" FROM "integrations" i WHERE i."company_id" = c."company_id" ORDER BY i."id" LIMIT 1), 'whatsapp') END,
    true, CURRENT_TIMESTAMP
FROM "customers" c
CROSS JOIN LATERAL (VALUES ('phone', c."phone_number"), ('wa_id', c."wa_id"), ('bsuid', c."bsuid"), ('email', lower(c."email"))) AS identity("type", "value")
WHERE identity."value" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "contact_channels" h WHERE h."customer_id" = c."id" AND h."type" = identity."type")
ON CONFLICT DO NOTHING;
