-- Phone search by digits (resolvers/contacts/search.ts, docs/search.md): each phone number's six-character pieces,
-- one starting at each character but the last two (so the last pieces are shorter), as the lexemes of a text
-- search index. A phone term of three to six digits is in a number exactly when it starts one of its pieces (a
-- prefix query); a longer one is looked up by pieces of six that cover it, and then checked. The phone trigram
-- index answered the same lookups by intersecting the lists of trigrams such as `555` and `155` that nearly every
-- number of a workspace holds: at a million contacts, 21 ms to find one whole number and 100 ms for `555 0054`
-- (10,000 matches), against 0.3 ms and 4–9 ms here. Pieces of six keep the index near the size of the others
-- (83 MB at a million contacts, built in 16 s); whole suffixes made it 534 MB. An expression index, like
-- messages_body_grams_idx: the pieces are not stored in the row.
CREATE FUNCTION "phone_pieces"("phone" TEXT) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_to_tsvector(coalesce(array_agg(substr(phone, start, 6)), '{}'))
  FROM generate_series(1, length(phone) - 2) AS start
$$;

CREATE INDEX "customers_phone_pieces_idx" ON "customers" USING GIN (phone_pieces("phone_number"));
