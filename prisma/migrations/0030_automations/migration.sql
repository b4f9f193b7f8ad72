-- Automations (issue 37): rules a workspace writes as data ({trigger, conditions, actions}) and the record of
-- each run. A run is claimed by its unique (rule_id, event_id) row inside the run's own transaction, so a rule
-- runs at most once per event across crashes and instances (workers/automations/). Events carry the chain of
-- rules whose actions caused them (automation_chain, filled from the transaction's crm.automation_chain
-- setting, which the run sets), so a rule never answers its own actions and a chain stops at depth 3; and
-- when the automations worker has run the rules on them (automations_done_at; events already recorded are done),
-- under a lease (automations_lease_until) that another worker takes over when the claiming one died.
CREATE TABLE "automation_rules" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "trigger" JSONB NOT NULL,
    "trigger_event" TEXT NOT NULL,
    "conditions" JSONB NOT NULL,
    "actions" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "automation_rules_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "automation_rules_company_id_id_idx" ON "automation_rules"("company_id", "id" DESC);
ALTER TABLE "automation_rules" ADD CONSTRAINT "automation_rules_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "automation_runs" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "event_id" TEXT NOT NULL,
    "conversation_id" UUID,
    "matched" BOOLEAN NOT NULL,
    "actions" JSONB NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    CONSTRAINT "automation_runs_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "automation_runs_rule_id_event_id_key" ON "automation_runs"("rule_id", "event_id");
CREATE INDEX "automation_runs_rule_id_id_idx" ON "automation_runs"("rule_id", "id" DESC);
CREATE INDEX "automation_runs_rule_id_conversation_id_started_at_idx" ON "automation_runs"("rule_id", "conversation_id", "started_at" DESC);
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "automation_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "events" ADD COLUMN "automation_chain" TEXT DEFAULT NULLIF(current_setting('crm.automation_chain', true), '');
ALTER TABLE "events" ADD COLUMN "automations_done_at" TIMESTAMPTZ(3);
ALTER TABLE "events" ADD COLUMN "automations_lease_until" TIMESTAMPTZ(3);
UPDATE "events" SET "automations_done_at" = CURRENT_TIMESTAMP;
CREATE INDEX "events_automations_pending_idx" ON "events" ("id") WHERE "automations_done_at" IS NULL;
