// The SSRF guard for webhook targets. A receiver URL must be https and its host must be, and resolve only
// to, public unicast addresses. It is checked when a subscription is created or its URL changed, and again
// at every delivery: `lookup` is the DNS lookup of the delivery client's https Agent, so the check applies
// to the address the socket actually connects to (DNS can change between creation and delivery).
// WEBHOOK_ALLOW_PRIVATE_TARGETS (development only) lets local receivers through.
import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

export type TargetGuard = {
  /** Whether internal addresses are let through (development setting). */
  readonly allowPrivate: boolean;
  /** Resolves to the reason the URL is refused, or null when it may be used. Resolves the host name. */
  refusal(url: string): Promise<string | null>;
  /** The reason a literal IP host is refused (connecting to one skips DNS, so `lookup` never sees it). */
  literalRefusal(hostname: string): string | null;
  /** A DNS lookup for net/tls connect options that fails with TargetRefusedError on an internal address. */
  lookup: LookupFunction;
};

export class TargetRefusedError extends Error {
  readonly code = 'ETARGETREFUSED';
  constructor(reason: string) {
    super(reason);
    this.name = 'TargetRefusedError';
  }
}

/** The ipaddr.js range name when the address is not public unicast (IPv4-mapped IPv6 is judged as IPv4). */
export function internalRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? null : range;
}

const systemResolve: Resolve = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** URL hosts keep IPv6 literals in brackets. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

export function createTargetGuard(options: { allowPrivate: boolean; resolve?: Resolve }): TargetGuard {
  const resolve = options.resolve ?? systemResolve;

  function refusedAddress(hostname: string, address: string): string | null {
    if (options.allowPrivate) return null;
    const range = internalRange(address);
    if (!range) return null;
    return address === hostname
      ? `${hostname} is an internal address (${range})`
      : `${hostname} resolves to an internal address, ${address} (${range})`;
  }

  /** Resolves a name and refuses it when ANY of its addresses is internal (a mixed answer is a rebinding trick). */
  async function resolvePublic(hostname: string): Promise<LookupAddress[]> {
    const addresses = await resolve(hostname);
    if (addresses.length === 0) throw Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' });
    for (const { address } of addresses) {
      const reason = refusedAddress(hostname, address);
      if (reason) throw new TargetRefusedError(reason);
    }
    return addresses;
  }

  // net calls lookup with `all: true` when it tries several addresses (autoSelectFamily), else for one.
  type LookupCallback = (error: unknown, address?: string | LookupAddress[], family?: number) => void;
  const lookup = ((hostname: string, lookupOptions: { all?: boolean; family?: number }, callback: LookupCallback) => {
    resolvePublic(hostname).then(
      (addresses) => {
        const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
        const usable = family ? addresses.filter((entry) => entry.family === family) : addresses;
        if (lookupOptions.all) return callback(null, usable);
        const first = usable[0];
        if (!first) return callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }));
        callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error),
    );
  }) as LookupFunction;

  return {
    allowPrivate: options.allowPrivate,
    literalRefusal(hostname) {
      const host = bareHost(hostname);
      return isIP(host) ? refusedAddress(host, host) : null;
    },
    async refusal(url) {
      const { protocol, hostname } = new URL(url);
      if (protocol !== 'https:') return 'must be an https URL';
      const host = bareHost(hostname);
      if (isIP(host)) return refusedAddress(host, host);
      try {
        await resolvePublic(host);
        return null;
      } catch (error) {
        if (error instanceof TargetRefusedError) return error.message;
        return `${host} does not resolve`;
      }
    },
    lookup,
  };
}
