-- MCP sessions shared by every instance, so that no load balancer needs sticky routing. A Streamable HTTP
-- session is only this row: any instance answers its requests. An HTTP+SSE session's stream lives in one
-- instance (instance_id); a message POSTed to another instance is queued in mcp_session_messages and that
-- instance is woken with NOTIFY mcp_session_messages (delivered at commit) to take it.
CREATE TABLE "mcp_sessions" (
    "id" UUID NOT NULL,
    "key_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "instance_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "mcp_sessions_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "mcp_sessions_key_id_last_seen_at_idx" ON "mcp_sessions"("key_id", "last_seen_at");
CREATE INDEX "mcp_sessions_instance_id_idx" ON "mcp_sessions"("instance_id");

CREATE TABLE "mcp_session_messages" (
    "id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "instance_id" TEXT NOT NULL,
    "message" JSONB NOT NULL,
    "actor" JSONB NOT NULL,
    "request_id" TEXT NOT NULL,
    "idempotency_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "mcp_session_messages_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "mcp_session_messages_instance_id_id_idx" ON "mcp_session_messages"("instance_id", "id");

ALTER TABLE "mcp_session_messages" ADD CONSTRAINT "mcp_session_messages_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "mcp_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
