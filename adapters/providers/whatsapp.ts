// The `whatsapp` provider: the WhatsApp Cloud API over HTTPS (Graph API). Text, template and media sends go
// to POST /{phone-number-id}/messages; templates come from GET /{business-account-id}/message_templates,
// page by page, and are submitted to POST /{business-account-id}/message_templates, edited by POST /{template-id}
// and deleted by DELETE /{business-account-id}/message_templates?hsm_id=&name=; files are uploaded to POST /{phone-number-id}/media and fetched by id (GET /{media-id} gives
// a URL valid for five minutes, read with the same bearer token); the number's limits and quality come from
// GET /{phone-number-id}?fields=…. The base URL (WHATSAPP_GRAPH_URL, with the
// API version) is configurable so that tests run the adapter against a local fake Graph server. Delivery
// progress arrives later at /webhooks/whatsapp. Every call goes through the guarded outbound client
// (infra/net/outbound.ts): no redirect followed, the time and the size of each answer bounded.
import { z } from 'zod';
import type { OutboundClient } from '../../infra/net/outbound.js';
import { downloadCut, graphError, unreachable } from './whatsappErrors.js';
import { ProviderError } from './errors.js';
import {
  HEADER_FORMATS,
  TEMPLATE_CATEGORIES,
  type MessagingProvider,
  type OutboundMessage,
  type ProviderIntegration,
  type Template,
  type TemplateComponent,
  type TemplateComponentParameters,
  type TemplateStatus,
} from './types.js';

/** `timeoutMs` bounds one Graph API call; `mediaTimeoutMs` one media file's download, until its last byte. */
export type WhatsAppOptions = { baseUrl: string; timeoutMs: number; mediaTimeoutMs: number; outbound: OutboundClient };

/** The largest Graph API answer read, and the largest media file (WhatsApp's documents go to 100 MB). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
const MAX_MEDIA_BYTES = 100 * 1024 * 1024;

type GraphRequest = { method?: string; headers?: Record<string, string>; body?: BodyInit };

const PAGE_SIZE = 100;
const MAX_PAGES = 50;
const TEMPLATE_FIELDS = 'id,name,status,category,language,components,quality_score,rejected_reason';

/** Graph statuses beyond the spec's five, folded into the nearest one. */
const STATUS_OF: Record<string, TemplateStatus> = {
  APPROVED: 'APPROVED',
  PENDING: 'PENDING',
  IN_APPEAL: 'PENDING',
  REJECTED: 'REJECTED',
  PAUSED: 'PAUSED',
  DISABLED: 'DISABLED',
  LIMIT_EXCEEDED: 'DISABLED',
  PENDING_DELETION: 'DISABLED',
  DELETED: 'DISABLED',
  ARCHIVED: 'DISABLED',
};

const graphButton = z.object({
  type: z.string(),
  text: z.string().optional(),
  phone_number: z.string().optional(),
  url: z.string().optional(),
});
const graphComponent = z.object({
  type: z.string(),
  format: z.string().optional(),
  text: z.string().optional(),
  buttons: z.array(graphButton).optional(),
});
const graphTemplate = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  category: z.string(),
  language: z.string(),
  components: z.array(graphComponent).default([]),
  quality_score: z.object({ score: z.string(), date: z.number().int().optional() }).optional(),
  rejected_reason: z.string().optional(),
});
const templatePage = z.object({
  data: z.array(graphTemplate),
  paging: z.object({ cursors: z.object({ after: z.string().optional() }).optional(), next: z.string().optional() }).optional(),
});
const sendAnswer = z.object({ messages: z.array(z.object({ id: z.string().min(1) })).min(1) });
const mediaAnswer = z.object({
  url: z.url(),
  mime_type: z.string().optional(),
  sha256: z.string().optional(),
  file_size: z.union([z.string(), z.number()]).optional(),
});
const uploadAnswer = z.object({ id: z.string().min(1) });
/** The phone number's standing fields; `messaging_limit_tier` is Meta's deprecated name for the portfolio's limit. */
const STANDING_FIELDS = 'whatsapp_business_manager_messaging_limit,messaging_limit_tier,quality_rating,throughput';
const standingAnswer = z.object({
  whatsapp_business_manager_messaging_limit: z.string().optional(),
  messaging_limit_tier: z.string().optional(),
  quality_rating: z.string().optional(),
  throughput: z.object({ level: z.string().optional() }).optional(),
});
const createAnswer = z.object({ id: z.string().min(1), status: z.string(), category: z.string() });

/** Meta's media hosts: the access token goes to a download URL only there (or to the configured Graph host itself). */
const MEDIA_HOSTS = /(^|\.)(fbsbx\.com|facebook\.com|fbcdn\.net|whatsapp\.net)$/;

