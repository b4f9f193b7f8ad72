// Real WhatsApp traffic beyond text, on both providers (the sandbox with its sample files; `whatsapp` against
// the fake Graph API): Meta's reference payload of every message kind is stored as what it is (type, media,
// location, contact cards, the chosen reply's id, reactions and replies linked to the message they answer),
// GET /api/v1/messages/{id}/media streams a received file fetched from the provider once, checked against its
// SHA-256 and kept, and POST /api/v1/messages sends media by upload or link within the 24-hour window, with
// WhatsApp's limits as 400s naming the field. Payloads follow Meta's webhook reference pages:
// https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/
// (image, video, audio, document, sticker, location, contacts, interactive, button, reaction; `context` for replies).
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openMessagingWorld, PROVIDERS, type MessagingWorkspace } from '../support/messaging.js';
import { inboundPayload, providerMessageId } from '../support/whatsappPayloads.js';
import { projectPath } from '../../infra/paths.js';
import { postJson } from '../support/restFixtures.js';
import { openMcpClient } from '../support/mcpClient.js';

function waId(): string {
  return `1555${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
}

const PHOTO = readFileSync(projectPath('adapters', 'providers', 'sandboxMedia', 'photo.jpg'));
/** A 1×1 PNG. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe.each(PROVIDERS)('media and structured messages on the %s provider', async (provider) => {
  const world = await openMessagingWorld(provider);
  const { harness, graph } = world;
  const prisma = harness.db.prisma;

  /** A received file the provider holds: the sandbox's sample photo, or one the fake Graph API is given. */
  function receivedPhoto(ws: MessagingWorkspace, bytes: Buffer = PHOTO) {
    if (!graph) return { id: 'sandbox-media-photo', sha256: createHash('sha256').update(bytes).digest('hex') };
    return graph.addMedia(ws.phoneNumberId, bytes, 'image/jpeg');
  }

  async function receive(ws: MessagingWorkspace, from: string, message: Record<string, unknown>, id = providerMessageId()) {
    expect((await world.webhook(inboundPayload(ws.phoneNumberId, { from, id, message }), ws.appSecret)).status).toBe(200);
    return prisma.message.findUniqueOrThrow({
      where: { company_id_provider_message_id: { company_id: ws.workspaceId, provider_message_id: id } },
    });
  }

  async function getMessage(ws: MessagingWorkspace, id: string) {
    const response = await harness.fetch(`/api/v1/messages/${id}`, { key: ws.apiKey });
    expect(response.status).toBe(200);
    return response.json();
  }

  it("stores Meta's reference payload of every kind as what it is, and links replies and reactions to their message", async () => {
    const ws = await world.workspace();
    const from = waId();
    const photo = receivedPhoto(ws);
    const first = await receive(ws, from, { type: 'text', text: { body: 'Is my order ready?' } });
    const image = await receive(ws, from, {
      type: 'image',
      image: { caption: 'The damaged box', mime_type: 'image/jpeg', sha256: photo.sha256, id: photo.id },
    });
    const document = await receive(ws, from, {
      type: 'document',
      document: { caption: 'Invoice', filename: 'invoice.pdf', mime_type: 'application/pdf', sha256: 'c2hh', id: '90001' },
    });
    const video = await receive(ws, from, {
      type: 'video',
      video: { caption: 'Unboxing', mime_type: 'video/mp4', sha256: 'c2hh', id: '90003' },
    });
    const sticker = await receive(ws, from, {
      type: 'sticker',
      sticker: { mime_type: 'image/webp', sha256: 'c2hh', id: '90002', animated: false },
    });
    const location = await receive(ws, from, {
      type: 'location',
      location: { latitude: 38.7223, longitude: -9.1393, name: 'Home', address: 'Rua Augusta 1, Lisboa', url: 'https://example.com/home' },
    });
    const contacts = await receive(ws, from, {
      type: 'contacts',
      contacts: [
        {
          name: { formatted_name: 'Ana Silva', first_name: 'Ana', last_name: 'Silva' },
          phones: [{ phone: '+351 912 345 678', wa_id: '351912345678', type: 'CELL' }],
          emails: [{ email: 'ana@example.com', type: 'WORK' }],
          org: { company: 'Lisbon Shop' },
        },
      ],
    });
    const list = await receive(ws, from, {
      type: 'interactive',
      interactive: { type: 'list_reply', list_reply: { id: 'slot-0930', title: '09:30', description: 'Tuesday morning' } },
    });
    const quick = await receive(ws, from, {
      type: 'button',
      button: { text: 'Yes, confirm', payload: 'CONFIRM_ORDER_1001' },
      context: { from: '15550100000', id: 'wamid.template' },
    });
    const reply = await receive(ws, from, { type: 'text', text: { body: 'this one' }, context: { from, id: first.provider_message_id } });
    const reaction = await receive(ws, from, { type: 'reaction', reaction: { message_id: image.provider_message_id, emoji: '👍' } });
    const unknown = await receive(ws, from, { type: 'order', order: { catalog_id: '1', product_items: [] } });

    expect(await getMessage(ws, image.id)).toMatchObject({
      type: 'image',
      body: 'The damaged box',
      media: { id: photo.id, mime_type: 'image/jpeg', sha256: photo.sha256, caption: 'The damaged box', filename: null },
    });
    expect(await getMessage(ws, document.id)).toMatchObject({ type: 'document', media: { filename: 'invoice.pdf', caption: 'Invoice' } });
    expect(await getMessage(ws, video.id)).toMatchObject({
      type: 'video',
      body: 'Unboxing',
      media: { id: '90003', mime_type: 'video/mp4' },
    });
    expect(await getMessage(ws, sticker.id)).toMatchObject({ type: 'sticker', body: '[sticker]', media: { mime_type: 'image/webp' } });
    expect(await getMessage(ws, location.id)).toMatchObject({
      type: 'location',
      location: { latitude: 38.7223, longitude: -9.1393, name: 'Home', address: 'Rua Augusta 1, Lisboa', url: 'https://example.com/home' },
    });
    expect(await getMessage(ws, contacts.id)).toMatchObject({
      type: 'contacts',
      body: '[contacts] Ana Silva',
      contacts: [
        {
          name: 'Ana Silva',
          phones: [{ phone: '+351 912 345 678', wa_id: '351912345678', type: 'CELL' }],
          emails: [{ email: 'ana@example.com', type: 'WORK' }],
          organization: 'Lisbon Shop',
        },
      ],
    });
    expect(await getMessage(ws, list.id)).toMatchObject({
      type: 'interactive',
      body: '09:30',
      reply: { kind: 'list_reply', id: 'slot-0930', title: '09:30', description: 'Tuesday morning' },
    });
    // A context naming a message this workspace never saw links to nothing.
    expect(await getMessage(ws, quick.id)).toMatchObject({
      type: 'button',
      reply: { kind: 'quick_reply', id: 'CONFIRM_ORDER_1001', title: 'Yes, confirm' },
      reply_to_message_id: null,
    });
    expect(await getMessage(ws, reply.id)).toMatchObject({ type: 'text', reply_to_message_id: first.id });
    expect(await getMessage(ws, reaction.id)).toMatchObject({ type: 'reaction', reaction: { emoji: '👍' }, reply_to_message_id: image.id });
    expect(await getMessage(ws, unknown.id)).toMatchObject({ type: 'unsupported', body: '[order]', media: null, location: null });
    expect((await getMessage(ws, first.id)).reply).toBeNull();
  });

  it('streams a received file from GET /api/v1/messages/{id}/media: fetched once, checked, kept, 304 for its ETag', async () => {
    const ws = await world.workspace();
    const photo = receivedPhoto(ws);
    const image = await receive(ws, waId(), { type: 'image', image: { mime_type: 'image/jpeg', sha256: photo.sha256, id: photo.id } });
    const downloadsBefore = graph?.mediaDownloads ?? 0;

    const file = await harness.fetch(`/api/v1/messages/${image.id}/media`, { key: ws.apiKey });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    const sha256 = createHash('sha256').update(PHOTO).digest('hex');
    expect(file.headers.get('etag')).toBe(`"${sha256}"`);
    expect(file.headers.get('content-length')).toBe(String(PHOTO.length));
    expect(Buffer.from(await file.arrayBuffer()).equals(PHOTO)).toBe(true);

    const again = await harness.fetch(`/api/v1/messages/${image.id}/media`, { key: ws.apiKey });
    expect(Buffer.from(await again.arrayBuffer()).equals(PHOTO)).toBe(true);
    if (graph) expect(graph.mediaDownloads).toBe(downloadsBefore + 1);
    const unchanged = await harness.fetch(`/api/v1/messages/${image.id}/media`, {
      key: ws.apiKey,
      headers: { 'if-none-match': `"${sha256}"` },
    });
    expect(unchanged.status).toBe(304);
    // The record learns the size the provider's webhook does not give.
    expect((await getMessage(ws, image.id)).media.size).toBe(PHOTO.length);

    const other = await world.workspace();
    const foreign = await harness.fetch(`/api/v1/messages/${image.id}/media`, { key: other.apiKey });
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error.code).toBe('NOT_FOUND');
  });

  it('refuses a file that does not match its SHA-256 (502, nothing kept), and answers 404 for a message without media or a file the provider lost', async () => {
    const ws = await world.workspace();
    const from = waId();
    const wrong = createHash('sha256')
      .update('something else')
      .digest(graph ? 'base64' : 'hex');
    const photo = receivedPhoto(ws);
    const tampered = await receive(ws, from, { type: 'image', image: { mime_type: 'image/jpeg', sha256: wrong, id: photo.id } });
    const refused = await harness.fetch(`/api/v1/messages/${tampered.id}/media`, { key: ws.apiKey });
    expect(refused.status).toBe(502);
    expect((await refused.json()).error).toMatchObject({ code: 'PROVIDER_ERROR', details: { reason: 'unavailable', retryable: true } });

    const text = await receive(ws, from, { type: 'text', text: { body: 'hi' } });
    const none = await harness.fetch(`/api/v1/messages/${text.id}/media`, { key: ws.apiKey });
    expect(none.status).toBe(404);
    expect((await none.json()).error.message).toBe('This message has no media file');

    const lost = await receive(ws, from, {
      type: 'audio',
      audio: { mime_type: 'audio/ogg', sha256: 'c2hh', id: '404404404404404', voice: true },
    });
    const gone = await harness.fetch(`/api/v1/messages/${lost.id}/media`, { key: ws.apiKey });
    expect(gone.status).toBe(404);
    expect((await gone.json()).error.message).toMatch(/no longer has this media file/);
  });

  it.runIf(provider === 'whatsapp')(
    'answers a download cut off midway as a retryable 502, keeps nothing of it, and serves the whole file on the next try',
    async () => {
      const ws = await world.workspace();
      // Bytes no earlier test kept, so the file must come from the provider.
      const bytes = Buffer.concat([PHOTO, randomBytes(16)]);
      const photo = receivedPhoto(ws, bytes);
      const image = await receive(ws, waId(), { type: 'image', image: { mime_type: 'image/jpeg', sha256: photo.sha256, id: photo.id } });
      graph!.cutDownloads = true;
      try {
        const cut = await harness.fetch(`/api/v1/messages/${image.id}/media`, { key: ws.apiKey });
        expect(cut.status).toBe(502);
        expect((await cut.json()).error).toMatchObject({
          code: 'PROVIDER_ERROR',
          message: 'The messaging provider failed: The media file download was cut off',
          details: { reason: 'unavailable', retryable: true },
        });
      } finally {
        graph!.cutDownloads = false;
      }
      const whole = await harness.fetch(`/api/v1/messages/${image.id}/media`, { key: ws.apiKey });
      expect(whole.status).toBe(200);
      expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    },
  );

  it('sends media by upload (to the provider first) and by link within the window; the uploaded file reads back', async () => {
    const ws = await world.workspace();
    await receive(ws, waId(), { type: 'text', text: { body: 'Send me the photo' } });
    const conversation = await prisma.conversation.findFirstOrThrow({ where: { company_id: ws.workspaceId } });
    const send = (media: Record<string, unknown>) =>
      postJson(harness, '/api/v1/messages', ws.apiKey, { conversation_id: conversation.id, media });

    const uploaded = await send({
      type: 'image',
      caption: 'Your parcel',
      upload: { filename: 'pixel.png', content_type: 'image/png', content_base64: PIXEL.toString('base64') },
    });
    expect(uploaded.status).toBe(201);
    const { message } = uploaded.body;
    expect(message).toMatchObject({ body: 'Your parcel', direction: 'outbound' });
    const stored = await getMessage(ws, message.id);
    expect(stored).toMatchObject({
      type: 'image',
      media: { mime_type: 'image/png', filename: 'pixel.png', caption: 'Your parcel', size: PIXEL.length },
    });
    if (graph) {
      expect(graph.sends.at(-1)!.body).toMatchObject({ type: 'image', image: { id: stored.media.id, caption: 'Your parcel' } });
      expect(graph.media.get(stored.media.id)!.bytes.equals(PIXEL)).toBe(true);
    }
    const readBack = await harness.fetch(`/api/v1/messages/${message.id}/media`, { key: ws.apiKey });
    expect(Buffer.from(await readBack.arrayBuffer()).equals(PIXEL)).toBe(true);

    const linked = await send({ type: 'document', link: 'https://files.example.com/terms.pdf' });
    expect(linked.status).toBe(201);
    if (graph)
      expect(graph.sends.at(-1)!.body).toMatchObject({ type: 'document', document: { link: 'https://files.example.com/terms.pdf' } });
  });

  it('sends media the same through GraphQL and the MCP messages_send tool', async () => {
    const ws = await world.workspace();
    await receive(ws, waId(), { type: 'text', text: { body: 'photo please' } });
    const conversation = await prisma.conversation.findFirstOrThrow({ where: { company_id: ws.workspaceId } });
    const media = {
      type: 'image',
      caption: 'Here',
      upload: { filename: 'p.png', content_type: 'image/png', content_base64: PIXEL.toString('base64') },
    };
    const viaGraphql = await harness.graphql<{ messageSend: { message: { body: string; status: string } } }>(
      ws.apiKey,
      'mutation ($id: ID!, $media: MediaSendInput!) { messageSend(conversation_id: $id, media: $media) { message { body status } } }',
      { id: conversation.id, media },
    );
    expect(viaGraphql.body.data?.messageSend.message).toEqual({ body: 'Here', status: 'sent' });

    const mcp = await openMcpClient(harness, ws.apiKey);
    const result = await mcp.call('messages_send', {
      conversation_id: conversation.id,
      media: { type: 'document', link: 'https://files.example.com/terms.pdf' },
    });
    await mcp.close();
    expect(result.isError).toBe(false);
    const sent = await prisma.message.findMany({
      where: { conversation_id: conversation.id, direction: 'outbound' },
      orderBy: { id: 'asc' },
    });
    expect(sent.map((message) => message.type)).toEqual(['image', 'document']);
  });

  it('refuses what WhatsApp would refuse with 400 naming the field, and free-form media outside the window with 422, writing nothing', async () => {
    const ws = await world.workspace();
    await receive(ws, waId(), { type: 'text', text: { body: 'hello' } });
    const conversation = await prisma.conversation.findFirstOrThrow({ where: { company_id: ws.workspaceId } });
    const send = (body: Record<string, unknown>) =>
      postJson(harness, '/api/v1/messages', ws.apiKey, { conversation_id: conversation.id, ...body });
    const upload = { filename: 'a.png', content_type: 'image/png', content_base64: PIXEL.toString('base64') };
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [
        { media: { type: 'audio', caption: 'listen', upload: { ...upload, content_type: 'audio/ogg' } } },
        { 'media.caption': 'audio takes no caption' },
      ],
      [
        { media: { type: 'image', upload: { ...upload, content_type: 'application/pdf' } } },
        { 'media.upload.content_type': 'must be one of image/jpeg, image/png for image' },
      ],
      [
        { media: { type: 'image', upload, link: 'https://files.example.com/a.png' } },
        { 'media.link': 'give either link or upload, not both' },
      ],
      [{ media: { type: 'image', link: 'http://files.example.com/a.png' } }, { 'media.link': 'must be an https URL' }],
      [{ media: { type: 'gif', upload } }, { 'media.type': 'must be one of image, video, audio, document' }],
      [
        { media: { type: 'image', upload: { ...upload, content_base64: 'not base64!' } } },
        { 'media.upload.content_base64': 'must be base64' },
      ],
      [{ body: 'text too', media: { type: 'image', upload } }, { body: 'give one of body (a free-form text), template or media' }],
    ];
    for (const [body, details] of cases) {
      const refused = await send(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.details).toEqual(details);
    }
    await prisma.conversation.update({ where: { id: conversation.id }, data: { last_message_at: new Date(Date.now() - 25 * 3_600_000) } });
    const closed = await send({ media: { type: 'image', upload } });
    expect(closed.status).toBe(422);
    expect(closed.body.error.code).toBe('MESSAGING_WINDOW_CLOSED');
    expect(await prisma.message.count({ where: { conversation_id: conversation.id, direction: 'outbound' } })).toBe(0);
  });
});
