-- Knowledge documents for the AI agent, with a full-text vector that the database keeps current.
CREATE TABLE "knowledge_documents" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "source_filename" TEXT,
    "source_content_type" TEXT,
    -- Title matches rank above content matches (weights A and B).
    "search" tsvector GENERATED ALWAYS AS (setweight(to_tsvector('english', "title"), 'A') || setweight(to_tsvector('english', "content"), 'B')) STORED,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "knowledge_documents_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "knowledge_documents_company_id_id_idx" ON "knowledge_documents"("company_id", "id" DESC);
CREATE INDEX "knowledge_documents_search_idx" ON "knowledge_documents" USING GIN ("search");

ALTER TABLE "knowledge_documents" ADD CONSTRAINT "knowledge_documents_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
