// Every route of the console's router (the <Route path> entries of console/main.tsx) answers the console's page when
// a person loads it directly or reloads it, not only when reached by a click inside the page; a path outside the
// router is not the page.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';

const harness = await openHarness();

const ROUTES = [...readFileSync(new URL('../../console/main.tsx', import.meta.url), 'utf8').matchAll(/<Route path="([^"]+)"/g)].map(
  (match) => match[1]!.replace(/:[a-z]+/g, '0190aaaa-0000-7000-8000-000000000000'),
);

async function page(path: string) {
  const response = await harness.fetch(path, { headers: { accept: 'text/html' } });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

describe("the console's pages", () => {
  it('answers the page at every route of its router', async () => {
    expect(ROUTES.length).toBeGreaterThan(10);
    for (const path of ROUTES) {
      const answer = await page(path);
      expect({ path, status: answer.status, type: answer.type }).toEqual({ path, status: 200, type: expect.stringMatching(/^text\/html/) });
      expect(answer.body).toContain('/console/app.js');
    }
  });

  it('does not answer the page outside its router', async () => {
    expect((await page('/no-such-page/at/all')).status).toBe(404);
  });
});
