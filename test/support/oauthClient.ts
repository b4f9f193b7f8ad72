// An MCP client's side of OAuth for tests: the SDK's OAuthClientProvider kept in memory (what a hosted assistant
// stores), a Client ID Metadata Document served over real HTTPS (the test certificate, trusted by the service's
// outbound client as an extra CA), and a person consenting in Chromium on the console's consent page.
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { testCertificate } from './webhookReceiver.js';

/** Where the tests' clients say they take the person back; Chromium's navigation there is caught, never served. */
export const REDIRECT_URL = 'http://127.0.0.1:9/callback';

export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private information: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';

  constructor(
    readonly clientName: string,
    readonly clientMetadataUrl?: string,
  ) {}

  get redirectUrl(): string {
    return REDIRECT_URL;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [REDIRECT_URL],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** An https server answering one Client ID Metadata Document at /client.json, naming its own URL as client_id. */
export async function serveClientDocument(name: string): Promise<{ url: string; fetches: () => number; close(): Promise<void> }> {
  const { key, cert } = await testCertificate();
  let fetches = 0;
  let url = '';
  const server = createServer({ key, cert }, (request, response) => {
    if (request.url !== '/client.json') {
      response.writeHead(404).end();
      return;
    }
    fetches += 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        client_id: url,
        client_name: name,
        redirect_uris: [REDIRECT_URL],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://localhost:${(server.address() as AddressInfo).port}/client.json`;
  return { url, fetches: () => fetches, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The person opens the authorization URL, signs in, and approves (or denies); the answer's query comes back. */
export async function consentInChromium(
  browser: Browser,
  authorizationUrl: URL,
  person: { email: string; password: string },
  answer: 'Approve' | 'Deny' = 'Approve',
): Promise<{ params: URLSearchParams; shown: string }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.route(`${REDIRECT_URL}**`, (route) => route.fulfill({ status: 200, body: 'back at the client' }));
    await page.goto(authorizationUrl.href);
    await page.getByLabel('E-mail').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: answer }).waitFor();
    const shown = await page.locator('main').innerText();
    const back = page.waitForURL((url) => url.href.startsWith(REDIRECT_URL));
    await page.getByRole('button', { name: answer }).click();
    await back;
    return { params: new URL(page.url()).searchParams, shown };
  } finally {
    await context.close();
  }
}
