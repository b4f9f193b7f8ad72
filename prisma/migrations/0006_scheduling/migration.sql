-- Scheduling: the workspace's time zone, public id and calendar-feed token; appointment types; appointments.
CREATE EXTENSION IF NOT EXISTS btree_gist;

ALTER TABLE "workspaces" ADD COLUMN "time_zone" TEXT NOT NULL DEFAULT 'UTC';
ALTER TABLE "workspaces" ADD COLUMN "public_id" TEXT;
ALTER TABLE "workspaces" ADD COLUMN "calendar_feed_token_hash" TEXT;
ALTER TABLE "workspaces" ADD COLUMN "calendar_feed_rotated_at" TIMESTAMPTZ(3);
-- Existing workspaces get a random public id; new ones get one from the Prisma client (nanoid).
UPDATE "workspaces" SET "public_id" = substr(replace(gen_random_uuid()::text, '-', ''), 1, 21) WHERE "public_id" IS NULL;
ALTER TABLE "workspaces" ALTER COLUMN "public_id" SET NOT NULL;
CREATE UNIQUE INDEX "workspaces_public_id_key" ON "workspaces"("public_id");
CREATE UNIQUE INDEX "workspaces_calendar_feed_token_hash_key" ON "workspaces"("calendar_feed_token_hash");

CREATE TABLE "appointment_types" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "duration_minutes" INTEGER NOT NULL,
    "buffer_minutes" INTEGER NOT NULL DEFAULT 0,
    "availability" JSONB NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "appointment_types_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "appointment_types_company_id_name_idx" ON "appointment_types"("company_id", "name");

CREATE TABLE "appointments" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "appointment_type_id" UUID NOT NULL,
    "start_at" TIMESTAMPTZ(3) NOT NULL,
    "end_at" TIMESTAMPTZ(3) NOT NULL,
    "blocked_until" TIMESTAMPTZ(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'scheduled',
    "notes" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "appointments_pkey" PRIMARY KEY ("id"),
    -- Two scheduled appointments of one workspace never share a moment, the buffer after each included.
    -- Enforced by the database so that concurrent bookings cannot both win.
    CONSTRAINT "appointments_no_overlap" EXCLUDE USING gist ("company_id" WITH =, tstzrange("start_at", "blocked_until") WITH &&) WHERE ("status" = 'scheduled')
);
CREATE INDEX "appointments_company_id_start_at_idx" ON "appointments"("company_id", "start_at");
CREATE INDEX "appointments_customer_id_start_at_idx" ON "appointments"("customer_id", "start_at");
CREATE INDEX "appointments_appointment_type_id_idx" ON "appointments"("appointment_type_id");

ALTER TABLE "appointment_types" ADD CONSTRAINT "appointment_types_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_appointment_type_id_fkey" FOREIGN KEY ("appointment_type_id") REFERENCES "appointment_types"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
