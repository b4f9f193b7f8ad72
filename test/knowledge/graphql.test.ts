// Knowledge documents through GraphQL: create from text or from base64 uploads (plain text, Markdown,
// HTML with scripts stripped), size limits, list/get/update/delete, and the search (the agent's ranking,
// test/knowledge/search.test.ts for its languages) with ranks and snippets — each within the caller's workspace
// and the `knowledge` scope.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { graphqlCalls } from '../support/results.js';

const harness = await openHarness();
const { data, error } = graphqlCalls(harness);
const shop = await harness.workspace('Knowledge shop');
const other = await harness.workspace('Knowledge other');
const key = shop.api_key;

const FIELDS = 'id title content source_filename source_content_type created_at updated_at';
const CREATE = `mutation($title: String!, $content: String!) { knowledgeDocumentCreate(title: $title, content: $content) { ${FIELDS} } }`;
const UPLOAD = `mutation($b64: String!, $filename: String!, $type: String!, $title: String) {
  knowledgeDocumentUpload(content_base64: $b64, filename: $filename, content_type: $type, title: $title) { ${FIELDS} } }`;
const SEARCH =
  'query($q: String!, $limit: Int) { knowledgeSearch(q: $q, limit: $limit) { results { rank snippet document { id title } } } }';

type Document = { id: string; title: string; content: string; source_filename: string | null; source_content_type: string | null };
type Search = { knowledgeSearch: { results: { rank: number; snippet: string; document: { id: string; title: string } }[] } };

const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

async function create(apiKey: string, title: string, content: string) {
  return (await data<{ knowledgeDocumentCreate: Document }>(apiKey, CREATE, { title, content })).knowledgeDocumentCreate;
}

async function upload(filename: string, type: string, content: string | Buffer, title?: string) {
  return (await data<{ knowledgeDocumentUpload: Document }>(key, UPLOAD, { b64: base64(content), filename, type, title }))
    .knowledgeDocumentUpload;
}

