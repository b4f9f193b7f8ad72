-- What an inbound message is beyond its text: a location, contact cards, an interactive or quick reply (its id
-- and title) or a reaction's emoji, as JSON; null for text and media (media keeps its own column).
ALTER TABLE "messages" ADD COLUMN "content" JSONB;
