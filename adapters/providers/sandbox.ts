// The `sandbox` provider: the embedded default, with no network. It accepts sends, assigns WhatsApp-like
// message ids, serves SANDBOX_TEMPLATES, and moves each accepted message sent → delivered → read on a
// timer by reporting to the same status path the provider webhook feeds. Sends to wa_ids starting with
// 999 (an unassigned country code) fail as undeliverable, and sends to +1555013xxxx with Meta's error whose
// code ends in xxxx (sandboxErrors.ts), so clients can exercise failure handling. Media
// comes from its own store (sandboxMedia.ts): sample files for inbound messages, and uploads for sends.
// Its business account holds SANDBOX_TEMPLATES and the templates written here (`tracked`, from the database, as the
// registry reads them for the provider instance);
// a submitted template is PENDING until the review worker asks sandboxReview() for its decision.
import { randomBytes, randomInt } from 'node:crypto';
import { ProviderError } from './errors.js';
import { SANDBOX_TEMPLATES } from './sandboxCatalog.js';
import { createAttemptCounter, sandboxFailureOf } from './sandboxErrors.js';
import { createSandboxMediaStore, type SandboxMediaStore } from './sandboxMedia.js';
import { fitsSlots } from './templates.js';
import { bodyText } from './templateDefinition.js';
import type {
  DefinitionComponent,
  DeliveryStatus,
  MessagingProvider,
  OutboundMessage,
  ProviderIntegration,
  StatusSink,
  Template,
  TemplateStatus,
} from './types.js';

const UNDELIVERABLE_PREFIX = '999';
const PROGRESSION: readonly DeliveryStatus[] = ['sent', 'delivered', 'read'];

export type SandboxOptions = {
  /** Pause before each status step. */
  statusIntervalMs: number;
  /** How long a submitted template waits for the sandbox's review (SANDBOX_TEMPLATE_REVIEW_MS). */
  templateReviewMs: number;
  onStatus: StatusSink;
  onStatusError: (error: unknown) => void;
};

/** The word the sandbox's review refuses, as Meta refuses a utility or marketing promise it finds promotional. */
const REFUSED_WORD = /\bguaranteed\b/i;

/** The sandbox's review of a submitted template: REJECTED (PROMOTIONAL) when its body says "guaranteed", else APPROVED. */
export function sandboxReview(components: readonly DefinitionComponent[]): { status: TemplateStatus; reason: string | null } {
  return REFUSED_WORD.test(bodyText(components)) ? { status: 'REJECTED', reason: 'PROMOTIONAL' } : { status: 'APPROVED', reason: null };
}

export type Sandbox = {
  /** `tracked` reads the templates written here for the integration. */
  provider(integration: ProviderIntegration, tracked: () => Promise<Template[]>): MessagingProvider;
  /** Stops pending status steps and waits for those under way. */
  close(): Promise<void>;
};

type AttemptCounter = ReturnType<typeof createAttemptCounter>;

function check(message: OutboundMessage, media: SandboxMediaStore, attempts: AttemptCounter, templates: readonly Template[]): void {
  if (message.to.id.startsWith(UNDELIVERABLE_PREFIX)) {
    throw new ProviderError('sandbox', 'recipient', 'Message undeliverable', '131026');
  }
  const failure = sandboxFailureOf(message.to.id);
  if (failure && attempts.fails(failure, message.reference)) {
    throw new ProviderError('sandbox', failure.reason, failure.title, failure.code, failure.details);
  }
  const { content } = message;
  if (content.type === 'media' && 'id' in content.media.source && !media.has(content.media.source.id)) {
    throw new ProviderError('sandbox', 'invalid_request', `The sandbox has no media ${content.media.source.id}`, '131053');
  }
  if (content.type !== 'template') return;
  const template = templates.find((candidate) => candidate.name === content.name && candidate.language === content.language);
  if (!template) throw new ProviderError('sandbox', 'template', `Template ${content.name} (${content.language}) does not exist`, '132001');
  if (template.status !== 'APPROVED') {
    throw new ProviderError('sandbox', 'template', `Template ${content.name} is ${template.status.toLowerCase()}`, '132015');
  }
  if (!fitsSlots(template, content.components)) {
    throw new ProviderError('sandbox', 'template', 'Number of parameters does not match the expected number of params', '132000');
  }
}

export function createSandbox(options: SandboxOptions): Sandbox {
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  const media = createSandboxMediaStore();
  const attempts = createAttemptCounter();
  let closed = false;

  function progress(integration: ProviderIntegration, message: OutboundMessage, providerMessageId: string, step: number) {
    const status = PROGRESSION[step];
    if (closed || !status) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (closed) return;
      const report = options
        .onStatus(integration, { providerMessageId, status, reference: message.reference, error: null })
        .catch(options.onStatusError)
        .finally(() => {
          running.delete(report);
          progress(integration, message, providerMessageId, step + 1);
        });
      running.add(report);
    }, options.statusIntervalMs);
    timer.unref();
    timers.add(timer);
  }

  return {
    provider(integration, tracked) {
      const businessAccount = async (): Promise<Template[]> => [...SANDBOX_TEMPLATES, ...(await tracked())];
      return {
        async send(message) {
          check(message, media, attempts, message.content.type === 'template' ? await businessAccount() : []);
          const providerMessageId = `wamid.${randomBytes(30).toString('base64url')}`;
          progress(integration, message, providerMessageId, 0);
          return { providerMessageId };
        },
        // A copy: the catalog and the instance's read of the templates written here are shared, and the caller may
        // change what it is given.
        async listTemplates() {
          return structuredClone(await businessAccount());
        },
        async createTemplate(definition) {
          const reviewDueAt = new Date(Date.now() + options.templateReviewMs);
          return { id: String(randomInt(1e14, 2.8e14)), status: 'PENDING', category: definition.category, reviewDueAt };
        },
        // The templates written here are the sandbox's account: an edit or deletion is the database's change alone.
        async editTemplate() {
          return { reviewDueAt: new Date(Date.now() + options.templateReviewMs) };
        },
        async deleteTemplate() {},
        async fetchMedia(mediaId) {
          return media.fetch(mediaId);
        },
        async uploadMedia(upload) {
          return media.upload(upload);
        },
        // The sandbox has no portfolio whose limits it could tell: its numbers keep what a person sets.
        async readStanding() {
          return { messagingLimitTier: null, throughputLevel: null, qualityRating: null };
        },
      };
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...running]);
    },
  };
}
