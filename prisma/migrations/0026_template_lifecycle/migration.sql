-- Templates written here (issue 36): each template created through the API is kept with what was submitted to
-- the provider (its components as Meta's create request holds them) and what the provider decided since: status,
-- rejection reason, quality score, category and the history of status changes. A sandbox integration's review
-- is due at `review_due_at` and decided by the template review worker, so that a restart loses no decision.
CREATE TABLE "message_templates" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "integration_id" UUID NOT NULL,
    "provider_template_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "parameter_format" TEXT NOT NULL,
    "components" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "rejected_reason" TEXT,
    "quality_score" TEXT,
    "quality_updated_at" TIMESTAMPTZ(3),
    "status_history" JSONB NOT NULL,
    "review_due_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "message_templates_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "message_templates_integration_id_name_language_key" ON "message_templates"("integration_id", "name", "language");
CREATE UNIQUE INDEX "message_templates_integration_id_provider_template_id_key" ON "message_templates"("integration_id", "provider_template_id");
CREATE INDEX "message_templates_company_id_idx" ON "message_templates"("company_id");
CREATE INDEX "message_templates_review_due_at_idx" ON "message_templates"("review_due_at");
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "integrations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
