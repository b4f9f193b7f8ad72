-- A contact's consent history (issue 38, a contact's whole story): one row per change of its marketing consent,
-- written by the one write path (resolvers/contacts/consent.ts) in the change's transaction. Changes made before
-- this migration left only the latest one on the contact, which becomes its first row (previous status unknown).
CREATE TABLE "consent_changes" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "contact_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "previous_status" TEXT,
    "source" TEXT NOT NULL,
    "message_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "consent_changes_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "consent_changes_contact_id_created_at_id_idx" ON "consent_changes"("contact_id", "created_at" DESC, "id" DESC);
ALTER TABLE "consent_changes" ADD CONSTRAINT "consent_changes_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "consent_changes" ADD CONSTRAINT "consent_changes_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "consent_changes" ("id", "company_id", "contact_id", "status", "previous_status", "source", "created_at")
SELECT
    encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send(floor(extract(epoch FROM "marketing_consent_updated_at") * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid,
    "company_id", "id", "marketing_consent_status", NULL, COALESCE("marketing_consent_source", 'api'), "marketing_consent_updated_at"
FROM "customers" WHERE "marketing_consent_updated_at" IS NOT NULL;
