// Client ID Metadata Documents (the MCP authorization spec's preferred registration): the client_id is an https
// URL whose JSON document names the client and its redirect URIs. Fetched only through the guarded outbound client
// (infra/net/outbound.ts: SSRF guard, no redirects, one deadline, a size cap), validated with the MCP SDK's own
// schema, and remembered for a few minutes so a consent page and its token exchange fetch it once.
import { LRUCache } from 'lru-cache';
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OutboundClient } from '../../infra/net/outbound.js';
import type { ClientDocument, OAuthServices } from '../shared/context.js';
import { oauthError } from './oauthErrors.js';

/** The MCP spec's advice: a document is small; 5 KB leaves room for long names and several redirect URIs. */
export const CLIENT_DOCUMENT_MAX_BYTES = 5 * 1024;
export const CLIENT_DOCUMENT_TIMEOUT_MS = 5_000;
export const CLIENT_DOCUMENT_CACHE_MS = 5 * 60_000;
const REMEMBERED_DOCUMENTS = 1_000;

type ClientDocuments = OAuthServices['clientDocuments'];

/** An https URL with a path, no fragment, no credentials: what a metadata document's client_id must be. */
export function isDocumentClientId(clientId: string): boolean {
  if (!clientId.startsWith('https://')) return false;
  try {
    const url = new URL(clientId);
    return url.pathname !== '/' && url.hash === '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

export function createClientDocuments(outbound: OutboundClient): ClientDocuments {
  const remembered = new LRUCache<string, ClientDocument>({ max: REMEMBERED_DOCUMENTS, ttl: CLIENT_DOCUMENT_CACHE_MS });

  async function fetchDocument(clientId: string): Promise<ClientDocument> {
    let body: unknown;
    try {
      const response = await outbound.request(clientId, {
        headers: { accept: 'application/json' },
        timeoutMs: CLIENT_DOCUMENT_TIMEOUT_MS,
        maxResponseBytes: CLIENT_DOCUMENT_MAX_BYTES,
      });
      if (response.status !== 200) throw new Error(`answered ${response.status}`);
      body = await response.json();
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'unreadable';
      throw oauthError('invalid_client', `The client's metadata document could not be read (${reason})`);
    }
    const parsed = OAuthClientMetadataSchema.safeParse(body);
    if (!parsed.success) throw oauthError('invalid_client', "The client's metadata document is not valid client metadata");
    const document = body as { client_id?: unknown };
    if (document.client_id !== clientId) {
      throw oauthError('invalid_client', "The client's metadata document names another client_id than its own URL");
    }
    return {
      client_id: clientId,
      client_name: parsed.data.client_name ?? new URL(clientId).host,
      redirect_uris: parsed.data.redirect_uris,
    };
  }

  return {
    close: () => outbound.close(),
    async read(clientId) {
      const known = remembered.get(clientId);
      if (known) return known;
      const document = await fetchDocument(clientId);
      remembered.set(clientId, document);
      return document;
    },
  };
}
