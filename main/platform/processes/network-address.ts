import { BlockList, isIP } from 'node:net';

/**
 * Where an address leads, as far as a command's network request is concerned: the open internet,
 * or somewhere a confined command must not reach by a name the user did not allow (this computer,
 * the local network, a cloud's metadata service). Issue 28 (commands) and issue 30 (web_fetch).
 */
export type AddressClass =
  'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'multicast' | 'reserved';

/** First match wins: the metadata addresses sit inside link-local and private ranges. */
const ranges: readonly (readonly [AddressClass, string, number, 'ipv4' | 'ipv6'])[] = [
  // AWS, GCP, Azure, OpenStack (169.254.169.254), AWS ECS (169.254.170.2), Alibaba, AWS over IPv6.
  ['metadata', '169.254.169.254', 32, 'ipv4'],
  ['metadata', '169.254.170.2', 32, 'ipv4'],
  ['metadata', '100.100.100.200', 32, 'ipv4'],
  ['metadata', 'fd00:ec2::254', 128, 'ipv6'],
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  // Carrier-grade NAT: the provider's network, not the internet.
  ['private', '100.64.0.0', 10, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['reserved', '192.0.2.0', 24, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['reserved', '198.51.100.0', 24, 'ipv4'],
  ['reserved', '203.0.113.0', 24, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', 'fc00::', 7, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  // Site-local: deprecated, still routed inside some networks.
  ['private', 'fec0::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
  ['reserved', '100::', 64, 'ipv6'],
  ['reserved', '2001:db8::', 32, 'ipv6'],
];

const lists = new Map<AddressClass, BlockList>();
for (const [kind, network, prefix, family] of ranges) {
  const list = lists.get(kind) ?? new BlockList();
  list.addSubnet(network, prefix, family);
  lists.set(kind, list);
}

/** An IPv6 address as its 8 groups (the `::` expanded, a dotted IPv4 tail turned into two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0] ?? '';
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] !== undefined) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (piece: string) => (piece === '' ? [] : piece.split(':').map((group) => parseInt(group, 16)));
  const front = part(head);
  const back = tail === undefined ? [] : part(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * IPv4 addresses carried inside IPv6 ones reach the IPv4 address: mapped (::ffff:a.b.c.d), NAT64
 * (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::). Judged as the IPv4 address they carry.
 */
function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  const quad = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return quad(groups[6] ?? 0, groups[7] ?? 0);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return quad(groups[6] ?? 0, groups[7] ?? 0);
  if (groups[0] === 0x2002) return quad(groups[1] ?? 0, groups[2] ?? 0);
  return undefined;
}

/** The class of an IP address; a string that is no IP address is 'reserved' (never reached). */
export function addressClass(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== undefined) return addressClass(inner);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [kind, list] of lists) if (list.check(address, type)) return kind;
  return 'public';
}

/** How a person reads the class, in a refusal or an approval question. */
export const addressClassWords: Readonly<Record<AddressClass, string>> = {
  public: 'an address on the internet',
  loopback: 'this computer (loopback)',
  private: 'an address on the local network',
  'link-local': 'a link-local address (the local network segment)',
  metadata: "a cloud metadata service (it hands out the machine's credentials)",
  unspecified: 'the unspecified address (this computer)',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
};

/** `localhost` and names under it resolve to this computer by definition (RFC 6761). */
export const isLocalhostName = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost');