describe('creating documents', () => {
  it('creates a document from text', async () => {
    const document = await create(key, 'Opening hours', 'We are open Monday to Saturday, 9:00 to 18:00.');
    expect(document).toMatchObject({
      title: 'Opening hours',
      content: 'We are open Monday to Saturday, 9:00 to 18:00.',
      source_filename: null,
      source_content_type: null,
    });
  });

  it('reads a plain-text upload; the title defaults to the file name without its extension', async () => {
    const document = await upload(
      'C:\\docs\\shipping-policy.txt',
      'text/plain; charset=utf-8',
      'Orders ship within 2 business days. Café orders ship faster.',
    );
    expect(document).toMatchObject({
      title: 'shipping-policy',
      content: 'Orders ship within 2 business days. Café orders ship faster.',
      source_filename: 'shipping-policy.txt',
      source_content_type: 'text/plain',
    });
  });

  it('keeps a Markdown upload as written', async () => {
    const markdown = '# Returns\n\n- Keep the **receipt**\n- Items unused, within 30 days';
    const document = await upload('returns.md', 'text/markdown', markdown, 'Returns policy');
    expect(document).toMatchObject({ title: 'Returns policy', content: markdown, source_content_type: 'text/markdown' });
  });

  it('turns an HTML upload into text, dropping scripts, styles, images and link targets', async () => {
    const html = `<!doctype html><html><head><title>Warranty</title><style>p { color: red }</style>
      <script>document.write("stolen cookies")</script></head>
      <body><h1>Warranty</h1><p>Every kettle has a <b>two-year</b> warranty. <a href="https://evil.example/x">Claim it here</a>.</p>
      <img src="x.png" alt="kettle" onerror="alert(1)"><script>alert("xss")</script>
      <ul><li>Keep the invoice</li><li>Register online</li></ul></body></html>`;
    const document = await upload('warranty.html', 'text/html', html);
    expect(document.source_content_type).toBe('text/html');
    expect(document.content).toBe(
      'Warranty\n\nEvery kettle has a two-year warranty. Claim it here.\n\n * Keep the invoice\n * Register online',
    );
    expect(document.content).not.toMatch(/stolen|xss|alert|evil|color|<|>/);
  });

  it('decodes a declared charset', async () => {
    const latin1 = Buffer.from('Entrega em Lisboa: grátis acima de 50 €.'.replace('€', 'EUR'), 'latin1');
    const document = await upload('entrega.txt', 'text/plain; charset=iso-8859-1', latin1);
    expect(document.content).toBe('Entrega em Lisboa: grátis acima de 50 EUR.');
  });

  it.each([
    [
      'an unsupported content type',
      { type: 'application/pdf' },
      'content_type',
      'must be one of text/plain, text/markdown, text/x-markdown, text/html',
    ],
    ['content that is not base64', { b64: 'not base64!' }, 'content_base64', 'must be base64-encoded'],
    ['bytes that are not UTF-8', { b64: Buffer.from([0xff, 0xfe, 0xfd]).toString('base64') }, 'content_base64', 'is not valid utf-8 text'],
    ['an HTML file without text', { b64: base64('<script>alert(1)</script>'), type: 'text/html' }, 'content_base64', 'contains no text'],
    ['an empty file name', { filename: '  ' }, 'filename', 'is required'],
  ])('refuses %s with VALIDATION_ERROR naming the field', async (_case, change, field, reason) => {
    const failure = await error(key, UPLOAD, { b64: base64('hello'), filename: 'a.txt', type: 'text/plain', ...change });
    expect(failure).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: { [field]: reason } });
  });

  it('refuses a file over 1 MiB and a text over 256 KiB with PAYLOAD_TOO_LARGE (413)', async () => {
    const file = await error(key, UPLOAD, { b64: base64(Buffer.alloc(1024 * 1024 + 1, 'a')), filename: 'big.txt', type: 'text/plain' });
    expect(file).toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      details: { content_base64: 'must decode to at most 1048576 bytes' },
    });
    const text = await error(key, CREATE, { title: 'Big', content: 'word '.repeat(60_000) });
    expect(text).toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      details: { content: expect.stringContaining('at most 262144 bytes') },
    });
    const extracted = await error(key, UPLOAD, { b64: base64('x'.repeat(300_000)), filename: 'long.txt', type: 'text/plain' });
    expect(extracted).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('refuses an empty title or content', async () => {
    const failure = await error(key, CREATE, { title: ' ', content: '' });
    expect(failure).toMatchObject({ code: 'VALIDATION_ERROR', details: { title: 'is required', content: 'must not be empty' } });
  });
});

describe('list, get, update, delete', async () => {
  const workspace = await harness.workspace('Knowledge CRUD');
  const crudKey = workspace.api_key;
  const first = await create(crudKey, 'First', 'one');
  const second = await create(crudKey, 'Second', 'two');
  const third = await create(crudKey, 'Third', 'three');
  const LIST =
    'query($limit: Int, $cursor: ID) { knowledgeDocuments(limit: $limit, cursor: $cursor) { data { id title } next_cursor has_more } }';
  type Page = { knowledgeDocuments: { data: { id: string; title: string }[]; next_cursor: string | null; has_more: boolean } };

  it('lists newest first and pages with next_cursor', async () => {
    const page1 = await data<Page>(crudKey, LIST, { limit: 2 });
    expect(page1.knowledgeDocuments.data.map((row) => row.title)).toEqual(['Third', 'Second']);
    expect(page1.knowledgeDocuments.has_more).toBe(true);
    const page2 = await data<Page>(crudKey, LIST, { limit: 2, cursor: page1.knowledgeDocuments.next_cursor });
    expect(page2.knowledgeDocuments).toEqual({ data: [{ id: first.id, title: 'First' }], next_cursor: null, has_more: false });
  });

  it('gets, updates (the search follows at once) and deletes a document', async () => {
    const got = await data(crudKey, `query($id: ID!) { knowledgeDocument(id: $id) { ${FIELDS} } }`, { id: second.id });
    expect(got['knowledgeDocument']).toMatchObject({ id: second.id, title: 'Second', content: 'two' });

    const updated = await data(
      crudKey,
      'mutation($id: ID!) { knowledgeDocumentUpdate(id: $id, content: "Parking is free for customers") { title content } }',
      { id: second.id },
    );
    expect(updated['knowledgeDocumentUpdate']).toEqual({ title: 'Second', content: 'Parking is free for customers' });
    const found = await data<Search>(crudKey, SEARCH, { q: 'parking' });
    expect(found.knowledgeSearch.results.map((result) => result.document.id)).toEqual([second.id]);

    const deleted = await data(crudKey, 'mutation($id: ID!) { knowledgeDocumentDelete(id: $id) { id title } }', { id: third.id });
    expect(deleted['knowledgeDocumentDelete']).toEqual({ id: third.id, title: 'Third' });
    expect(await error(crudKey, 'query($id: ID!) { knowledgeDocument(id: $id) { id } }', { id: third.id })).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
  });
});

