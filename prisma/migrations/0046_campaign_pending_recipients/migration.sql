-- A campaign's next recipient is its first pending one in contact order (resolvers/campaigns/numberLimits.ts). Without
-- an index of the pending rows alone, each claim walked the campaign's recipients already sent (or, in a generic plan,
-- every campaign's recipients by contact) before it reached one: a claim cost grew with the campaign, 12 ms a claim
-- halfway through a campaign of a thousand. Here it is the first entry of the campaign's pending list.
CREATE INDEX "campaign_recipients_pending_idx" ON "campaign_recipients" ("campaign_id", "contact_id") WHERE "status" = 'pending';
