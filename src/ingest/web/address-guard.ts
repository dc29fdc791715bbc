/**
 * Which network addresses a fetch asked for from a chat may reach. Anyone in a channel can type a URL,
 * so a chat must not make ragent read the machine it runs on or its private network (a cloud metadata
 * endpoint, an admin page on localhost): loopback, private (RFC 1918), carrier-grade NAT, link-local,
 * unique-local, multicast, documentation and other reserved ranges are refused — checked on the
 * address the connection really goes to (after DNS, on every redirect), so every way of writing an
 * address (`127.1`, `0x7f000001`, `2130706433`, `0177.0.0.1`, `::ffff:127.0.0.1`) ends at the same check.
 * RAGENT_FETCH_ALLOW names exceptions: host names, addresses or CIDR ranges.
 */
import { BlockList, isIP } from 'node:net';
import { errorMessages } from '../../error-messages-en.ts';
import { RagentError } from '../../errors.ts';
import { canonicalAddress } from '../../network-address.ts';

const refusedRanges: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], // link-local, cloud metadata
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.88.99.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved and broadcast
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['100::', 64, 'ipv6'], // discard
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['fc00::', 7, 'ipv6'], // unique-local
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['ff00::', 8, 'ipv6'], // multicast
];

const refused = new BlockList();
for (const [network, prefix, family] of refusedRanges) refused.addSubnet(network, prefix, family);

/** True when the address is in a range no chat may reach (see above). */
export function isRefusedAddress(address: string): boolean {
  const canonical = canonicalAddress(address);
  const family = isIP(canonical);
  if (family === 0) return true; // not an address at all: never connect to it unchecked
  return refused.check(canonical, family === 4 ? 'ipv4' : 'ipv6');
}

/** RAGENT_FETCH_ALLOW: host names, addresses and CIDR ranges a chat may fetch even though they are private. */
export interface FetchAllowList {
  allowsHost(hostname: string): boolean;
  allowsAddress(address: string): boolean;
}

export function parseFetchAllowList(entries: readonly string[]): FetchAllowList {
  const hosts = new Set<string>();
  const addresses = new BlockList();
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const [network = '', prefixText] = entry.split('/');
    const canonical = canonicalAddress(network);
    const family = isIP(canonical);
    if (family === 0) {
      hosts.add(entry.replace(/\.$/, ''));
      continue;
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefixText === undefined) addresses.addAddress(canonical, type);
    else addresses.addSubnet(canonical, Number(prefixText), type);
  }
  return {
    allowsHost: (hostname) =>
      hosts.has(
        hostname
          .toLowerCase()
          .replace(/^\[|\]$/g, '')
          .replace(/\.$/, ''),
      ),
    allowsAddress: (address) => {
      const canonical = canonicalAddress(address);
      const family = isIP(canonical);
      return family !== 0 && addresses.check(canonical, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

export function addressRefused(url: string, hostname: string, address: string): RagentError {
  const shown = canonicalAddress(address);
  return new RagentError(
    'FETCH_ADDRESS_REFUSED',
    errorMessages.FETCH_ADDRESS_REFUSED({ url, hostname, shown }),
    { details: { hostname, address: shown } },
  );
}
