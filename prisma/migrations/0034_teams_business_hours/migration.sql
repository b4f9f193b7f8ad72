-- Business hours, teams and availability (issue 37, point 2) and what the automations need of them: the
-- workspace's weekly hours and holidays (read in its time_zone; null = open around the clock), teams of people
-- with a capacity, each person's availability, the conversations waiting for a free slot of a team's round robin
-- (one row per conversation, taken under a row lock so two workers assign it once), a conversation's snooze, and
-- a rule's "once per conversation per N hours" with the last time it acted on each conversation.
ALTER TABLE "workspaces" ADD COLUMN "business_hours" JSONB;

ALTER TABLE "users" ADD COLUMN "availability" TEXT NOT NULL DEFAULT 'online';
ALTER TABLE "users" ADD COLUMN "availability_changed_at" TIMESTAMPTZ(3);

ALTER TABLE "conversations" ADD COLUMN "snoozed_until" TIMESTAMPTZ(3);
CREATE INDEX "conversations_snoozed_until_idx" ON "conversations"("snoozed_until");

ALTER TABLE "automation_rules" ADD COLUMN "once_per_conversation_hours" INTEGER;

CREATE TABLE "teams" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "capacity" INTEGER NOT NULL DEFAULT 10,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "teams_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "teams_company_id_name_key" ON "teams"("company_id", "name");
ALTER TABLE "teams" ADD CONSTRAINT "teams_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "team_members" (
    "team_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "last_assigned_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "team_members_pkey" PRIMARY KEY ("team_id", "user_id")
);
CREATE INDEX "team_members_user_id_idx" ON "team_members"("user_id");
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "assignment_waits" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "conversation_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "capacity" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "assignment_waits_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "assignment_waits_conversation_id_key" ON "assignment_waits"("conversation_id");
CREATE INDEX "assignment_waits_team_id_id_idx" ON "assignment_waits"("team_id", "id");
ALTER TABLE "assignment_waits" ADD CONSTRAINT "assignment_waits_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "assignment_waits" ADD CONSTRAINT "assignment_waits_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "assignment_waits" ADD CONSTRAINT "assignment_waits_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "automation_throttles" (
    "rule_id" UUID NOT NULL,
    "conversation_id" UUID NOT NULL,
    "acted_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "automation_throttles_pkey" PRIMARY KEY ("rule_id", "conversation_id")
);
ALTER TABLE "automation_throttles" ADD CONSTRAINT "automation_throttles_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "automation_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "automation_throttles" ADD CONSTRAINT "automation_throttles_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
