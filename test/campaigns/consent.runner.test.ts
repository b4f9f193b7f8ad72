// A MARKETING campaign on both providers, run by the campaign runner to its end: contacts who opted out are skipped
// and counted (skipped_opted_out) with nothing sent to them, undeliverable recipients (+15550131026, Meta's 131026)
// fail with the provider's error recorded per recipient, everyone else is sent; the counts are exact. The sandbox
// runs the case (1,000 recipients, 10 opted out, 5 undeliverable); the Graph API fake, whose failures arrive
// by status webhook, a tenth of it.
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { print } from 'graphql';
import { PROVIDERS, openMessagingWorld } from '../support/messaging.js';
import { campaignTestFile, runToEnd, testRunner } from '../support/campaigns.js';
import { sendJson } from '../support/restFixtures.js';
import { operation } from '../../facades/core/operations.js';

const SPRING_SALE = { name: 'spring_sale', language: 'en_US', parameters: ['there', '20%'] };
const SIZES = { sandbox: 1000, whatsapp: 100 } as const;

describe.each(PROVIDERS)('a marketing campaign on the %s provider', async (provider) => {
  const world = await openMessagingWorld(provider, { rateLimitPerMinute: 10_000 });
  const { harness } = world;
  const prisma = harness.db.prisma;
  const file = campaignTestFile(() => harness);

  it(`skips the opted-out, fails the undeliverable per recipient and ends with exact counts (${SIZES[provider]} recipients, 10 opted out, 5 undeliverable)`, async () => {
    const ws = await world.workspace();
    file.adopt(ws.workspaceId);
    const total = SIZES[provider];
    const tag = await prisma.tag.create({ data: { company_id: ws.workspaceId, name: 'Newsletter' } });
    const base = 10_000_000 + Math.floor(Math.random() * 80_000_000);
    const contacts = Array.from({ length: total }, (_, index) => {
      // The last five share the sandbox's undeliverable number; a phone number alone is their address.
      if (index >= total - 5) return { id: randomUUID(), company_id: ws.workspaceId, name: `Gone ${index}`, phone_number: '+15550131026' };
      const phone = `+1556${base + index}`;
      return { id: randomUUID(), company_id: ws.workspaceId, name: `Reader ${index}`, phone_number: phone, wa_id: phone.slice(1) };
    });
    await prisma.customer.createMany({ data: contacts });
    await prisma.customerTag.createMany({ data: contacts.map((contact) => ({ customer_id: contact.id, tag_id: tag.id })) });
    const optedOut = contacts.slice(0, 10);
    for (const contact of optedOut) {
      const set = await sendJson(harness, 'PUT', `/api/v1/contacts/${contact.id}/consent`, ws.apiKey, { status: 'opted_out' });
      expect(set.status).toBe(200);
    }

    const call = async (name: string, variables: Record<string, unknown>) => {
      const { body } = await harness.graphql(ws.apiKey, print(operation(name)), variables);
      expect(body.errors).toBeUndefined();
      return Object.values(body.data as Record<string, any>)[0];
    };
    const campaign = await call('CampaignCreate', {
      name: 'Spring offer',
      template: SPRING_SALE,
      audience_tag_id: tag.id,
      integration_id: ws.integrationId,
      send_rate_per_minute: 1000,
    });
    await call('CampaignStart', { id: campaign.id });
    const runner = testRunner(harness.services);
    expect(await runToEnd(harness, runner, campaign.id, 400)).toBe('completed');

    const optedOutAddresses = new Set(optedOut.map((contact) => contact.wa_id));
    expect(runner.sends.recipients().filter((address) => optedOutAddresses.has(address))).toEqual([]);
    expect(runner.sends.sends).toHaveLength(total - 10);
    // Undeliverable recipients fail on the send (sandbox) or by the status webhook that follows (Graph API).
    await expect.poll(async () => (await call('CampaignGet', { id: campaign.id })).progress.failed, { timeout: 30_000 }).toBe(5);
    const answer = await call('CampaignGet', { id: campaign.id });
    expect(answer.skipped_opted_out).toBe(10);
    expect(answer.progress).toMatchObject({ total, skipped: 10, skipped_opted_out: 10, failed: 5, pending: 0, sending: 0, cancelled: 0 });
    expect(answer.progress.sent + answer.progress.delivered + answer.progress.read).toBe(total - 15);

    const skipped = await prisma.campaignRecipient.findMany({ where: { campaign_id: campaign.id, status: 'skipped' } });
    expect(new Set(skipped.map((recipient) => recipient.contact_id))).toEqual(new Set(optedOut.map((contact) => contact.id)));
    expect(skipped.every((recipient) => recipient.error_code === 'CONTACT_OPTED_OUT' && recipient.message_id === null)).toBe(true);
    const failed = await prisma.campaignRecipient.findMany({ where: { campaign_id: campaign.id, status: 'failed' } });
    expect(failed.map((recipient) => recipient.error_code)).toEqual(Array(5).fill('131026'));
  }, 600_000);
});