function isMediaHost(url: URL, base: URL): boolean {
  return url.origin === base.origin || (url.protocol === 'https:' && MEDIA_HOSTS.test(url.hostname));
}

/** Graph's answer for a media id it does not have: "Unsupported get request" / object does not exist. */
const MISSING_OBJECT_CODE = '100';

function toComponent(component: z.infer<typeof graphComponent>): TemplateComponent | null {
  switch (component.type.toUpperCase()) {
    case 'HEADER': {
      const format = HEADER_FORMATS.find((candidate) => candidate === component.format?.toUpperCase()) ?? 'TEXT';
      return { type: 'HEADER', format, ...(component.text ? { text: component.text } : {}) };
    }
    case 'BODY':
      return { type: 'BODY', text: component.text ?? '' };
    case 'FOOTER':
      return { type: 'FOOTER', text: component.text ?? '' };
    case 'BUTTONS':
      return {
        type: 'BUTTONS',
        buttons: (component.buttons ?? []).map((button) => ({
          type: button.type,
          text: button.text ?? button.type,
          ...(button.phone_number ? { phone_number: button.phone_number } : {}),
          ...(button.url ? { url: button.url } : {}),
        })),
      };
    default:
      return null; // carousels, limited-time offers: not part of the spec's Template
  }
}

function toTemplate(graph: z.infer<typeof graphTemplate>): Template | null {
  const status = STATUS_OF[graph.status.toUpperCase()];
  const category = graph.category.toUpperCase();
  if (!status || !(TEMPLATE_CATEGORIES as readonly string[]).includes(category)) return null;
  const { quality_score: quality, rejected_reason: rejected } = graph;
  return {
    id: graph.id,
    name: graph.name,
    status,
    category: category as Template['category'],
    language: graph.language,
    components: graph.components.map(toComponent).filter((component) => component !== null),
    ...(quality?.date !== undefined ? { quality_score: { score: quality.score, date: quality.date } } : {}),
    ...(status === 'REJECTED' && rejected && rejected !== 'NONE' ? { rejected_reason: rejected } : {}),
  };
}

/** A component in Meta's request format: media as {type, <type>: {link | id}}, a button's index as a string. */
function graphComponentOf(component: TemplateComponentParameters): Record<string, unknown> {
  if (component.type === 'button') {
    return { type: 'button', sub_type: component.sub_type, index: String(component.index), parameters: component.parameters };
  }
  return {
    type: component.type,
    parameters: component.parameters.map((parameter) => {
      if (parameter.type === 'text') return parameter;
      return { type: parameter.type, [parameter.type]: 'id' in parameter ? { id: parameter.id } : { link: parameter.link } };
    }),
  };
}

function requestBody(message: OutboundMessage): Record<string, unknown> {
  const common = {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    ...(message.to.kind === 'phone' ? { to: message.to.id } : { recipient: message.to.id }),
    biz_opaque_callback_data: message.reference,
  };
  const { content } = message;
  if (content.type === 'text') return { ...common, type: 'text', text: { preview_url: false, body: content.body } };
  if (content.type === 'media') {
    const { type, source, caption, filename } = content.media;
    return { ...common, type, [type]: { ...source, ...(caption ? { caption } : {}), ...(filename ? { filename } : {}) } };
  }
  return {
    ...common,
    type: 'template',
    template: {
      name: content.name,
      language: { code: content.language },
      components: content.components.map(graphComponentOf),
    },
  };
}

/**
 * The file's bytes, where a connection cut or the deadline reached while they stream fails as the provider's
 * (retryable) failure, as it would have before the answer began.
 */
