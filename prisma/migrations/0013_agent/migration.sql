-- The AI agent: its settings per workspace, and its runs. A run is both the durable job (written in the
-- transaction that stores the inbound message; claimed by workers/agent with a lease) and the record of what
-- the agent did (passages, tool calls, reply or hand-off, tokens, latency). One run per inbound message.
CREATE TABLE "agent_settings" (
    "company_id" UUID NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'knowledge',
    "llm_base_url" TEXT,
    "llm_model" TEXT,
    "llm_api_key" TEXT,
    "system_prompt" TEXT,
    "temperature" DOUBLE PRECISION,
    "max_tokens" INTEGER,
    "greeting" TEXT,
    "knowledge_threshold" DOUBLE PRECISION NOT NULL DEFAULT 0.5,
    "handoff_keywords" TEXT[] DEFAULT ARRAY['human', 'agent', 'person']::TEXT[],
    "max_consecutive_replies" INTEGER NOT NULL DEFAULT 5,
    "handoff_user_id" UUID,
    "last_handoff_user_id" UUID,
    "tool_scopes" TEXT[] DEFAULT ARRAY['scheduling', 'customers', 'tags']::TEXT[],
    "daily_model_calls" INTEGER NOT NULL DEFAULT 500,
    "daily_tokens" INTEGER NOT NULL DEFAULT 200000,
    "call_timeout_ms" INTEGER NOT NULL DEFAULT 20000,
    "max_tool_calls" INTEGER NOT NULL DEFAULT 4,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "agent_settings_pkey" PRIMARY KEY ("company_id")
);

CREATE TABLE "agent_runs" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "conversation_id" UUID NOT NULL,
    "message_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "kind" TEXT,
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMPTZ(3),
    "passages" JSONB,
    "tool_calls" JSONB,
    "reply" TEXT,
    "reply_message_id" UUID,
    "handoff_reason" TEXT,
    "error" TEXT,
    "model_calls" INTEGER NOT NULL DEFAULT 0,
    "prompt_tokens" INTEGER NOT NULL DEFAULT 0,
    "completion_tokens" INTEGER NOT NULL DEFAULT 0,
    "latency_ms" INTEGER,
    "finished_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "agent_runs_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "agent_runs_message_id_key" ON "agent_runs"("message_id");
CREATE INDEX "agent_runs_conversation_id_id_idx" ON "agent_runs"("conversation_id", "id");
CREATE INDEX "agent_runs_status_next_attempt_at_idx" ON "agent_runs"("status", "next_attempt_at");
CREATE INDEX "agent_runs_company_id_created_at_idx" ON "agent_runs"("company_id", "created_at");

ALTER TABLE "agent_settings" ADD CONSTRAINT "agent_settings_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "agent_settings" ADD CONSTRAINT "agent_settings_handoff_user_id_fkey" FOREIGN KEY ("handoff_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "agent_runs" ADD CONSTRAINT "agent_runs_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "agent_runs" ADD CONSTRAINT "agent_runs_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "agent_runs" ADD CONSTRAINT "agent_runs_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE UNIQUE INDEX "agent_runs_reply_message_id_key" ON "agent_runs"("reply_message_id");
ALTER TABLE "agent_runs" ADD CONSTRAINT "agent_runs_reply_message_id_fkey" FOREIGN KEY ("reply_message_id") REFERENCES "messages"("id") ON DELETE SET NULL ON UPDATE CASCADE;
