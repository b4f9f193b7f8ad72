-- A campaign's audience by tags and fields (issue 38, point 3): the contacts carrying any or all of
-- audience_tag_ids and meeting every condition of audience_conditions (a JSON array of {field, op, value}:
-- marketing_consent or metadata.<key>, equals or not_equals). An audience given this way is the campaign's
-- third kind beside one tag (audience_tag_id) and a list of contacts (audience_contact_ids); see
-- resolvers/campaigns/segment.ts.
ALTER TABLE "campaigns" ADD COLUMN "audience_tag_ids" UUID[];
ALTER TABLE "campaigns" ADD COLUMN "audience_tag_match" TEXT NOT NULL DEFAULT 'any';
ALTER TABLE "campaigns" ADD COLUMN "audience_conditions" JSONB NOT NULL DEFAULT '[]'::jsonb;
