// FAQs on every surface: REST (POST/GET/PATCH/DELETE /api/v1/knowledge/faqs(/{id})), GraphQL (knowledgeFaqs,
// knowledgeFaqCreate…) and MCP (knowledge_faqs_list/create/update/delete through the SDK's own client). The language
// is detected when not given; bad input is a 400 in the spec's error form naming the field; a key without the
// `knowledge` scope gets 403, no key 401, and another workspace's FAQ is 404 on every verb. Documents carry their
// language too, given or detected.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { expectError, getJson, postJson, sendJson } from '../support/restFixtures.js';
import { openMcpClient } from '../support/mcpClient.js';

const h = await openHarness();
const shop = await h.workspace('FAQ shop');
const other = await h.workspace('FAQ other');
const key = shop.api_key;

type Faq = { id: string; question: string; answer: string; language: string };

describe('FAQs over REST', () => {
  it('creates, lists, gets, updates and deletes an FAQ, detecting its language', async () => {
    const created = await postJson(h, '/api/v1/knowledge/faqs', key, {
      question: 'Vocês entregam aos domingos?',
      answer: 'Não, entregamos de segunda a sábado.',
    });
    expect(created.status).toBe(201);
    const faq = created.body as Faq;
    expect(faq).toMatchObject({ question: 'Vocês entregam aos domingos?', answer: 'Não, entregamos de segunda a sábado.', language: 'pt' });

    const listed = await getJson(h, '/api/v1/knowledge/faqs', { key });
    expect(listed.body).toMatchObject({ data: [expect.objectContaining({ id: faq.id })], has_more: false });
    expect((await getJson(h, `/api/v1/knowledge/faqs/${faq.id}`, { key })).body).toMatchObject({ id: faq.id, language: 'pt' });

    const updated = await sendJson(h, 'PATCH', `/api/v1/knowledge/faqs/${faq.id}`, key, {
      question: 'Do you deliver on Sundays?',
      answer: 'No, we deliver Monday to Saturday.',
    });
    expect(updated.body).toMatchObject({ id: faq.id, question: 'Do you deliver on Sundays?', language: 'en' });
    const given = await sendJson(h, 'PATCH', `/api/v1/knowledge/faqs/${faq.id}`, key, { language: 'it' });
    expect(given.body).toMatchObject({ question: 'Do you deliver on Sundays?', language: 'it' });

    const deleted = await sendJson(h, 'DELETE', `/api/v1/knowledge/faqs/${faq.id}`, key);
    expect(deleted.status).toBe(200);
    expectError(await getJson(h, `/api/v1/knowledge/faqs/${faq.id}`, { key }), 404, { code: 'NOT_FOUND' });
    expect(await h.db.prisma.knowledgeSentence.count({ where: { faq_id: faq.id } })).toBe(0);
  });

  it('refuses bad input with the field at fault', async () => {
    expectError(await postJson(h, '/api/v1/knowledge/faqs', key, { question: ' ', answer: 'x' }), 400, {
      code: 'VALIDATION_ERROR',
      details: { question: 'is required' },
    });
    expectError(await postJson(h, '/api/v1/knowledge/faqs', key, { question: 'q?', answer: 'a'.repeat(2001) }), 400, {
      code: 'VALIDATION_ERROR',
      details: { answer: 'must be at most 2000 characters' },
    });
    expectError(await postJson(h, '/api/v1/knowledge/faqs', key, { question: 'q?', answer: 'a', language: 'portuguese' }), 400, {
      code: 'VALIDATION_ERROR',
      details: { language: 'must be an ISO 639-1 language code such as en, pt or hi' },
    });
  });

  it('keeps other doors shut: no key, a key without the knowledge scope, another workspace', async () => {
    const faq = (await postJson(h, '/api/v1/knowledge/faqs', key, { question: 'Gift cards?', answer: 'Yes, in store.' })).body as Faq;
    expect((await getJson(h, '/api/v1/knowledge/faqs')).status).toBe(401);
    const narrow = await h.key(shop.workspace_id, ['customers']);
    expectError(await postJson(h, '/api/v1/knowledge/faqs', narrow, { question: 'q?', answer: 'a' }), 403, { code: 'INSUFFICIENT_SCOPE' });
    expectError(await getJson(h, '/api/v1/knowledge/faqs', { key: narrow }), 403, { code: 'INSUFFICIENT_SCOPE' });
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { answer: 'No.' }],
      ['DELETE', undefined],
    ] as const) {
      expectError(await sendJson(h, method, `/api/v1/knowledge/faqs/${faq.id}`, other.api_key, body), 404, { code: 'NOT_FOUND' });
    }
    expect((await getJson(h, '/api/v1/knowledge/faqs', { key: other.api_key })).body).toMatchObject({ data: [] });
    expect((await getJson(h, `/api/v1/knowledge/faqs/${faq.id}`, { key })).body).toMatchObject({ answer: 'Yes, in store.' });
  });
});

