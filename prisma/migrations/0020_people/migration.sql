-- People sign in to the console: password hashes on users, server-side sessions, one-time invitation and
-- setup links (stored as SHA-256 only), and each person's read position per conversation (unread counts).
ALTER TABLE "users" ADD COLUMN "password_hash" TEXT;
ALTER TABLE "users" ADD COLUMN "password_changed_at" TIMESTAMPTZ(3);

-- Roles are owner, admin or member. The first user of each workspace (the one `workspace create` made) owns it.
UPDATE "users" SET "role" = 'member' WHERE "role" IS NULL OR "role" NOT IN ('owner', 'admin', 'member');
UPDATE "users" AS u SET "role" = 'owner'
FROM (SELECT DISTINCT ON ("company_id") "id" FROM "users" ORDER BY "company_id", "created_at", "id") AS first_user
WHERE u."id" = first_user."id"
  AND NOT EXISTS (SELECT 1 FROM "users" AS o WHERE o."company_id" = u."company_id" AND o."role" = 'owner');
ALTER TABLE "users" ALTER COLUMN "role" SET DEFAULT 'member';
ALTER TABLE "users" ALTER COLUMN "role" SET NOT NULL;

-- Keys made without a user (the CLI's) belong to the workspace's owner, whose role bounds their scopes.
UPDATE "api_keys" AS k SET "user_id" = (
  SELECT o."id" FROM "users" AS o WHERE o."company_id" = k."company_id" AND o."role" = 'owner' ORDER BY o."created_at", o."id" LIMIT 1
) WHERE k."user_id" IS NULL;

CREATE TABLE "user_sessions" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "csrf_token" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "user_sessions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "user_sessions_token_hash_key" ON "user_sessions"("token_hash");
CREATE INDEX "user_sessions_user_id_idx" ON "user_sessions"("user_id");

CREATE TABLE "invitations" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by_user_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");
CREATE INDEX "invitations_company_id_idx" ON "invitations"("company_id");

CREATE TABLE "setup_tokens" (
    "id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "used_at" TIMESTAMPTZ(3),
    CONSTRAINT "setup_tokens_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "setup_tokens_token_hash_key" ON "setup_tokens"("token_hash");

CREATE TABLE "conversation_reads" (
    "conversation_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "last_read_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "conversation_reads_pkey" PRIMARY KEY ("conversation_id", "user_id")
);
CREATE INDEX "conversation_reads_user_id_idx" ON "conversation_reads"("user_id");

ALTER TABLE "user_sessions" ADD CONSTRAINT "user_sessions_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "user_sessions" ADD CONSTRAINT "user_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_user_id_fkey" FOREIGN KEY ("invited_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "conversation_reads" ADD CONSTRAINT "conversation_reads_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "conversation_reads" ADD CONSTRAINT "conversation_reads_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
