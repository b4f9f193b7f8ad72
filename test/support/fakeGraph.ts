// A local fake of the WhatsApp Cloud API (Graph API) on a real port, so the `whatsapp` adapter is tested
// over HTTP exactly as it talks to Meta: bearer-token checks, POST /{phone-number-id}/messages for text
// and template sends (with the provider's own checks and error bodies), GET /{waba-id}/message_templates
// in pages, a number's limits and quality (GET /{phone-number-id}?fields=…), media (POST /{phone-number-id}/media uploads, GET /{media-id} describing a file with a download
// URL on its attachments host, which needs the same bearer token), and — like the real service — signed status
// webhooks (sent, delivered, read) sent back to the service for every accepted message. Its template catalog is the sandbox's, in Graph's JSON form,
// plus the templates submitted to POST /{waba-id}/message_templates (PENDING until a test decides their review with
// reviewTemplate, which sends Meta's message_template_status_update webhook), edited by POST /{template-id} and
// deleted by DELETE /{waba-id}/message_templates?hsm_id=&name=.
import { createAttemptCounter, sandboxFailureOf } from '../../adapters/providers/sandboxErrors.js';
import { createHash, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { SANDBOX_TEMPLATES } from '../../adapters/providers/sandboxCatalog.js';
import { fitsSlots, templateSlots } from '../../adapters/providers/templates.js';
import { templateOfDefinition } from '../../adapters/providers/templateDefinition.js';
import type { ButtonParameter, Template, TemplateComponentParameters, TemplateParameter } from '../../adapters/providers/types.js';
import {
  hubSignature,
  providerMessageId,
  SERVICE_PRICING,
  statusPayload,
  templatePricing,
  templateStatusPayload,
  type StatusPricing,
} from './whatsappPayloads.js';

export const FAKE_GRAPH_VERSION = 'v22.0';
/** Like the sandbox: recipients under this unassigned country code are undeliverable. */
const UNDELIVERABLE_PREFIX = '999';
const PAGE_SIZE = 4;
/** A number of a new business portfolio, as GET /{phone-number-id} describes it. */
const NEW_PORTFOLIO_NUMBER = {
  whatsapp_business_manager_messaging_limit: 'TIER_250',
  quality_rating: 'GREEN',
  throughput: { level: 'STANDARD' },
};

export type FakeGraphAccount = { phoneNumberId: string; businessAccountId: string; accessToken: string; appSecret: string };
export type WebhookSender = (rawBody: string, signature: string) => Promise<Response>;
export type RecordedSend = { phoneNumberId: string; body: Record<string, unknown> };

type GraphErrorSpec = { status: number; code: number; message: string; type?: string; details?: string };

class GraphFailure extends Error {
  constructor(readonly spec: GraphErrorSpec) {
    super(spec.message);
  }
}

function graphTemplate(template: Template) {
  return {
    name: template.name,
    parameter_format: templateSlots(template).named ? 'NAMED' : 'POSITIONAL',
    components: template.components,
    language: template.language,
    status: template.status,
    category: template.category,
    id: template.id,
    ...(template.quality_score ? { quality_score: template.quality_score } : {}),
    rejected_reason: template.rejected_reason ?? 'NONE',
  };
}

/** Graph's template parameters ({type: 'image', image: {link}}) in the adapter-neutral form. */
/** A Graph request's template component in the adapters' neutral form, for the provider's own slot check. */
function neutralComponent(component: Record<string, any>): TemplateComponentParameters {
  const parameters: Record<string, any>[] = Array.isArray(component['parameters']) ? component['parameters'] : [];
  if (component['type'] === 'button') {
    return {
      type: 'button',
      sub_type: component['sub_type'],
      index: Number(component['index']),
      parameters: parameters as ButtonParameter[],
    };
  }
  return {
    type: component['type'] as 'header' | 'body',
    parameters: parameters.map((parameter): TemplateParameter => {
      if (parameter['type'] === 'text') {
        const name = parameter['parameter_name'];
        return { type: 'text', text: String(parameter['text'] ?? ''), ...(name ? { parameter_name: String(name) } : {}) };
      }
      const media = parameter[parameter['type']] ?? {};
      return media.id ? { type: parameter['type'], id: String(media.id) } : { type: parameter['type'], link: String(media.link ?? '') };
    }),
  };
}

async function readJson(request: IncomingMessage): Promise<Record<string, any>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

/** A file the fake holds: Meta reports its SHA-256 in base64. */
export type FakeMedia = { phoneNumberId: string; bytes: Buffer; mimeType: string; filename: string | null };

export type FakeGraph = {
  /** The Graph base URL to configure (WHATSAPP_GRAPH_URL). */
  url: string;
  /** Files by media id: received ones a test adds, and uploads. */
  media: Map<string, FakeMedia>;
  /** Holds a file for the phone number, as if a contact had sent it; returns its id and base64 SHA-256. */
  addMedia(phoneNumberId: string, bytes: Buffer, mimeType: string): { id: string; sha256: string };
  /** Downloads of files served from the attachments host. */
  mediaDownloads: number;
  /** While true, the attachments host sends the headers and half of a file, then drops the connection. */
  cutDownloads: boolean;
  register(account: FakeGraphAccount): void;
  /** Where status webhooks go (the service's /webhooks/whatsapp). */
  deliverWebhooksTo(sender: WebhookSender): void;
  sends: RecordedSend[];
  templatePageRequests: number;
  /** Templates submitted, by id, with the body of each request that wrote them (create, then edits). */
  submitted: Map<string, { businessAccountId: string; template: Template; requests: Record<string, any>[] }>;
  /** Decides a submitted template's review and tells the service as Meta does (message_template_status_update). */
  reviewTemplate(id: string, event: 'APPROVED' | 'REJECTED', reason?: string): Promise<void>;
  /** Sends a signed webhook payload of a business account's template change (quality, category, status). */
  accountWebhook(businessAccountId: string, payload: unknown): Promise<Response>;
  /** Status webhooks the service did not accept (expected to stay empty). */
  webhookFailures: string[];
  /** What GET /{phone-number-id} answers per number (Meta's field names); a number not set answers a new portfolio's. */
  numberFields: Map<string, Record<string, unknown>>;
  /** Holds every send until the returned function is called; `arrived` resolves when one is waiting. */
  holdSends(): { arrived: Promise<void>; release: () => void };
  /** Waits for the status webhooks under way. */
  settle(): Promise<void>;
  close(): Promise<void>;
};

export async function startFakeGraph(): Promise<FakeGraph> {
  const accounts: FakeGraphAccount[] = [];
  const webhooks = new Set<Promise<void>>();
  let sender: WebhookSender | null = null;
  let hold: { gate: Promise<void>; arrived: () => void } | null = null;
  const attempts = createAttemptCounter();

  function authorize(request: IncomingMessage, account: FakeGraphAccount | undefined): FakeGraphAccount {
    if (!account || request.headers['authorization'] !== `Bearer ${account.accessToken}`) {
      throw new GraphFailure({
        status: 401,
        code: 190,
        type: 'OAuthException',
        message: 'Invalid OAuth access token - Cannot parse access token',
      });
    }
    return account;
  }

  /** What Meta charges for a send: a template at its category's rate, anything else as a free service reply. */
  function pricingOf(body: Record<string, any>): StatusPricing {
    if (body['type'] !== 'template') return SERVICE_PRICING;
    const template = catalog().find((candidate) => candidate.name === body['template']?.name);
    return templatePricing(template?.category ?? 'UTILITY');
  }

  /**
   * The status webhooks of an accepted send, with what it costs: sent, delivered, read; or, for a recipient of the
   * sandbox's error numbers whose error Meta reports after accepting (131026, 131047, 131049, 131050), failed with
   * Meta's error object.
   */
  function reportStatuses(account: FakeGraphAccount, id: string, to: string, body: Record<string, any>) {
    const reference = body['biz_opaque_callback_data'] as string | undefined;
    const pricing = pricingOf(body);
    if (!sender) return;
    const deliver = sender;
    const reported = sandboxFailureOf(to);
    const failure = reported?.reason === 'rate_limited' ? null : reported;
    const errors = failure
      ? [{ code: Number(failure.code), title: failure.title, message: failure.title, error_data: { details: failure.details } }]
      : undefined;
    const run = (async () => {
      for (const status of failure ? ['failed'] : ['sent', 'delivered', 'read']) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        const raw = JSON.stringify(
          statusPayload(account.phoneNumberId, { id, status, recipient: to, reference, pricing, ...(errors ? { errors } : {}) }),
        );
        const response = await deliver(raw, hubSignature(raw, account.appSecret));
        if (!response.ok) throw new Error(`the service refused a status webhook: ${response.status}`);
      }
    })();
    const tracked = run.catch((error: unknown) => void fake.webhookFailures.push(String(error))).finally(() => webhooks.delete(tracked));
    webhooks.add(tracked);
  }

  /** Who a send names: `to` (a phone number) takes precedence over `recipient` (a BSUID), as Graph's does. */
  function addressee(body: Record<string, any>): string | undefined {
    const to: unknown = body['to'] ?? body['recipient'];
    return typeof to === 'string' ? to : undefined;
  }

  function checkSend(body: Record<string, any>) {
    const to = addressee(body);
    if (body['messaging_product'] !== 'whatsapp' || to === undefined) {
      throw new GraphFailure({ status: 400, code: 100, message: 'Invalid parameter', details: 'messaging_product and to are required' });
    }
    if (to.startsWith(UNDELIVERABLE_PREFIX)) {
      throw new GraphFailure({ status: 400, code: 131026, message: 'Message undeliverable', details: 'Message Undeliverable.' });
    }
    // Meta refuses a send over the throughput or pair rate at once (the sandbox's error numbers, sandboxErrors.ts).
    const failure = sandboxFailureOf(to);
    if (failure?.reason === 'rate_limited' && attempts.fails(failure, String(body['biz_opaque_callback_data'] ?? to))) {
      throw new GraphFailure({ status: 400, code: Number(failure.code), message: failure.title, details: failure.details });
    }
    if (body['type'] === 'text') {
      if (typeof body['text']?.body !== 'string') throw new GraphFailure({ status: 400, code: 100, message: 'Invalid parameter' });
      return;
    }
    const mediaType = body['type'] as string;
    if (['image', 'video', 'audio', 'document'].includes(mediaType)) {
      const media = body[mediaType] ?? {};
      const known = typeof media.id === 'string' && fake.media.has(media.id);
      const linked = typeof media.link === 'string' && media.link.startsWith('https://');
      if (!known && !linked)
        throw new GraphFailure({ status: 400, code: 131053, message: 'Media upload error', details: 'Unknown media id or link' });
      if (mediaType === 'audio' && media.caption !== undefined)
        throw new GraphFailure({ status: 400, code: 100, message: 'Invalid parameter', details: 'audio takes no caption' });
      return;
    }
    if (body['type'] !== 'template') throw new GraphFailure({ status: 400, code: 131051, message: 'Unsupported message type' });
    const { name, language, components = [] } = body['template'] ?? {};
    const template = catalog().find((candidate) => candidate.name === name && candidate.language === language?.code);
    if (!template) {
      throw new GraphFailure({
        status: 404,
        code: 132001,
        message: 'Template name does not exist in the translation',
        details: `template name (${name}) does not exist in ${language?.code}`,
      });
    }
    if (template.status !== 'APPROVED') throw new GraphFailure({ status: 400, code: 132015, message: 'Template is paused' });
    const neutral = (components as Record<string, any>[]).map(neutralComponent);
    if (!fitsSlots(template, neutral)) {
      throw new GraphFailure({ status: 400, code: 132000, message: 'Number of parameters does not match the expected number of params' });
    }
  }

  function catalog(businessAccountId?: string): Template[] {
    const submitted = [...fake.submitted.values()].filter((entry) => !businessAccountId || entry.businessAccountId === businessAccountId);
    return [...SANDBOX_TEMPLATES, ...submitted.map((entry) => entry.template)];
  }

  function submittedTemplate(id: string) {
    const entry = fake.submitted.get(id);
    if (!entry) throw new GraphFailure({ status: 400, code: 100, message: `Unsupported request. Object with ID '${id}' does not exist` });
    return entry;
  }

  async function handleTemplates(request: IncomingMessage, response: ServerResponse, node: string, url: URL): Promise<boolean> {
    const answer = (body: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
      return true;
    };
    if (request.method === 'POST' && url.pathname.endsWith('/message_templates')) {
      authorize(
        request,
        accounts.find((candidate) => candidate.businessAccountId === node),
      );
      const body = await readJson(request);
      if (!/^[a-z0-9_]{1,512}$/.test(body['name'] ?? '') || !Array.isArray(body['components'])) {
        throw new GraphFailure({ status: 400, code: 100, message: 'Invalid parameter', details: 'name and components are required' });
      }
      if (catalog(node).some((template) => template.name === body['name'] && template.language === body['language'])) {
        throw new GraphFailure({ status: 400, code: 2388023, message: 'Message template language is being deleted or already exists' });
      }
      const id = String(randomInt(1e14, 2.8e14));
      const state = { id, name: body['name'], language: body['language'], status: 'PENDING' as const, category: body['category'] };
      fake.submitted.set(id, { businessAccountId: node, template: templateOfDefinition(state, body['components']), requests: [body] });
      return answer({ id, status: 'PENDING', category: body['category'] });
    }
    if (request.method === 'DELETE' && url.pathname.endsWith('/message_templates')) {
      authorize(
        request,
        accounts.find((candidate) => candidate.businessAccountId === node),
      );
      const entry = submittedTemplate(url.searchParams.get('hsm_id') ?? '');
      if (entry.template.name !== url.searchParams.get('name'))
        throw new GraphFailure({ status: 400, code: 100, message: 'Invalid parameter' });
      fake.submitted.delete(entry.template.id);
      return answer({ success: true });
    }
    if (request.method === 'POST' && fake.submitted.has(node)) {
      const entry = submittedTemplate(node);
      authorize(
        request,
        accounts.find((candidate) => candidate.businessAccountId === entry.businessAccountId),
      );
      const body = await readJson(request);
      entry.requests.push(body);
      entry.template = templateOfDefinition(
        { ...entry.template, status: 'PENDING', category: body['category'] ?? entry.template.category },
        body['components'],
      );
      return answer({ success: true });
    }
    return false;
  }

  function mediaOwner(request: IncomingMessage, id: string): FakeMedia {
    const file = fake.media.get(id);
    if (!file) {
      throw new GraphFailure({
        status: 400,
        code: 100,
        message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
      });
    }
    authorize(
      request,
      accounts.find((candidate) => candidate.phoneNumberId === file.phoneNumberId),
    );
    return file;
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://fake.graph');
    if (request.method === 'GET' && url.pathname === '/attachments/') {
      const file = mediaOwner(request, url.searchParams.get('mid') ?? '');
      fake.mediaDownloads++;
      response.writeHead(200, { 'content-type': file.mimeType, 'content-length': file.bytes.length });
      if (fake.cutDownloads) {
        response.write(file.bytes.subarray(0, file.bytes.length >> 1), () => response.destroy());
        return;
      }
      response.end(file.bytes);
      return;
    }
    const [version, node, edge] = url.pathname.split('/').filter(Boolean);
    if (version !== FAKE_GRAPH_VERSION) throw new GraphFailure({ status: 400, code: 2500, message: 'Unknown path components' });
    const number = accounts.find((account) => account.phoneNumberId === node);
    if (request.method === 'GET' && number && !edge) {
      authorize(request, number);
      const fields = fake.numberFields.get(number.phoneNumberId) ?? NEW_PORTFOLIO_NUMBER;
      const asked = (url.searchParams.get('fields') ?? '').split(',');
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: node, ...Object.fromEntries(Object.entries(fields).filter(([name]) => asked.includes(name))) }));
      return;
    }
    if (request.method === 'GET' && node && !edge && /^\d+$/.test(node) && !accounts.some((account) => account.phoneNumberId === node)) {
      const file = mediaOwner(request, node);
      if (url.searchParams.get('phone_number_id') !== file.phoneNumberId)
        throw new GraphFailure({ status: 400, code: 100, message: 'Invalid parameter' });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          messaging_product: 'whatsapp',
          url: `${origin}/attachments/?mid=${node}&ext=1700000000&hash=AbCd`,
          mime_type: file.mimeType,
          sha256: createHash('sha256').update(file.bytes).digest('base64'),
          file_size: String(file.bytes.length),
          id: node,
        }),
      );
      return;
    }
    if (request.method === 'POST' && edge === 'media') {
      const account = authorize(
        request,
        accounts.find((candidate) => candidate.phoneNumberId === node),
      );
      const form = await new Request('http://fake.graph/', {
        method: 'POST',
        headers: request.headers as Record<string, string>,
        body: Readable.toWeb(request) as ReadableStream,
        duplex: 'half',
      } as RequestInit).formData();
      const file = form.get('file');
      const type = form.get('type');
      if (form.get('messaging_product') !== 'whatsapp' || !(file instanceof File) || typeof type !== 'string') {
        throw new GraphFailure({
          status: 400,
          code: 100,
          message: 'Invalid parameter',
          details: 'messaging_product, file and type are required',
        });
      }
      const id = `9${String(randomInt(1e13, 2e14)).padStart(14, '0')}`;
      fake.media.set(id, {
        phoneNumberId: account.phoneNumberId,
        bytes: Buffer.from(await file.arrayBuffer()),
        mimeType: type,
        filename: file.name,
      });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id }));
      return;
    }
    if (request.method === 'POST' && edge === 'messages') {
      const account = authorize(
        request,
        accounts.find((candidate) => candidate.phoneNumberId === node),
      );
      const body = await readJson(request);
      if (hold) {
        hold.arrived();
        await hold.gate;
      }
      checkSend(body);
      fake.sends.push({ phoneNumberId: account.phoneNumberId, body });
      const id = providerMessageId();
      response.writeHead(200, { 'content-type': 'application/json' });
      const to = addressee(body)!;
      const contact = typeof body['to'] === 'string' ? { input: to, wa_id: to } : { input: to, user_id: to };
      response.end(JSON.stringify({ messaging_product: 'whatsapp', contacts: [contact], messages: [{ id }] }));
      reportStatuses(account, id, to, body);
      return;
    }
    if (node && (await handleTemplates(request, response, node, url))) return;
    if (request.method === 'GET' && edge === 'message_templates') {
      authorize(
        request,
        accounts.find((candidate) => candidate.businessAccountId === node),
      );
      fake.templatePageRequests++;
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 25), PAGE_SIZE);
      const start = Number(url.searchParams.get('after') ?? 0);
      const all = catalog(node);
      const page = all.slice(start, start + limit).map(graphTemplate);
      const end = start + page.length;
      const more = end < all.length;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          data: page,
          paging: {
            cursors: { before: String(start), after: String(end) },
            ...(more ? { next: `https://graph.facebook.com/${FAKE_GRAPH_VERSION}/${node}/message_templates?after=${end}` } : {}),
          },
        }),
      );
      return;
    }
    throw new GraphFailure({ status: 400, code: 100, message: 'Unsupported request' });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const spec: GraphErrorSpec =
        error instanceof GraphFailure ? error.spec : { status: 500, code: 1, message: 'An unknown error occurred' };
      response.writeHead(spec.status, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: {
            message: `(#${spec.code}) ${spec.message}`,
            type: spec.type ?? 'OAuthException',
            code: spec.code,
            ...(spec.details ? { error_data: { messaging_product: 'whatsapp', details: spec.details } } : {}),
            fbtrace_id: 'AbCdEfGhIjK',
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  const fake: FakeGraph = {
    url: `${origin}/${FAKE_GRAPH_VERSION}`,
    media: new Map(),
    mediaDownloads: 0,
    cutDownloads: false,
    addMedia(phoneNumberId, bytes, mimeType) {
      const id = `9${String(randomInt(1e13, 2e14)).padStart(14, '0')}`;
      fake.media.set(id, { phoneNumberId, bytes, mimeType, filename: null });
      return { id, sha256: createHash('sha256').update(bytes).digest('base64') };
    },
    register: (account) => void accounts.push(account),
    deliverWebhooksTo: (next) => void (sender = next),
    sends: [],
    templatePageRequests: 0,
    submitted: new Map(),
    async reviewTemplate(id, event, reason) {
      const entry = submittedTemplate(id);
      entry.template = { ...entry.template, status: event, ...(reason ? { rejected_reason: reason } : {}) };
      const response = await fake.accountWebhook(
        entry.businessAccountId,
        templateStatusPayload(entry.businessAccountId, entry.template, event, reason),
      );
      if (!response.ok) throw new Error(`the service refused a template webhook: ${response.status}`);
    },
    accountWebhook(businessAccountId, payload) {
      const account = accounts.find((candidate) => candidate.businessAccountId === businessAccountId);
      if (!sender || !account) throw new Error('no webhook receiver or no such account');
      const raw = JSON.stringify(payload);
      return sender(raw, hubSignature(raw, account.appSecret));
    },
    webhookFailures: [],
    numberFields: new Map(),
    holdSends() {
      let release!: () => void;
      let arrived!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const arrival = new Promise<void>((resolve) => (arrived = resolve));
      hold = { gate, arrived };
      return {
        arrived: arrival,
        release: () => {
          hold = null;
          release();
        },
      };
    },
    async settle() {
      while (webhooks.size > 0) await Promise.allSettled([...webhooks]);
    },
    async close() {
      await fake.settle();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
