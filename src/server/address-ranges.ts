/**
 * Addresses and ranges as TRUST_PROXY and METRICS_ALLOW write them (10.0.0.1, 10.0.0.0/8, ::1,
 * fd00::/8, and proxy-addr's names loopback, linklocal, uniquelocal), matched with node:net's
 * BlockList, which also matches an IPv4 rule against its IPv4-mapped IPv6 form (::ffff:10.0.0.1).
 */
import { BlockList, isIP } from 'node:net';

/** The ranges proxy-addr (Fastify's) gives these names, so both variables read them alike. */
const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** The ranges of a name; own keys only, so 'constructor' is no name. */
const rangesNamed = (value: string) => (Object.hasOwn(NAMED_RANGES, value) ? NAMED_RANGES[value] : undefined);

/** Whether `value` is one address, one range or one name of ranges. */
export function isAddressRange(value: string): boolean {
  if (rangesNamed(value)) return true;
  const [address = '', prefix, extra] = value.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

/** A test of an address against `ranges` (each one isAddressRange accepts); throws on one BlockList cannot hold. */
export function addressMatcher(ranges: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const range of ranges.flatMap((value) => rangesNamed(value) ?? [value])) {
    const [address = '', prefix] = range.split('/');
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    const version = isIP(address);
    return version !== 0 && list.check(address, version === 4 ? 'ipv4' : 'ipv6');
  };
}
