// The SSRF guard for webhook targets. A receiver URL must be https and its host must be, and resolve only
// to, public unicast addresses. It is checked when a subscription is created or its URL changed, and again
// at every delivery: `lookup` is the DNS lookup of the delivery client's https Agent, so the check applies
// to the address the socket actually connects to (DNS can change between creation and delivery).
// An IPv6 address that embeds an IPv4 one (mapped, compatible, NAT64, 6to4, Teredo) is judged by the IPv4
// address it reaches. WEBHOOK_ALLOWED_HOSTS names the hosts (development receivers, an internal relay) whose
// internal addresses are let through; link-local and cloud-metadata addresses never are.
import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

export type TargetGuard = {
  /** Whether the host is on the allow-list (WEBHOOK_ALLOWED_HOSTS). */
  allowsHost(hostname: string): boolean;
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

/** The ipaddr.js range name when the address is not public unicast; an IPv6 address embedding an IPv4 one is
 * judged by that IPv4 address; cloud-metadata addresses outside the link-local range are named `metadata`. */
export function internalRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  if (METADATA_ADDRESSES.has(ipaddr.parse(address).toNormalizedString())) return 'metadata';
  const parsed = ipaddr.parse(address);
  const judged = parsed.kind() === 'ipv6' ? embeddedIPv4(parsed as ipaddr.IPv6) : [parsed];
  for (const candidate of judged) {
    const range = candidate.range();
    if (range !== 'unicast') return range;
  }
  return null;
}

/** Ranges refused even for an allowed host: what answers there is the machine's own platform, not a receiver. */
const NEVER_ALLOWED = new Set(['linkLocal', 'metadata', 'invalid']);

/** AWS's IPv6 instance metadata service and Alibaba Cloud's; the IPv4 ones are link-local (169.254.169.254). */
const METADATA_ADDRESSES = new Set(['fd00:ec2:0:0:0:0:0:254', '100.100.100.200']);

/** The IPv4 addresses an IPv6 address reaches (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64
 * 64:ff9b::/96, 6to4 2002::/16, Teredo 2001::/32 with its server and obfuscated client), else the address itself. */
function embeddedIPv4(address: ipaddr.IPv6): Array<ipaddr.IPv4 | ipaddr.IPv6> {
  const p = address.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const zeroUpTo = (end: number) => p.slice(0, end).every((part) => part === 0);
  if (zeroUpTo(5) && p[5] === 0xffff) return [v4(p[6]!, p[7]!)];
  if (zeroUpTo(6) && p[6] !== 0) return [v4(p[6]!, p[7]!)];
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((part) => part === 0)) return [v4(p[6]!, p[7]!)];
  if (p[0] === 0x2002) return [v4(p[1]!, p[2]!)];
  if (p[0] === 0x2001 && p[1] === 0) return [v4(p[2]!, p[3]!), v4(p[6]! ^ 0xffff, p[7]! ^ 0xffff)];
  return [address];
}

const systemResolve: Resolve = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** URL hosts keep IPv6 literals in brackets. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

export type TargetGuardOptions = {
  /** Host names or IP literals whose internal addresses are let through (WEBHOOK_ALLOWED_HOSTS). */
  allowedHosts?: readonly string[];
  resolve?: Resolve;
};

export function createTargetGuard(options: TargetGuardOptions = {}): TargetGuard {
  const resolve = options.resolve ?? systemResolve;
  const allowedHosts = new Set((options.allowedHosts ?? []).map((host) => bareHost(host.toLowerCase())));

  function refusedAddress(hostname: string, address: string): string | null {
    const range = internalRange(address);
    if (!range) return null;
    if (allowedHosts.has(hostname.toLowerCase()) && !NEVER_ALLOWED.has(range)) return null;
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
    allowsHost: (hostname) => allowedHosts.has(bareHost(hostname.toLowerCase())),
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
