// The audience snapshot: when a campaign first runs, its audience (the tag's contacts at that moment, its
// list of contacts that still exist, or the contacts its tags and fields pick then: segment.ts) becomes its recipients in one INSERT … SELECT, so contacts tagged or
// untagged later do not change who receives it. Contacts without a messaging address are recorded as skipped,
// with the reason. Taking the snapshot twice adds nothing (ON CONFLICT DO NOTHING).
import { type Campaign, Prisma } from '../../prisma/generated/prisma/client.js';
import type { Db } from '../shared/context.js';
import { RECIPIENT_ERRORS } from './rules.js';
import { carriesTag } from '../contacts/tags.js';
import { inSegment, storedSegment } from './segment.js';

const contact = Prisma.raw('c');

export async function snapshotAudience(tx: Db, campaign: Campaign): Promise<number> {
  const { error_code, error_message } = RECIPIENT_ERRORS.noAddress;
  return tx.$executeRaw`
    INSERT INTO campaign_recipients (campaign_id, contact_id, company_id, status, error_code, error_message, updated_at)
    SELECT ${campaign.id}::uuid, c.id, c.company_id,
           CASE WHEN no_address THEN 'skipped' ELSE 'pending' END,
           CASE WHEN no_address THEN ${error_code} END,
           CASE WHEN no_address THEN ${error_message} END,
           now()
    FROM customers c, LATERAL (SELECT c.wa_id IS NULL AND c.phone_number IS NULL AS no_address) address
    WHERE c.company_id = ${campaign.company_id}::uuid
      AND (
        ${carriesTag(contact, campaign.audience_tag_id)}
        OR c.id = ANY(${campaign.audience_contact_ids}::uuid[])
        OR ${inSegment(contact, storedSegment(campaign))}
      )
    ON CONFLICT (campaign_id, contact_id) DO NOTHING`;
}
