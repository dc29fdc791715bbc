/**
 * How network addresses are written, read once here: an address in its one canonical form, and what an
 * entry of RAGENT_FETCH_ALLOW may be. Kept at the bottom of the house because the configuration checks
 * the allow list when it starts and the fetcher (ingest/web/address-guard.ts) checks every connection.
 */
import { isIP } from 'node:net';

/** An address as one canonical form: an IPv4 address inside IPv6 (mapped, compatible, NAT64) as IPv4. */
export function canonicalAddress(address: string): string {
  const bare = address
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
  if (isIP(bare) !== 6) return bare;
  const embedded = /^(?:::ffff:|::ffff:0:|64:ff9b::|::)(\d+\.\d+\.\d+\.\d+)$/.exec(bare)?.[1];
  if (embedded) return embedded;
  const hex = /^(?:::ffff:|64:ff9b::|::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(bare);
  if (hex?.[1] && hex[2]) {
    const high = Number.parseInt(hex[1], 16);
    const low = Number.parseInt(hex[2], 16);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return bare;
}

/** A valid RAGENT_FETCH_ALLOW entry: a host name, an address, or an address with a prefix length. */
export function isFetchAllowEntry(entry: string): boolean {
  const [network = '', prefixText, ...rest] = entry.trim().split('/');
  if (rest.length > 0) return false;
  const family = isIP(canonicalAddress(network));
  if (prefixText !== undefined) {
    const prefix = Number(prefixText);
    return family !== 0 && Number.isInteger(prefix) && prefix >= 0 && prefix <= (family === 4 ? 32 : 128);
  }
  return (
    family !== 0 || /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(network)
  );
}
