// The provider adapters of the running service, picked per integration by its provider name, with each
// integration's template list kept in process for a short time (TEMPLATE_CACHE_TTL_SECONDS): listing
// templates is a remote, paged call, and sends validate against the same list. Every send is retried when the
// provider asks to slow down (sendRetry.ts), whoever sends.
import { createSandbox } from './sandbox.js';
import { retryingSend, type SendRetryPolicy } from './sendRetry.js';
import { createWhatsAppProvider } from './whatsapp.js';
import { createOutboundClient } from '../../infra/net/outbound.js';
import { createTargetGuard } from '../../infra/net/targetGuard.js';
import type { MessagingProvider, ProviderIntegration, StatusSink, Template } from './types.js';

export type MessagingSettings = {
  sandboxStatusIntervalMs: number;
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
  status: { onStatus: StatusSink; onStatusError: (error: unknown) => void },
): MessagingProviders {
  // The Graph API host is the operator's (a local fake in tests); media files come from Meta's public hosts.
  const whatsappHttp = createOutboundClient({
    guard: createTargetGuard({ allowedHosts: [new URL(settings.whatsappGraphUrl).hostname] }),
    userAgent: 'MessagingCRM',
  });
  const sandbox = createSandbox({ statusIntervalMs: settings.sandboxStatusIntervalMs, ...status });
  const templateCache = new Map<string, { expiresAt: number; templates: Promise<Template[]> }>();

  function adapter(integration: ProviderIntegration): MessagingProvider {
    switch (integration.provider) {
      case 'sandbox':
        return sandbox.provider(integration);
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

  return {
    for(integration) {
      const provider = adapter(integration);
      return {
        ...provider,
        send: retryingSend((message) => provider.send(message), settings.sendRetry),
        listTemplates: () => cachedTemplates(integration, provider),
      };
    },
    close: async () => {
      whatsappHttp.close();
      await sandbox.close();
    },
  };
}
