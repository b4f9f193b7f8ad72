// Message templates through GraphQL, on the `sandbox` provider and on `whatsapp` against the fake Graph
// API (whose catalog is the sandbox's, served in pages): the full catalog in the spec's Template shape, the
// status filter, the integration checks (404 INTEGRATION_NOT_FOUND) and the short in-process cache.
import { describe, expect, it } from 'vitest';
import { PROVIDERS, openMessagingWorld } from '../support/messaging.js';
import { SANDBOX_TEMPLATES } from '../../adapters/providers/sandboxCatalog.js';
import { TEMPLATE_CATEGORIES, TEMPLATE_STATUSES } from '../../adapters/providers/types.js';

const TEMPLATES = `query Templates($provider: String, $status: String) {
  templates(provider: $provider, status: $status) {
    total
    templates {
      id name status category language rejected_reason
      quality_score { score date }
      components { type text format buttons { type text phone_number url } }
    }
  }
}`;

type TemplateJson = { name: string; language: string; status: string; category: string; components: Record<string, unknown>[] };

/** The catalog as GraphQL returns it: sorted by name and language, absent optional fields as null. */
const EXPECTED = [...SANDBOX_TEMPLATES]
  .sort((a, b) => a.name.localeCompare(b.name) || a.language.localeCompare(b.language))
  .map((template) => ({
    id: template.id,
    name: template.name,
    status: template.status,
    category: template.category,
    language: template.language,
    rejected_reason: template.rejected_reason ?? null,
    quality_score: template.quality_score ?? null,
    components: template.components.map((component) => ({
      type: component.type,
      text: 'text' in component ? (component.text ?? null) : null,
      format: component.type === 'HEADER' ? component.format : null,
      buttons: component.type === 'BUTTONS' ? component.buttons.map((button) => ({ phone_number: null, url: null, ...button })) : null,
    })),
  }));

describe.each(PROVIDERS)('templates on the %s provider', async (provider) => {
  const world = await openMessagingWorld(provider);
  const { harness } = world;

  async function templates(key: string, variables: Record<string, unknown> = {}) {
    return harness.graphql<{ templates: { total: number; templates: TemplateJson[] } }>(key, TEMPLATES, variables);
  }

  it('lists every template of the integration in the spec shape, covering each status, category and component type', async () => {
    const ws = await world.workspace();
    const { status, body } = await templates(ws.apiKey);
    expect(status).toBe(200);
    expect(body.data?.templates).toEqual({ total: EXPECTED.length, templates: EXPECTED });

    const listed = body.data!.templates.templates;
    expect(new Set(listed.map((template) => template.status))).toEqual(new Set(TEMPLATE_STATUSES));
    expect(new Set(listed.map((template) => template.category))).toEqual(new Set(TEMPLATE_CATEGORIES));
    const headerFormats = listed.flatMap((template) => template.components.filter((c) => c['type'] === 'HEADER').map((c) => c['format']));
    expect(new Set(headerFormats)).toEqual(new Set(['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT']));
    const buttonTypes = listed.flatMap((template) =>
      template.components.flatMap((c) => (c['buttons'] as { type: string }[] | null) ?? []).map((b) => b.type),
    );
    expect(buttonTypes).toEqual(expect.arrayContaining(['PHONE_NUMBER', 'URL', 'QUICK_REPLY']));
    expect(listed.find((template) => template.status === 'REJECTED')).toMatchObject({ rejected_reason: 'TAG_CONTENT_MISMATCH' });
  });

  it("filters by status, in the guides' lowercase or the schema's uppercase, and refuses an unknown status with 400", async () => {
    const ws = await world.workspace();
    for (const status of ['approved', 'APPROVED', 'pending', 'rejected', 'Paused', 'disabled']) {
      const { body } = await templates(ws.apiKey, { status });
      const wanted = EXPECTED.filter((template) => template.status === status.toUpperCase());
      expect(body.data?.templates).toEqual({ total: wanted.length, templates: wanted });
    }
    const { status, body } = await templates(ws.apiKey, { status: 'live' });
    // A failed field of an answer with data: 200, the error carrying its code (infra/graphql/partialAnswers.ts).
    expect(status).toBe(200);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: { status: expect.any(String) } });
  });

  it('answers 404 INTEGRATION_NOT_FOUND for another provider name and for a disconnected integration', async () => {
    const ws = await world.workspace();
    expect((await templates(ws.apiKey, { provider })).body.data?.templates.total).toBe(EXPECTED.length);

    const other = await templates(ws.apiKey, { provider: 'telegram' });
    // A failed field of an answer with data: 200, the error carrying its code (infra/graphql/partialAnswers.ts).
    expect(other.status).toBe(200);
    expect(other.body.errors?.[0]?.extensions).toMatchObject({ code: 'INTEGRATION_NOT_FOUND' });

    // Connecting and disconnecting integrations is an operator action outside this API; set it directly.
    await harness.db.prisma.integration.updateMany({ where: { company_id: ws.workspaceId }, data: { status: 'disconnected' } });
    const disconnected = await templates(ws.apiKey);
    expect(disconnected.status).toBe(200);
    expect(disconnected.body.errors?.[0]?.extensions).toMatchObject({ code: 'INTEGRATION_NOT_FOUND' });
  });

  it('needs the templates scope', async () => {
    const ws = await world.workspace();
    const { status, body } = await templates(await harness.key(ws.workspaceId, ['messages']));
    // A failed field of an answer with data: 200, the error carrying its code (infra/graphql/partialAnswers.ts).
    expect(status).toBe(200);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
  });

  it.runIf(provider === 'whatsapp')(
    'reads the business account page by page, then serves repeated reads from the short cache',
    async () => {
      const ws = await world.workspace();
      const graph = world.graph!;
      const before = graph.templatePageRequests;
      await templates(ws.apiKey);
      const pages = graph.templatePageRequests - before;
      expect(pages).toBe(Math.ceil(SANDBOX_TEMPLATES.length / 4));
      await templates(ws.apiKey, { status: 'approved' });
      await templates(ws.apiKey);
      expect(graph.templatePageRequests - before).toBe(pages);
    },
  );
});