describe('search', async () => {
  const workspace = await harness.workspace('Knowledge search');
  const searchKey = workspace.api_key;
  const delivery = await create(
    searchKey,
    'Delivery times',
    'Deliveries to Lisbon take one day. Deliveries to the islands take three days.',
  );
  await create(searchKey, 'Returns', 'Items can be returned within 30 days. A delivery fee applies to returned items.');
  await create(searchKey, 'Payments', 'We accept cards and bank transfers. No cash on delivery.');

  it('ranks the document whose sentence answers best first and matches stemmed forms', async () => {
    const { knowledgeSearch } = await data<Search>(searchKey, SEARCH, { q: 'deliveries' });
    const titles = knowledgeSearch.results.map((result) => result.document.title);
    expect(titles[0]).toBe('Delivery times');
    expect(titles.slice(1).sort()).toEqual(['Payments', 'Returns']);
    const ranks = knowledgeSearch.results.map((result) => result.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    expect(ranks[0]).toBeGreaterThan(ranks[1]!);
  });

  it('returns the best sentences as a plain-text snippet with the matched words wrapped in **', async () => {
    const { knowledgeSearch } = await data<Search>(searchKey, SEARCH, { q: 'islands' });
    expect(knowledgeSearch.results).toEqual([
      {
        rank: expect.any(Number),
        snippet: 'Deliveries to the **islands** take three days.',
        document: { id: delivery.id, title: 'Delivery times' },
      },
    ]);
  });

  it('finds nothing for a question of stop words only', async () => {
    expect((await data<Search>(searchKey, SEARCH, { q: 'the' })).knowledgeSearch.results).toEqual([]);
  });

  it('limits the number of results', async () => {
    const { knowledgeSearch } = await data<Search>(searchKey, SEARCH, { q: 'delivery', limit: 1 });
    expect(knowledgeSearch.results).toHaveLength(1);
    expect((await error(searchKey, SEARCH, { q: 'delivery', limit: 51 })).details).toEqual({ limit: 'must be between 1 and 50' });
  });
});

describe('workspace isolation and scope', async () => {
  const secret = await create(key, 'Internal discount codes', 'Staff discount code is KETTLE-42.');

  it("never finds, shows, updates or deletes another workspace's documents", async () => {
    const search = await data<Search>(other.api_key, SEARCH, { q: 'discount' });
    expect(search.knowledgeSearch.results).toEqual([]);
    const list = await data<{ knowledgeDocuments: { data: unknown[] } }>(
      other.api_key,
      '{ knowledgeDocuments(limit: 100) { data { id } } }',
    );
    expect(list.knowledgeDocuments.data).toEqual([]);
    for (const query of [
      'query($id: ID!) { knowledgeDocument(id: $id) { id } }',
      'mutation($id: ID!) { knowledgeDocumentUpdate(id: $id, title: "Mine now") { id } }',
      'mutation($id: ID!) { knowledgeDocumentDelete(id: $id) { id } }',
    ]) {
      expect(await error(other.api_key, query, { id: secret.id })).toMatchObject({
        status: 404,
        code: 'NOT_FOUND',
        message: 'Knowledge document not found',
      });
    }
    const own = await data<Search>(key, SEARCH, { q: 'discount' });
    expect(own.knowledgeSearch.results.map((result) => result.document.id)).toEqual([secret.id]);
  });

  it('requires the knowledge scope', async () => {
    const schedulingOnly = await harness.key(shop.workspace_id, ['scheduling']);
    expect(await error(schedulingOnly, SEARCH, { q: 'discount' })).toMatchObject({
      status: 403,
      code: 'INSUFFICIENT_SCOPE',
      details: { required_scope: ['knowledge'] },
    });
  });
});
