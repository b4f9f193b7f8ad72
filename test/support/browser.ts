// The app in a real browser over a real port, for tests of pages: Debian's chromium, headless, driven by
// playwright-core (no browser download). .ci/run installs chromium when it is missing; without it the test
// file fails rather than skips.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import type { Harness } from './harness.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type BrowserSession = { origin: string; browser: Browser; close(): Promise<void> };

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does)`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}

export async function openBrowserOn(harness: Harness): Promise<BrowserSession> {
  const browser = await launchChromium();
  const server = createServer(harness.app.yoga);
  // Clients in the tests (Node's fetch, as the MCP SDK uses it) keep idle sockets for 4 s; on a busy machine a late
  // timer could reuse one the server's default 5 s had just closed (ECONNRESET). Idle sockets wait longer here.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    browser,
    async close() {
      await browser.close();
      const closed = new Promise((resolve) => server.close(resolve));
      // A stream a test's client left open (an MCP client's event stream) would hold the close for its 60 s.
      server.closeAllConnections();
      await closed;
    },
  };
}
