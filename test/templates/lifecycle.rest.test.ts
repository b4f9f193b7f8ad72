// Templates written here (issue 36), on both providers: Meta's rules refused before submitting (a 400 naming the
// field), a template submitted with every component kind, decided by the provider (the sandbox's review worker,
// or the fake Graph API sending Meta's message_template_status_update webhook), approved and sent, or rejected
// with its reason; quality and category webhooks (Meta's reference payloads, signed) update it; each change is a
// template.status event in the feed; edits go back to review and deletions reach the provider.
import { afterAll, describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import { openMessagingWorld, PROVIDERS, type MessagingWorkspace } from '../support/messaging.js';
import { templateCategoryPayload, templateQualityPayload } from '../support/whatsappPayloads.js';
import { startTemplateReviewer } from '../../workers/templates/reviewer.js';
import { createLogger } from '../../infra/observability/logger.js';

type Json = Record<string, any>;

const EVERY_COMPONENT = [
  { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['https://cdn.example.com/sample.jpg'] } },
  { type: 'BODY', text: 'Hi {{1}}, your code {{2}} saves 10% today.', example: { body_text: [['Ana', 'SAVE10']] } },
  { type: 'FOOTER', text: 'Reply STOP to opt out' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'QUICK_REPLY', text: 'Not now' },
      { type: 'URL', text: 'Shop', url: 'https://shop.example.com/c/{{1}}', example: ['https://shop.example.com/c/summer'] },
      { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+15550100000' },
      { type: 'COPY_CODE', example: ['SAVE10'] },
    ],
  },
];

function body(text: string, example?: string[]) {
  return { type: 'BODY', text, ...(example ? { example: { body_text: [example] } } : {}) };
}

