-- The search indexes of contacts and messages lead with the workspace (btree_gin), so that a lookup lists only the
-- workspace's own rows. Each index listed the rows of every workspace holding the term's trigrams or pieces, and
-- each of them was fetched from the table before its workspace was checked: with a workspace of ten million contacts
-- beside it, a term rare in a workspace of a million was looked up among all of the larger one's rows too
-- (docs/search.md, "Workspaces that share the tables"). In a GIN index the workspace is one more key whose list of
-- rows is intersected with the term's, skipping through both, before any row is read.
CREATE EXTENSION IF NOT EXISTS btree_gin;

DROP INDEX "customers_name_trgm_idx";
DROP INDEX "customers_phone_number_trgm_idx";
DROP INDEX "customers_email_trgm_idx";
DROP INDEX "customers_search_grams_idx";
DROP INDEX "customers_phone_pieces_idx";
DROP INDEX "messages_body_trgm_idx";
DROP INDEX "messages_body_grams_idx";

CREATE INDEX "customers_company_id_name_trgm_idx" ON "customers" USING GIN ("company_id", "name" gin_trgm_ops);
CREATE INDEX "customers_company_id_phone_number_trgm_idx" ON "customers" USING GIN ("company_id", "phone_number" gin_trgm_ops);
CREATE INDEX "customers_company_id_email_trgm_idx" ON "customers" USING GIN ("company_id", "email" gin_trgm_ops);
CREATE INDEX "customers_company_id_search_grams_idx" ON "customers" USING GIN ("company_id", "search_grams");
CREATE INDEX "customers_company_id_phone_pieces_idx" ON "customers" USING GIN ("company_id", phone_pieces("phone_number"));
CREATE INDEX "messages_company_id_body_trgm_idx" ON "messages" USING GIN ("company_id", "body" gin_trgm_ops);
CREATE INDEX "messages_company_id_body_grams_idx" ON "messages" USING GIN ("company_id", short_grams(VARIADIC ARRAY["body"]));