describe('FAQs over MCP and GraphQL', () => {
  it('offers the knowledge_faqs tools', async () => {
    const mcp = await openMcpClient(h, key);
    const { tools } = await mcp.client.listTools();
    expect(
      tools
        .map((tool) => tool.name)
        .filter((name) => name.startsWith('knowledge_faqs'))
        .sort(),
    ).toEqual(['knowledge_faqs_create', 'knowledge_faqs_delete', 'knowledge_faqs_list', 'knowledge_faqs_update']);
    const call = async (name: string, args: Record<string, unknown>) => {
      const { isError, json } = await mcp.call(name, args);
      expect(isError).toBe(false);
      return json;
    };
    const faq = await call('knowledge_faqs_create', { question: '¿Tienen tarjetas regalo?', answer: 'Sí, en la tienda.' });
    expect(faq).toMatchObject({ language: 'es' });
    expect(await call('knowledge_faqs_update', { id: faq['id'], answer: 'Sí, en la tienda y en la web.' })).toMatchObject({
      answer: 'Sí, en la tienda y en la web.',
    });
    expect((await call('knowledge_faqs_list', {}))['data'].map((item: Faq) => item.id)).toContain(faq['id']);
    await call('knowledge_faqs_delete', { id: faq['id'] });
    await mcp.close();
  });

  it('lists through GraphQL and gives documents a language, given or detected', async () => {
    const { body } = await h.graphql<{ knowledgeFaqs: { data: Faq[] } }>(key, '{ knowledgeFaqs(limit: 50) { data { id language } } }');
    expect(body.errors).toBeUndefined();
    const create =
      'mutation($title: String!, $content: String!, $language: String) { knowledgeDocumentCreate(title: $title, content: $content, language: $language) { language } }';
    const languageOf = async (title: string, content: string, language?: string) => {
      const answer = await h.graphql<{ knowledgeDocumentCreate: { language: string } }>(key, create, { title, content, language });
      expect(answer.body.errors).toBeUndefined();
      return answer.body.data!.knowledgeDocumentCreate.language;
    };
    expect(await languageOf('Envíos', 'Enviamos a toda España en 24 horas. ¿Dudas? Escríbenos.')).toBe('es');
    expect(await languageOf('Livraison', 'Nous livrons en France en deux jours, et le retour est gratuit pour vous.')).toBe('fr');
    expect(await languageOf('Versand', 'Wir liefern in zwei Tagen und der Versand ist für Sie kostenlos.')).toBe('de');
    expect(await languageOf('Spedizione', 'La spedizione è gratuita per ordini sopra 50 euro e non ci sono costi.')).toBe('it');
    expect(await languageOf('Pengiriman', 'Pengiriman gratis untuk pesanan di atas 50 euro dan kami kirim dari Jakarta.')).toBe('id');
    expect(await languageOf('डिलीवरी', 'हम रविवार को बंद रहते हैं।')).toBe('hi');
    expect(await languageOf('Hours', '9-18', 'pt')).toBe('pt');
    // Nothing to go by: the workspace's default language.
    expect(await languageOf('FAQ', '12345')).toBe('en');
  });
});
