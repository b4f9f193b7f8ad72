// Every template parameter, in Meta's exact request format: the Graph requests below are checked against the
// local fake Graph server field for field, following Meta's reference requests for template messages
// (https://developers.facebook.com/docs/whatsapp/cloud-api/guides/send-message-templates: text and media
// header parameters, positional and named body parameters with `parameter_name`, and `button` components
// with `sub_type` url, copy_code or quick_reply and a string `index`). Also: the values are checked against
// the template's own components, and a missing or extra slot is a 400 naming it.
import { describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import { openMessagingWorld, type MessagingWorkspace } from '../support/messaging.js';

function phone(): string {
  return `+1555${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
}

describe('template sends with every kind of parameter', async () => {
  const world = await openMessagingWorld('whatsapp');
  const { harness } = world;
  const graph = world.graph!;

  async function send(ws: MessagingWorkspace, template: Record<string, unknown>) {
    const response = await harness.fetch('/api/v1/messages', {
      key: ws.apiKey,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: phone(), template }),
    });
    return { status: response.status, body: await response.json() };
  }

  function lastTemplate(ws: MessagingWorkspace) {
    return graph.sends.filter((sent) => sent.phoneNumberId === ws.phoneNumberId).at(-1)?.body['template'];
  }

  it('sends positional values by part and as the flat list alike: a header text and body values in order', async () => {
    const ws = await world.workspace();
    const expected = {
      name: 'order_confirmation',
      language: { code: 'en_US' },
      components: [
        { type: 'header', parameters: [{ type: 'text', text: 'ORD-1' }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Ana' },
            { type: 'text', text: 'Friday' },
          ],
        },
      ],
    };
    const byPart = await send(ws, { name: 'order_confirmation', language: 'en_US', header: 'ORD-1', body: ['Ana', 'Friday'] });
    expect(byPart.status).toBe(201);
    expect(lastTemplate(ws)).toEqual(expected);
    const flat = await send(ws, { name: 'order_confirmation', language: 'en_US', parameters: ['ORD-1', 'Ana', 'Friday'] });
    expect(flat.status).toBe(201);
    expect(lastTemplate(ws)).toEqual(expected);
    expect(flat.body.message.body).toBe(
      'Order ORD-1 confirmed\nHi Ana, thank you for your order! It will ship on Friday.\nReply STOP to stop order updates',
    );
  });

  it('sends named values with parameter_name, a header image by link and a URL button suffix', async () => {
    const ws = await world.workspace();
    const sent = await send(ws, {
      name: 'order_shipped',
      language: 'en_US',
      header: { type: 'image', link: 'https://cdn.example.com/parcel.jpg' },
      body: { order_id: '#1001', first_name: 'Ana' },
      buttons: [{ index: 0, sub_type: 'url', value: 'ZX81' }],
    });
    expect(sent.status).toBe(201);
    expect(sent.body.message.body).toBe('Hi Ana, your order #1001 is on its way.');
    expect(lastTemplate(ws)).toEqual({
      name: 'order_shipped',
      language: { code: 'en_US' },
      components: [
        { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/parcel.jpg' } }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Ana', parameter_name: 'first_name' },
            { type: 'text', text: '#1001', parameter_name: 'order_id' },
          ],
        },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'ZX81' }] },
      ],
    });
  });

  it('sends a header media by uploaded media id, a copy-code button and a quick-reply payload', async () => {
    const ws = await world.workspace();
    const byId = await send(ws, {
      name: 'order_shipped',
      language: 'en_US',
      header: { type: 'image', id: '1013859600285441' },
      body: { first_name: 'Bo', order_id: '#7' },
      buttons: [{ index: 0, sub_type: 'url', value: 'A1' }],
    });
    expect(byId.status).toBe(201);
    expect((lastTemplate(ws) as any).components[0]).toEqual({
      type: 'header',
      parameters: [{ type: 'image', image: { id: '1013859600285441' } }],
    });

    const coupon = await send(ws, {
      name: 'coupon_offer',
      language: 'en_US',
      header: 'Ana',
      body: ['20%'],
      buttons: [
        { index: 1, sub_type: 'quick_reply', value: 'no-thanks' },
        { index: 0, sub_type: 'copy_code', value: 'SAVE20' },
      ],
    });
    expect(coupon.status).toBe(201);
    expect((lastTemplate(ws) as any).components.slice(2)).toEqual([
      { type: 'button', sub_type: 'copy_code', index: '0', parameters: [{ type: 'coupon_code', coupon_code: 'SAVE20' }] },
      { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'no-thanks' }] },
    ]);
  });

  it("refuses values that do not fit the template's components with 400 naming each slot, sending nothing", async () => {
    const ws = await world.workspace();
    const before = graph.sends.length;
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [
        {
          name: 'order_shipped',
          language: 'en_US',
          header: { type: 'image', link: 'https://cdn.example.com/a.jpg' },
          body: { first_name: 'Ana', nickname: 'A' },
        },
        {
          'template.body.order_id': 'is required',
          'template.body.nickname': 'is not a variable of the template',
          'template.buttons.0': 'the url button needs a value',
        },
      ],
      [
        {
          name: 'order_shipped',
          language: 'en_US',
          header: { type: 'video', link: 'https://cdn.example.com/a.mp4' },
          body: ['Ana', '#1'],
          buttons: [{ index: 0, sub_type: 'url', value: 'x' }],
        },
        { 'template.header.type': 'must be image', 'template.body': "the template's variables are named: give {first_name, order_id}" },
      ],
      [
        {
          name: 'coupon_offer',
          language: 'en_US',
          header: 'Ana',
          body: ['20%'],
          buttons: [{ index: 2, sub_type: 'quick_reply', value: 'x' }],
        },
        {
          'template.buttons.0': 'the copy_code button needs a value',
          'template.buttons.2': 'the template has no button with a variable at this index',
        },
      ],
    ];
    for (const [template, details] of cases) {
      const refused = await send(ws, template);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details });
    }
    const both = await send(ws, { name: 'coupon_offer', language: 'en_US', parameters: ['Ana', '20%'], body: ['20%'] });
    expect(both.status).toBe(400);
    expect(both.body.error.details).toHaveProperty(['template.parameters']);
    expect(graph.sends.length).toBe(before);
  });
});
