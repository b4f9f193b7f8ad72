// Who a per-client limit counts when there is no API key: the client's IP address. It is the connection's
// peer, or behind a TLS-terminating proxy (TRUST_PROXY) the last X-Forwarded-For entry, the one our proxy
// appended; earlier entries came from the client and could be forged (as X-Forwarded-Proto is read in
// infra/transport/httpsOnlyServer.ts). IPv4-mapped IPv6 counts as IPv4; other IPv6 addresses count per /64, the
// block one subscriber is usually given, so cycling through it does not escape the limit.
import ipaddr from 'ipaddr.js';

/** What the Node adapter (@whatwg-node/server) passes as the server context: the Node request. */
type NodeServerContext = { req?: { socket?: { remoteAddress?: string } } };

function normalized(address: string | undefined): string | null {
  if (!address || !ipaddr.isValid(address)) return null;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}

/** The address to count, or `unknown` for a request that reached the app without a socket (in-process calls). */
export function clientAddress(request: Request, serverContext: unknown, trustProxy: boolean): string {
  const forwarded = trustProxy ? request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim() : undefined;
  const peer = (serverContext as NodeServerContext | undefined)?.req?.socket?.remoteAddress;
  return normalized(forwarded) ?? normalized(peer) ?? 'unknown';
}
