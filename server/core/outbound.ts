// Signed POSTs to outside parties (an AI service's jobs, partners' callbacks): JSON signed with the
// entry's secret (core/signature.ts signedHeaders, key id = the entry's id), only http(s), no
// redirect followed (a 3xx is an answer like any other), a time limit on the whole exchange, and
// the answer's text kept short. Unless private targets are allowed, the host must resolve only to
// public addresses: checked on the address actually connected to (the lookup of the connection),
// so a name that changes its answer between a check and the connection gains nothing.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { signedHeaders } from './signature.ts';

/** Loopback, private, link-local, shared, documentation, multicast and reserved ranges (two lists:
 * a BlockList checks an IPv4 address against IPv4-mapped IPv6 rules too). */
const PRIVATE_V4 = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE_V4.addSubnet(address, prefix, 'ipv4');
const PRIVATE_V6 = new net.BlockList();
for (const [address, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) PRIVATE_V6.addSubnet(address, prefix, 'ipv6');

/** Whether an IP address is not a public one (anything that is not an address counts as private). */
export function isPrivateAddress(ip: string): boolean {
  const family = net.isIP(ip);
  if (family === 4) return PRIVATE_V4.check(ip, 'ipv4');
  if (family !== 6) return true;
  // IPv4-mapped (::ffff:a.b.c.d, in any spelling): refused whatever the IPv4 address.
  if (new URL(`http://[${ip}]/`).hostname.startsWith('[::ffff:')) return true;
  return PRIVATE_V6.check(ip, 'ipv6');
}

/** A target refused before anything was sent. */
export class OutboundRefused extends Error {}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** dns.lookup that answers an error when any address of the name is private. */
function publicLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad || !addresses.length) return callback(new OutboundRefused(`${hostname} resolves to a private address`), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

export interface SignedPost {
  url: string;
  keyId: string;
  secret: string;
  /** JSON text. */
  body: string;
  /** The signing time (ms): the app's clock. */
  now: number;
  headers?: Record<string, string>;
  timeoutMs: number;
  /** Private, loopback and link-local targets allowed. */
  allowPrivate: boolean;
}

export interface PostAnswer {
  status: number;
  /** The answer's text, whitespace folded, at most 300 characters. */
  text: string;
}

const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Posts `body` signed; answers the status and text of whatever answer came (2xx or not). Throws
 * OutboundRefused for a target it will not post to, and an Error with the reason when no answer
 * came (connection refused, timed out...).
 */
export function postSigned(p: SignedPost): Promise<PostAnswer> {
  let url: URL;
  try {
    url = new URL(p.url);
  } catch {
    return Promise.reject(new OutboundRefused('the URL is not valid'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new OutboundRefused('only http and https URLs are allowed'));
  if (url.username || url.password) return Promise.reject(new OutboundRefused('URLs with credentials are not allowed'));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!p.allowPrivate && net.isIP(host) && isPrivateAddress(host)) return Promise.reject(new OutboundRefused(`${host} is a private address`));
  const path = url.pathname + url.search;
  const body = Buffer.from(p.body);
  const headers = {
    'Content-Type': 'application/json',
    'Content-Length': String(body.length),
    ...p.headers,
    ...signedHeaders(p.keyId, p.secret, { method: 'POST', path, body: p.body }, p.now),
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<PostAnswer>((resolve, reject) => {
    let settled = false;
    const settle = (err: Error | null, answer?: PostAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(answer!);
    };
    const req = client.request(url, { method: 'POST', headers, lookup: p.allowPrivate ? undefined : (publicLookup as never) });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${Math.round(p.timeoutMs / 1000)} s`)), p.timeoutMs);
    req.on('error', (err) => settle(err));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < MAX_ANSWER_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      res.on('error', (err) => settle(err));
      res.on('close', () => settle(new Error('the answer was cut off')));
      res.on('end', () => {
        const text = Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8').replace(/\s+/g, ' ').trim().slice(0, 300);
        settle(null, { status: res.statusCode ?? 0, text });
      });
    });
    req.end(body);
  });
}
