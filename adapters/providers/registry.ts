// The provider adapters of the running service, picked per integration by its provider name, with each
// integration's template list kept in process for a short time (TEMPLATE_CACHE_TTL_SECONDS): listing
// templates is a remote, paged call, and sends validate against the same list. Every send is retried when the
// provider asks to slow down (sendRetry.ts), whoever sends. The templates written here (`tracked`, read from the
// database once per provider instance, which lives for a request or a campaign's batch) overlay the cached list by
// id: what the provider decided since (its webhooks, the sandbox's review) is known at once, and a cached list never
// hides a template just written. The sandbox, Meta's stand-in, checks a send against that same read.
import { createSandbox } from './sandbox.js';
import { retryingSend, type SendRetryPolicy } from './sendRetry.js';
import { createWhatsAppProvider } from './whatsapp.js';
import { createOutboundClient } from '../../infra/net/outbound.js';
import { createTargetGuard } from '../../infra/net/targetGuard.js';
import type { MessagingProvider, ProviderIntegration, StatusSink, Template, TrackedTemplates } from './types.js';

export type MessagingSettings = {
  sandboxStatusIntervalMs: number;
  sandboxTemplateReviewMs: number;
  whatsappGraphUrl: string;
  whatsappTimeoutMs: number;
  /** The deadline of one media file's download, bytes included. */
  whatsappMediaTimeoutMs: number;
  templateCacheTtlMs: number;
  /** How sends refused for throughput or pair rate are retried (SEND_RETRY_*). */
  sendRetry: SendRetryPolicy;
};

export type MessagingProviders = {
  for(integration: ProviderIntegration): MessagingProvider;
  close(): Promise<void>;
};

export function createMessagingProviders(
  settings: MessagingSettings,
  hooks: { onStatus: StatusSink; onStatusError: (error: unknown) => void; tracked: TrackedTemplates },
): MessagingProviders {
  // The Graph API host is the operator's (a local fake in tests); media files come from Meta's public hosts.
  const whatsappHttp = createOutboundClient({
    guard: createTargetGuard({ allowedHosts: [new URL(settings.whatsappGraphUrl).hostname] }),
    userAgent: 'MessagingCRM',
  });
  const sandbox = createSandbox({
    statusIntervalMs: settings.sandboxStatusIntervalMs,
    templateReviewMs: settings.sandboxTemplateReviewMs,
    ...hooks,
  });
  const templateCache = new Map<string, { expiresAt: number; templates: Promise<Template[]> }>();

  function adapter(integration: ProviderIntegration, tracked: () => Promise<Template[]>): MessagingProvider {
    switch (integration.provider) {
      case 'sandbox':
        return sandbox.provider(integration, tracked);
      case 'whatsapp':
        return createWhatsAppProvider(integration, {
          baseUrl: settings.whatsappGraphUrl,
          timeoutMs: settings.whatsappTimeoutMs,
          mediaTimeoutMs: settings.whatsappMediaTimeoutMs,
          outbound: whatsappHttp,
        });
    }
  }

  function cachedTemplates(integration: ProviderIntegration, provider: MessagingProvider): Promise<Template[]> {
    const now = Date.now();
    const cached = templateCache.get(integration.id);
    if (cached && cached.expiresAt > now) return cached.templates;
    const templates = provider.listTemplates();
    const entry = { expiresAt: now + settings.templateCacheTtlMs, templates };
    templateCache.set(integration.id, entry);
    // A failure is not cached: the next call asks the provider again.
    templates.catch(() => {
      if (templateCache.get(integration.id) === entry) templateCache.delete(integration.id);
    });
    return templates;
  }

  async function overlaid(
    integration: ProviderIntegration,
    provider: MessagingProvider,
    readTracked: () => Promise<Template[]>,
  ): Promise<Template[]> {
    const [listed, tracked] = await Promise.all([cachedTemplates(integration, provider), readTracked()]);
    const byId = new Map(tracked.map((template) => [template.id, template]));
    const merged = listed.map((template) => byId.get(template.id) ?? template);
    const listedIds = new Set(listed.map((template) => template.id));
    return [...merged, ...tracked.filter((template) => !listedIds.has(template.id))];
  }

  return {
    for(integration) {
      let trackedRead: Promise<Template[]> | null = null;
      const tracked = () =>
        (trackedRead ??= hooks.tracked(integration).catch((error: unknown) => {
          trackedRead = null;
          throw error;
        }));
      const provider = adapter(integration, tracked);
      // A template written through this instance is read anew, as is the provider's list.
      const forget = <T>(change: Promise<T>) =>
        change.finally(() => {
          templateCache.delete(integration.id);
          trackedRead = null;
        });
      return {
        ...provider,
        send: retryingSend((message) => provider.send(message), settings.sendRetry),
        listTemplates: () => overlaid(integration, provider, tracked),
        createTemplate: (definition) => forget(provider.createTemplate(definition)),
        editTemplate: (id, change) => forget(provider.editTemplate(id, change)),
        deleteTemplate: (template) => forget(provider.deleteTemplate(template)),
      };
    },
    close: async () => {
      whatsappHttp.close();
      await sandbox.close();
    },
  };
}
