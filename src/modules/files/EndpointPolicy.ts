import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import { storageRejections } from './storages/storageRejections.js';

export type RemoteStorageType = 'BlobStorage' | 'RemoteDiskStorage';

/** Addresses a storage service never gets unless an operator names its host: loopback, link-local, private, reserved. */
const internal = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  internal.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  internal.addSubnet(net, bits, 'ipv6');

/** IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4) are judged by that address. */
const embeddedIpv4 = (address: string): string | undefined => {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower) ?? /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4})(?::|$)/.exec(lower);
  if (!hex) return undefined;
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
};

/** Whether an address is loopback, link-local, private or otherwise not a public host. */
export const isInternalAddress = (address: string): boolean => {
  const version = isIP(address);
  if (version === 4) return internal.check(address, 'ipv4');
  if (version !== 6) return true;
  const v4 = embeddedIpv4(address);
  return v4 !== undefined ? internal.check(v4, 'ipv4') : internal.check(address, 'ipv6');
};

const defaultPort = (protocol: string) => (protocol === 'https:' ? '443' : '80');
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').toLowerCase();

interface Entry {
  protocol: string;
  host: string;
  port: string;
}

const entryOf = (text: string): Entry => {
  const match = /^(https?):\/\/(\*|(?:\*\.)?[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?\/?$/.exec(text);
  if (!match) throw new Error(`not an endpoint pattern: '${text}'`);
  const protocol = `${match[1]}:`;
  return { protocol, host: match[2]!.replace(/^\[|\]$/g, '').toLowerCase(), port: match[3] ?? defaultPort(protocol) };
};

/**
 * Which endpoints storages of the remote types may name (issue 19: credentials sent to a host the
 * caller chose). The type's configured default endpoint, and hosts an operator lists literally, are
 * trusted; a host matched by a wildcard entry (`*`, `*.domain`) must resolve to public addresses only;
 * anything else is refused with `InvalidStorageEndpoint`. Checked when a storage is written and
 * again before every request to its service (names can resolve elsewhere later).
 */
export class EndpointPolicy {
  private readonly entries: Record<RemoteStorageType, Entry[]>;

  constructor(
    allowed: Record<RemoteStorageType, readonly string[]>,
    private readonly defaults: Record<RemoteStorageType, string | undefined>,
    private readonly resolve: (host: string) => Promise<string[]> = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address),
  ) {
    this.entries = { BlobStorage: allowed.BlobStorage.map(entryOf), RemoteDiskStorage: allowed.RemoteDiskStorage.map(entryOf) };
  }

  async check(id: string, type: RemoteStorageType, endpoint: string | undefined): Promise<void> {
    // No endpoint at all: the object store's own public default (AWS), chosen by the operator's configuration.
    if (endpoint === undefined) return;
    const refuse = (details: string) => storageRejections.invalidStorageEndpoint(id, endpoint, details);
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw refuse('It is not an absolute URL.');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('Only http and https endpoints are allowed.');
    if (url.username || url.password) throw refuse('An endpoint may not carry credentials in its address.');
    if (url.search || url.hash || endpoint.includes('?') || endpoint.includes('#')) throw refuse('An endpoint may not have a query or a fragment.');
    const host = hostOf(url);
    const port = url.port || defaultPort(url.protocol);
    const configured = this.defaults[type];
    if (configured !== undefined) {
      const d = new URL(configured);
      if (d.protocol === url.protocol && hostOf(d) === host && (d.port || defaultPort(d.protocol)) === port) return;
    }
    const matching = this.entries[type].filter((e) => e.protocol === url.protocol && e.port === port);
    if (matching.some((e) => e.host === host)) return;
    const wildcard = matching.some((e) => e.host === '*' || (e.host.startsWith('*.') && host.endsWith(e.host.slice(1))));
    if (!wildcard) throw refuse(`'${url.protocol}//${url.host}' is neither the default endpoint nor one of the allowed endpoints of ${type}.`);
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : await this.resolve(host);
    } catch (error) {
      throw refuse(`Its host cannot be resolved (${(error as Error).message}).`);
    }
    if (addresses.length === 0 || addresses.some(isInternalAddress))
      throw refuse(`Its host resolves to a loopback, link-local or private address; an operator must list it to allow it.`);
  }
}