function failingAsProvider(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(downloadCut(error));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

export function createWhatsAppProvider(integration: ProviderIntegration, options: WhatsAppOptions): MessagingProvider {
  const base = options.baseUrl.replace(/\/+$/, '');

  async function request(
    url: string,
    init: GraphRequest = {},
    timeoutMs = options.timeoutMs,
    maxBytes = MAX_ANSWER_BYTES,
  ): Promise<Response> {
    try {
      return await options.outbound.request(url, {
        ...init,
        headers: { authorization: `Bearer ${integration.accessToken}`, accept: 'application/json', ...init.headers },
        timeoutMs,
        maxResponseBytes: maxBytes,
      });
    } catch (error) {
      throw unreachable(error);
    }
  }

  async function call(url: string, init: GraphRequest = {}): Promise<unknown> {
    const response = await request(url, init);
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) throw graphError(response.status, body);
    return body;
  }

  function invalidAnswer(what: string): ProviderError {
    return new ProviderError('whatsapp', 'unavailable', `The WhatsApp Cloud API answered ${what} in an unexpected form`);
  }

  return {
    async send(message) {
      const answer = sendAnswer.safeParse(
        await call(`${base}/${encodeURIComponent(integration.phoneNumberId)}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(requestBody(message)),
        }),
      );
      if (!answer.success) throw invalidAnswer('the send');
      return { providerMessageId: answer.data.messages[0]!.id };
    },

    async listTemplates() {
      const templates: Template[] = [];
      let after: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        // The next page is built from our own base URL and the `after` cursor rather than by following
        // paging.next, so the access token is never sent to an address the answer names.
        const query = new URLSearchParams({ fields: TEMPLATE_FIELDS, limit: String(PAGE_SIZE), ...(after ? { after } : {}) });
        const parsed = templatePage.safeParse(
          await call(`${base}/${encodeURIComponent(integration.businessAccountId)}/message_templates?${query}`),
        );
        if (!parsed.success) throw invalidAnswer('the template list');
        templates.push(...parsed.data.data.map(toTemplate).filter((template) => template !== null));
        after = parsed.data.paging?.next ? parsed.data.paging.cursors?.after : undefined;
        if (!after) return templates;
      }
      throw new ProviderError('whatsapp', 'unavailable', `The template list has more than ${MAX_PAGES} pages`);
    },

    async createTemplate(definition) {
      const answer = createAnswer.safeParse(
        await call(`${base}/${encodeURIComponent(integration.businessAccountId)}/message_templates`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(definition),
        }),
      );
      const status = answer.success ? STATUS_OF[answer.data.status.toUpperCase()] : undefined;
      const category = answer.data?.category.toUpperCase();
      if (!answer.success || !status || !(TEMPLATE_CATEGORIES as readonly string[]).includes(category ?? ''))
        throw invalidAnswer('the template submission');
      return { id: answer.data.id, status, category: category as Template['category'] };
    },

    async editTemplate(id, change) {
      await call(`${base}/${encodeURIComponent(id)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(change),
      });
      return {};
    },

    async deleteTemplate(template) {
      const query = new URLSearchParams({ hsm_id: template.id, name: template.name });
      await call(`${base}/${encodeURIComponent(integration.businessAccountId)}/message_templates?${query}`, { method: 'DELETE' });
    },

    async fetchMedia(mediaId) {
      const query = new URLSearchParams({ phone_number_id: integration.phoneNumberId });
      let described: unknown;
      try {
        described = await call(`${base}/${encodeURIComponent(mediaId)}?${query}`);
      } catch (error) {
        if (error instanceof ProviderError && error.code === MISSING_OBJECT_CODE)
          throw new ProviderError('whatsapp', 'media_not_found', 'The WhatsApp Cloud API no longer has this media file', error.code);
        throw error;
      }
      const media = mediaAnswer.safeParse(described);
      if (!media.success) throw invalidAnswer('the media lookup');
      // The URL is Meta's own media host; it needs the same token and expires within minutes, so it is read at once.
      const location = new URL(media.data.url);
      if (!isMediaHost(location, new URL(base))) throw invalidAnswer('a media URL on a host that is not Meta’s');
      const file = await request(location.href, { headers: { accept: '*/*' } }, options.mediaTimeoutMs, MAX_MEDIA_BYTES);
      if (!file.ok || !file.body) throw graphError(file.status, await file.json().catch(() => null));
      const size = media.data.file_size === undefined ? null : Number(media.data.file_size);
      return {
        body: failingAsProvider(file.body),
        mimeType: media.data.mime_type ?? file.headers.get('content-type'),
        sha256: media.data.sha256 ?? null,
        size: Number.isSafeInteger(size) ? size : null,
      };
    },

    async uploadMedia(upload) {
      const form = new FormData();
      form.set('messaging_product', 'whatsapp');
      form.set('type', upload.contentType);
      form.set('file', new Blob([upload.bytes], { type: upload.contentType }), upload.filename);
      const answer = uploadAnswer.safeParse(
        await call(`${base}/${encodeURIComponent(integration.phoneNumberId)}/media`, { method: 'POST', body: form }),
      );
      if (!answer.success) throw invalidAnswer('the media upload');
      return { id: answer.data.id };
    },

    async readStanding() {
      const query = new URLSearchParams({ fields: STANDING_FIELDS });
      const answer = standingAnswer.safeParse(await call(`${base}/${encodeURIComponent(integration.phoneNumberId)}?${query}`));
      if (!answer.success) throw invalidAnswer('the phone number');
      const {
        whatsapp_business_manager_messaging_limit: limit,
        messaging_limit_tier: legacyTier,
        quality_rating,
        throughput,
      } = answer.data;
      return {
        messagingLimitTier: limit ?? legacyTier ?? null,
        throughputLevel: throughput?.level ?? null,
        qualityRating: quality_rating ?? null,
      };
    },
  };
}
