-- Streamable HTTP sessions get a GET stream (its id, so that a newer stream takes over) and resource subscriptions,
-- kept with the session so that the instance holding the stream follows what any instance recorded.
-- AlterTable
ALTER TABLE "mcp_sessions" ADD COLUMN     "stream_id" UUID,
ADD COLUMN     "subscriptions" TEXT[] DEFAULT ARRAY[]::TEXT[];
