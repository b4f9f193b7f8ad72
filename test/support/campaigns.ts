// Helpers for campaign tests: a runner driven by hand on a clock the test moves, whose provider sends are
// counted; contacts with a tag to send to; and, on a shared PostgreSQL, turns with the other test files that
// run campaign runners (a runner claims every workspace's due campaigns, by design) and the cancelling of
// this file's live campaigns when it ends, so no other file's runner picks them up.
import { afterAll } from 'vitest';
import { createLogger } from '../../infra/observability/logger.js';
import { createCampaignRunner, type CampaignRunner } from '../../workers/campaigns/runner.js';
import type { CampaignRunnerOptions } from '../../workers/campaigns/options.js';
import type { MessagingProviders } from '../../adapters/providers/registry.js';
import type { MessagingProvider, OutboundMessage } from '../../adapters/providers/types.js';
import type { Services } from '../../resolvers/shared/context.js';
import type { Harness } from './harness.js';
import type { CreatedWorkspace } from '../../resolvers/workspace/workspaces.js';
import { takeTurnsWithOtherWorkerFiles } from './webhooks.js';

const CAMPAIGN_RUNNER_LOCK = 7_340_112_977;

/**
 * For a test file that runs campaign runners: takes turns with the other such files on PostgreSQL, and gives
 * workspaces whose live campaigns are cancelled when the file ends.
 */
export function campaignTestFile(h: () => Harness) {
  const workspaceIds: string[] = [];
  takeTurnsWithOtherWorkerFiles(CAMPAIGN_RUNNER_LOCK);
  afterAll(() => cancelLiveCampaigns(h(), workspaceIds));
  return {
    async workspace(): Promise<CreatedWorkspace> {
      const created = await h().workspace();
      workspaceIds.push(created.workspace_id);
      return created;
    },
    /** A workspace made otherwise (a messaging world's), whose live campaigns are cancelled too. */
    adopt(workspaceId: string) {
      workspaceIds.push(workspaceId);
    },
  };
}

/** Other files' runners on a shared PostgreSQL must not find these workspaces' campaigns still due. */
export async function cancelLiveCampaigns(h: Harness, workspaceIds: string[]) {
  await h.db.prisma.campaign.updateMany({
    where: { status: { in: ['scheduled', 'running', 'paused'] }, company_id: { in: workspaceIds } },
    data: { status: 'cancelled', next_send_at: null, lease_token: null, lease_until: null },
  });
}

/** A clock the test moves by hand, starting now. */
export function manualClock(start = new Date()) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

/** The harness's providers, with every send recorded; `hang` makes sends never answer (a crash inside the call);
 * `beforeSend` runs before each send reaches the provider (to act while a batch is under way). */
export function countingMessaging(messaging: MessagingProviders) {
  const sends: OutboundMessage[] = [];
  let holding: Promise<never> | null = null;
  let before: ((message: OutboundMessage) => Promise<void>) | null = null;
  const counted: MessagingProviders = {
    for(integration) {
      const provider = messaging.for(integration);
      const wrapped: MessagingProvider = {
        ...provider,
        async send(message) {
          sends.push(message);
          await before?.(message);
          if (holding) return holding;
          return provider.send(message);
        },
      };
      return wrapped;
    },
    close: () => messaging.close(),
  };
  return {
    messaging: counted,
    sends,
    /** The addresses sent to, in order. */
    recipients: () => sends.map((message) => message.to.id),
    /** Sends from now on never answer: the runner is stuck inside the provider call, as if it died there. */
    hang() {
      holding = new Promise<never>(() => undefined);
    },
    beforeSend(hook: (message: OutboundMessage) => Promise<void>) {
      before = hook;
    },
  };
}

export type TestRunner = CampaignRunner & { clock: ReturnType<typeof manualClock>; sends: ReturnType<typeof countingMessaging> };

/** A runner over the harness's database and providers (counted), with its own clock and the given options. */
export function testRunner(
  services: Pick<Services, 'prisma' | 'messaging' | 'secrets' | 'statusMoves'>,
  options: Partial<Omit<CampaignRunnerOptions, 'clock'>> & { clock?: ReturnType<typeof manualClock> } = {},
): TestRunner {
  const clock = options.clock ?? manualClock();
  const sends = countingMessaging(services.messaging);
  const runner = createCampaignRunner(
    { ...services, messaging: sends.messaging },
    {
      defaultRatePerMinute: 600,
      pollMs: 1000,
      leaseMs: 60_000,
      retryDelayMs: 30_000,
      campaignsPerTick: 8,
      ...options,
      clock: clock.now,
    },
    createLogger(process.env['TEST_LOG_LEVEL'] ?? 'silent'),
  );
  return { ...runner, clock, sends };
}

/** Ticks (moving the clock a poll interval each time) until the campaign is no longer running, at most `max` times. */
export async function runToEnd(h: Harness, runner: TestRunner, campaignId: string, max = 200) {
  for (let tick = 0; tick < max; tick += 1) {
    await runner.tick();
    const { status } = await h.db.prisma.campaign.findUniqueOrThrow({ where: { id: campaignId }, select: { status: true } });
    if (status !== 'running' && status !== 'scheduled') return status;
    runner.clock.advance(1000);
  }
  throw new Error(`campaign ${campaignId} still running after ${max} ticks`);
}

let phoneCounter = 0;
/** A phone number no other test file uses at the same time. */
export function uniquePhone(): string {
  phoneCounter += 1;
  return `+1555${String(process.pid % 1000).padStart(3, '0')}${String(Date.now() % 10_000).padStart(4, '0')}${String(phoneCounter % 100).padStart(2, '0')}`;
}

/** `count` contacts with phone numbers (and wa_ids), all tagged with a new tag of the workspace. */
export async function taggedContacts(h: Harness, workspaceId: string, count: number, tagName = `tag ${Math.random()}`) {
  const tag = await h.db.prisma.tag.create({ data: { company_id: workspaceId, name: tagName } });
  const contacts = [];
  for (let index = 0; index < count; index += 1) {
    const phone = uniquePhone();
    const contact = await h.db.prisma.customer.create({
      data: { company_id: workspaceId, name: `Contact ${index + 1}`, phone_number: phone, wa_id: phone.slice(1) },
    });
    await h.db.prisma.customerTag.create({ data: { customer_id: contact.id, tag_id: tag.id } });
    contacts.push(contact);
  }
  return { tag, contacts };
}

/** An approved sandbox template with its three slots filled. */
export const REMINDER = { name: 'appointment_reminder', language: 'en_US', parameters: ['there', 'Friday', '10:00'] };
