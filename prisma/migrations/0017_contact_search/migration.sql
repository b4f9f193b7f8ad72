-- Search for terms of one or two characters (resolvers/contacts/search.ts, docs/search.md): trigram indexes
-- cannot serve them, so each contact keeps every distinct one- and two-character piece of its lower-cased name,
-- phone number and e-mail address in a generated column with a GIN index. A term of one or two characters is
-- a substring of a field exactly when it is one of that field's pieces.
CREATE FUNCTION "short_grams"(VARIADIC "parts" TEXT[]) RETURNS TEXT[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT substr(lower(part), start, size)), '{}')
  FROM unnest(parts) AS part, generate_series(1, 2) AS size, generate_series(1, length(part) - size + 1) AS start
$$;

ALTER TABLE "customers" ADD COLUMN "search_grams" TEXT[] GENERATED ALWAYS AS (short_grams("name", "phone_number", "email")) STORED;

CREATE INDEX "customers_search_grams_idx" ON "customers" USING GIN ("search_grams");
