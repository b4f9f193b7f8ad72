-- A contact's name, e-mail address and phone number lower-cased once, when the contact is written, in one column
-- whose fields a line break separates: the rows a search reads in order (the newest thousand, resolvers/contacts/
-- search.ts) are then tested with one LIKE each, against three fields lower-cased with every search before. A term
-- without a line break matches the column exactly when it matches one of the fields; one with a line break is
-- tested field by field. Adding the column rewrites the table once.
ALTER TABLE "customers" ADD COLUMN "search_text" TEXT GENERATED ALWAYS AS (
  lower(coalesce("name", '') || E'\n' || coalesce("email", '') || E'\n' || coalesce("phone_number", ''))
) STORED;
