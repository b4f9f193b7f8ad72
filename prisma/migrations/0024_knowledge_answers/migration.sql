-- Answers, not passages (issue 40). Knowledge documents and FAQs are split into sentences when written
-- (resolvers/knowledge/sentences.ts); each sentence keeps its search terms, stemmed in its language's text search
-- configuration and folded with unaccent (both ways: stem then unaccent, unaccent then stem, plus 5-letter stem
-- prefixes), and its folded text for trigram similarity. Documents and FAQs carry a language; the workspace's
-- agent settings a default one; each agent run the sentence or FAQ it answered with and why it did what it did.
CREATE EXTENSION IF NOT EXISTS unaccent;

ALTER TABLE "knowledge_documents" ADD COLUMN "language" TEXT NOT NULL DEFAULT 'en';
ALTER TABLE "agent_settings" ADD COLUMN "default_language" TEXT NOT NULL DEFAULT 'en';
-- Answer scores (resolvers/agent/retrieval.ts) replace passage ranks; 0.57 is where the evaluation set meets its targets.
ALTER TABLE "agent_settings" ALTER COLUMN "knowledge_threshold" SET DEFAULT 0.57;
ALTER TABLE "agent_runs" ADD COLUMN "answer_source" JSONB;
ALTER TABLE "agent_runs" ADD COLUMN "explanation" TEXT;

CREATE TABLE "knowledge_faqs" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "question" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "knowledge_faqs_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "knowledge_faqs_company_id_id_idx" ON "knowledge_faqs"("company_id", "id" DESC);
ALTER TABLE "knowledge_faqs" ADD CONSTRAINT "knowledge_faqs_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One row per sentence of a document, or per FAQ question (faq_id set, document_id null).
CREATE TABLE "knowledge_sentences" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "document_id" UUID,
    "faq_id" UUID,
    "passage" INTEGER NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "terms" TEXT[],
    "context_terms" TEXT[],
    "folded" TEXT NOT NULL,
    CONSTRAINT "knowledge_sentences_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "knowledge_sentences_document_id_ordinal_idx" ON "knowledge_sentences"("document_id", "ordinal");
CREATE INDEX "knowledge_sentences_faq_id_idx" ON "knowledge_sentences"("faq_id");
CREATE INDEX "knowledge_sentences_company_id_idx" ON "knowledge_sentences"("company_id");
CREATE INDEX "knowledge_sentences_terms_idx" ON "knowledge_sentences" USING GIN ("terms");
CREATE INDEX "knowledge_sentences_folded_idx" ON "knowledge_sentences" USING GIN ("folded" gin_trgm_ops);
ALTER TABLE "knowledge_sentences" ADD CONSTRAINT "knowledge_sentences_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "knowledge_sentences" ADD CONSTRAINT "knowledge_sentences_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "knowledge_documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "knowledge_sentences" ADD CONSTRAINT "knowledge_sentences_faq_id_fkey" FOREIGN KEY ("faq_id") REFERENCES "knowledge_faqs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
