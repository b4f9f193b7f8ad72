-- Contact channels: every identity of a contact (phone, wa_id, email) per provider. The primary one of
-- each type stays mirrored in customers.phone_number / wa_id / email. Existing contacts get their
-- identities as primary channels. Also the trigram index behind conversation search by message text.
CREATE TABLE "contact_channels" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "is_primary" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "contact_channels_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "contact_channels_company_id_type_provider_value_key" ON "contact_channels"("company_id", "type", "provider", "value");
CREATE INDEX "contact_channels_customer_id_type_id_idx" ON "contact_channels"("customer_id", "type", "id");
ALTER TABLE "contact_channels" ADD CONSTRAINT "contact_channels_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "contact_channels" ADD CONSTRAINT "contact_channels_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill. Email channels are stored lowercased, and the mirror equals the primary channel's value.
UPDATE "customers" SET "email" = lower("email") WHERE "email" <> lower("email");
-- Ids are UUIDv7 like every other id (a random v4 with the clock's milliseconds written over its
-- first 48 bits and the version nibble turned from 4 into 7). Phone numbers and wa_ids belong to the
-- provider of the workspace's first integration, or whatsapp when it has none, as new channels do.
INSERT INTO "contact_channels" ("id", "company_id", "customer_id", "type", "value", "provider", "is_primary", "updated_at")
SELECT
    encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid,
    c."company_id", c."id", identity."type", identity."value",
    CASE WHEN identity."type" = 'email' THEN 'email'
         ELSE COALESCE((SELECT i."provider" FROM "integrations" i WHERE i."company_id" = c."company_id" ORDER BY i."id" LIMIT 1), 'whatsapp') END,
    true, CURRENT_TIMESTAMP
FROM "customers" c
CROSS JOIN LATERAL (VALUES ('phone', c."phone_number"), ('wa_id', c."wa_id"), ('email', lower(c."email"))) AS identity("type", "value")
WHERE identity."value" IS NOT NULL
ON CONFLICT DO NOTHING;

CREATE INDEX "messages_body_trgm_idx" ON "messages" USING GIN ("body" gin_trgm_ops);