describe.each(PROVIDERS)('templates written here on the %s provider', async (provider) => {
  const world = await openMessagingWorld(provider);
  const { harness } = world;
  const reviewer = startTemplateReviewer(harness.services, { pollMs: 20 }, createLogger('silent'));
  afterAll(() => reviewer.stop());

  async function call(ws: MessagingWorkspace, method: string, path: string, payload?: unknown) {
    const response = await harness.fetch(path, {
      key: ws.apiKey,
      method,
      ...(payload ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) } : {}),
    });
    return { status: response.status, body: (await response.json()) as Json };
  }

  const create = (ws: MessagingWorkspace, template: Json) =>
    call(ws, 'POST', '/api/v1/templates', { language: 'en_US', category: 'MARKETING', ...template });

  async function listed(ws: MessagingWorkspace, id: string): Promise<Json> {
    const { body: list } = await call(ws, 'GET', '/api/v1/templates');
    return list['templates'].find((template: Json) => template['id'] === id);
  }

  /** The provider's decision: the sandbox's worker after SANDBOX_TEMPLATE_REVIEW_MS, or Meta's webhook from the fake. */
  async function decided(ws: MessagingWorkspace, id: string, event: 'APPROVED' | 'REJECTED', reason?: string): Promise<Json> {
    if (world.graph) await world.graph.reviewTemplate(id, event, reason);
    await expect.poll(async () => (await listed(ws, id))?.['status'], { timeout: 5000 }).toBe(event);
    return listed(ws, id);
  }

  async function businessAccount(ws: MessagingWorkspace): Promise<string> {
    const row = await harness.db.prisma.integration.findUniqueOrThrow({ where: { id: ws.integrationId } });
    return row.business_account_id;
  }

  async function templateEvents(ws: MessagingWorkspace): Promise<Json[]> {
    const { body: feed } = await call(ws, 'GET', '/api/v1/events?type=template.status&limit=100');
    return feed['data'];
  }

  it("refuses each of Meta's rules before submitting, with a 400 naming the field, and submits nothing", async () => {
    const ws = await world.workspace();
    const submittedBefore = world.graph?.submitted.size ?? 0;
    const cases: [Json, string, RegExp][] = [
      [{ name: 'Summer Sale', components: [body('Hello there')] }, 'name', /lowercase/],
      [{ name: 'x'.repeat(513), components: [body('Hello there')] }, 'name', /512/],
      [{ name: 'long_body', components: [body('a'.repeat(1025))] }, 'components.0.text', /1024/],
      [{ name: 'starts', components: [body('{{1}}, hello', ['Ana'])] }, 'components.0.text', /start or end/],
      [{ name: 'ends', components: [body('Hello {{1}}', ['Ana'])] }, 'components.0.text', /start or end/],
      [{ name: 'gap', components: [body('Hi {{1}} and {{3}} ok', ['a', 'b'])] }, 'components.0.text', /without gaps/],
      [{ name: 'no_example', components: [body('Hi {{1}} there')] }, 'components.0.example', /example/],
      [{ name: 'named_upper', parameter_format: 'NAMED', components: [body('Hi {{First}} there')] }, 'components.0.text', /lowercase/],
      [
        {
          name: 'eleven',
          components: [
            body('Pick one'),
            { type: 'BUTTONS', buttons: Array.from({ length: 11 }, (_, i) => ({ type: 'QUICK_REPLY', text: `o${i}` })) },
          ],
        },
        'components.1.buttons',
        /at most 10/,
      ],
      [
        {
          name: 'four_quick_first',
          components: [
            body('Pick one'),
            {
              type: 'BUTTONS',
              buttons: [
                ...Array.from({ length: 4 }, (_, i) => ({ type: 'QUICK_REPLY', text: `o${i}` })),
                { type: 'URL', text: 'Go', url: 'https://example.com' },
              ],
            },
          ],
        },
        'components.1.buttons',
        /at most 3 quick replies/,
      ],
      [
        {
          name: 'scattered',
          components: [
            body('Pick one'),
            {
              type: 'BUTTONS',
              buttons: [
                { type: 'QUICK_REPLY', text: 'a' },
                { type: 'URL', text: 'Go', url: 'https://example.com' },
                { type: 'QUICK_REPLY', text: 'b' },
              ],
            },
          ],
        },
        'components.1.buttons',
        /grouped/,
      ],
      [
        {
          name: 'three_urls',
          components: [
            body('Pick one'),
            { type: 'BUTTONS', buttons: [1, 2, 3].map((i) => ({ type: 'URL', text: `u${i}`, url: `https://e.com/${i}` })) },
          ],
        },
        'components.1.buttons',
        /at most 2 URL/,
      ],
    ];
    for (const [template, field, reason] of cases) {
      const { status, body: error } = await create(ws, template);
      expect(status, `${template['name']}`).toBe(400);
      expect(error['error']['code']).toBe('VALIDATION_ERROR');
      expect(error['error']['details'][field], `${template['name']}: ${JSON.stringify(error)}`).toMatch(reason);
    }
    expect(await harness.db.prisma.messageTemplate.count({ where: { company_id: ws.workspaceId } })).toBe(0);
    expect(world.graph?.submitted.size ?? 0).toBe(submittedBefore);
  });

  it('submits a template with every component kind, which the provider approves, and sends it', async () => {
    const ws = await world.workspace();
    const name = `summer_${randomInt(1e6)}`;
    const created = await create(ws, { name, parameter_format: 'POSITIONAL', components: EVERY_COMPONENT });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name, status: 'PENDING', category: 'MARKETING', parameter_format: 'POSITIONAL' });
    const id = created.body['id'] as string;
    if (world.graph) {
      // What reached Graph is Meta's create request, samples included.
      expect(world.graph.submitted.get(id)?.requests[0]).toMatchObject({
        name,
        language: 'en_US',
        category: 'MARKETING',
        parameter_format: 'POSITIONAL',
      });
      expect(world.graph.submitted.get(id)?.requests[0]?.['components'][3]['buttons'][3]).toEqual({ type: 'COPY_CODE', example: 'SAVE10' });
    }
    const approved = await decided(ws, id, 'APPROVED');
    expect(approved['status_history'].map((entry: Json) => entry['status'])).toEqual(['PENDING', 'APPROVED']);
    expect(approved['components'][3]['buttons'].map((button: Json) => button['type'])).toEqual([
      'QUICK_REPLY',
      'URL',
      'PHONE_NUMBER',
      'COPY_CODE',
    ]);

    const sent = await call(ws, 'POST', '/api/v1/messages', {
      to: `+1555${randomInt(1e6, 9e6)}`,
      template: {
        name,
        language: 'en_US',
        header: { type: 'image', link: 'https://cdn.example.com/summer.jpg' },
        body: ['Ana', 'SAVE10'],
        buttons: [
          { index: 1, sub_type: 'url', value: 'summer' },
          { index: 3, sub_type: 'copy_code', value: 'SAVE10' },
        ],
      },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body['message']['body']).toBe('Hi Ana, your code SAVE10 saves 10% today.\nReply STOP to opt out');
    const events = await templateEvents(ws);
    expect(events.map((event) => [event['data']['change'], event['data']['template']['status']])).toEqual(
      expect.arrayContaining([
        ['submitted', 'PENDING'],
        ['status', 'APPROVED'],
      ]),
    );
  });

  it('keeps a rejected template with its reason, and it cannot be sent', async () => {
    const ws = await world.workspace();
    const name = `promise_${randomInt(1e6)}`;
    const created = await create(ws, { name, components: [body('Results guaranteed or your money back.')] });
    expect(created.status).toBe(201);
    const rejected = await decided(ws, created.body['id'], 'REJECTED', 'PROMOTIONAL');
    expect(rejected).toMatchObject({ status: 'REJECTED', rejected_reason: 'PROMOTIONAL' });
    expect(rejected['status_history'].at(-1)).toMatchObject({ status: 'REJECTED', reason: 'PROMOTIONAL' });
    const sent = await call(ws, 'POST', '/api/v1/messages', { to: '+15550109999', template: { name, language: 'en_US' } });
    expect(sent.status).toBe(422);
    expect(sent.body['error']['code']).toBe('TEMPLATE_NOT_APPROVED');
  });

  it("stores quality and category changes from the provider's signed webhooks, each a template.status event", async () => {
    const ws = await world.workspace();
    const name = `notice_${randomInt(1e6)}`;
    const created = await create(ws, { name, category: 'UTILITY', components: [body('Your order is ready for pickup.')] });
    const id = created.body['id'] as string;
    await decided(ws, id, 'APPROVED');
    const account = await businessAccount(ws);
    const ref = { id, name, language: 'en_US' };
    expect((await world.webhook(templateQualityPayload(account, ref, 'GREEN', 'YELLOW'), ws.appSecret)).status).toBe(200);
    expect((await world.webhook(templateCategoryPayload(account, ref, 'UTILITY', 'MARKETING'), ws.appSecret)).status).toBe(200);
    const template = await listed(ws, id);
    expect(template).toMatchObject({ category: 'MARKETING', quality_score: { score: 'YELLOW' } });
    const events = await templateEvents(ws);
    expect(events.map((event) => event['data']['change'])).toEqual(expect.arrayContaining(['quality', 'category']));
    expect(events.find((event) => event['data']['change'] === 'quality')?.['data']).toMatchObject({ previous: null, template: { id } });

    // A change signed with another secret is refused and changes nothing.
    const forged = await world.webhook(templateCategoryPayload(account, ref, 'MARKETING', 'UTILITY'), 'not-the-secret');
    expect(forged.status).toBe(401);
    expect((await listed(ws, id))['category']).toBe('MARKETING');
  });

  it('edits a decided template back into review, refuses an edit while pending, and deletes it at the provider', async () => {
    const ws = await world.workspace();
    const name = `edit_${randomInt(1e6)}`;
    const id = (await create(ws, { name, components: [body('First words here.')] })).body['id'] as string;
    const early = await call(ws, 'PATCH', `/api/v1/templates/${id}`, { components: [body('Second words here.')] });
    expect(early.status).toBe(409);
    await decided(ws, id, 'APPROVED');
    const badEdit = await call(ws, 'PATCH', `/api/v1/templates/${id}`, { components: [body('{{1}} starts here.', ['x'])] });
    expect(badEdit.status).toBe(400);
    expect(badEdit.body['error']['details']).toHaveProperty(['components.0.text']);
    const edited = await call(ws, 'PATCH', `/api/v1/templates/${id}`, { components: [body('Second words here.')] });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ status: 'PENDING', components: [{ type: 'BODY', text: 'Second words here.' }] });
    if (world.graph) expect(world.graph.submitted.get(id)?.requests.at(-1)?.['components']).toEqual([body('Second words here.')]);
    await decided(ws, id, 'APPROVED');
    const deleted = await call(ws, 'DELETE', `/api/v1/templates/${id}`);
    expect(deleted.status).toBe(200);
    expect(await listed(ws, id)).toBeUndefined();
    if (world.graph) expect(world.graph.submitted.has(id)).toBe(false);
    expect((await call(ws, 'DELETE', `/api/v1/templates/${id}`)).status).toBe(404);
  });
});
