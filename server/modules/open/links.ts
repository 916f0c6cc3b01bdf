// Models a partner gives by link: fetched by the server with checks before a byte is kept. Only
// https (config partnerLinksInsecure also allows http, for tests and closed networks); never a
// private, loopback, link-local or otherwise internal address (checked on the address the
// connection is made to, so a name that resolves inside cannot slip through, nor a redirect);
// at most PARTNER_LINK_MAX_REDIRECTS redirects, each checked the same way; at most the upload
// limit of bytes (stopped as soon as it is passed), within a time limit. The bytes are staged
// like an upload's and checked as STL by the caller.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { PARTNER_LINK_MAX_REDIRECTS } from '../../../common/partner-api.ts';
import type { AppContext } from '../../context.ts';
import { fail } from '../../core/errors.ts';
import { t, type Lang, type MessageKey, type MessageParams } from '../../core/i18n.ts';
import type { BlobStorage, StagedBlob } from '../space/storage.ts';

/** The longest a link may take, connection to last byte. */
export const LINK_TIMEOUT_MS = 60_000;

const INTERNAL = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) INTERNAL.addSubnet(net4, bits, 'ipv4');
for (const [net6, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) INTERNAL.addSubnet(net6, bits, 'ipv6');

/** Whether an address is not on the public internet (IPv4-mapped IPv6 read as IPv4). */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return INTERNAL.check(mapped[1]!, 'ipv4');
  const family = net.isIP(address);
  if (family === 0) return true;
  return INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

class LinkRefused extends Error {
  constructor(readonly key: MessageKey, readonly params?: MessageParams) {
    super(key);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** dns.lookup that refuses internal addresses: the check is on what the socket connects to. */
function safeLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options }, (err, address, family) => {
    if (err) return callback(err, '', 0);
    const list = Array.isArray(address) ? address : [{ address, family }];
    if (list.some((a) => isInternalAddress(a.address))) return callback(new LinkRefused('partnerLinkPrivate'), '', 0);
    callback(null, address as string & dns.LookupAddress[], family);
  });
}

interface Fetched {
  status: number;
  location?: string;
  staged?: StagedBlob;
}

function getOnce(url: URL, insecure: boolean, storage: BlobStorage, maxBytes: number, deadline: number): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const writer = storage.writer();
    let settled = false;
    const done = (err: unknown, value?: Fetched) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        req.destroy();
        void writer.abort().finally(() => reject(err));
      } else resolve(value!);
    };
    const req = lib.get(url, { lookup: insecure ? undefined : (safeLookup as never), headers: { 'User-Agent': 'Archwright-partner-fetch', Accept: '*/*' } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        void writer.abort().then(() => ((settled = true), clearTimeout(timer), resolve({ status, location: res.headers.location })));
        return;
      }
      if (status !== 200) {
        res.resume();
        return done(new LinkRefused('partnerLinkStatus', { status }));
      }
      const declared = Number(res.headers['content-length'] ?? NaN);
      const tooLarge = () => new LinkRefused('partnerLinkTooLarge', { max: Math.round(maxBytes / 1024 / 1024) });
      if (Number.isFinite(declared) && declared > maxBytes) return done(tooLarge());
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        if (writer.size + chunk.byteLength > maxBytes) return done(tooLarge());
        res.pause();
        writer.write(chunk).then(() => res.resume(), (err: unknown) => done(err));
      });
      res.on('end', () => {
        if (settled) return;
        // The last write has finished once 'end' fires (reading resumes only after each write).
        writer.finish().then((staged) => ((settled = true), clearTimeout(timer), resolve({ status, staged })), (err: unknown) => done(err));
      });
      res.on('error', (err) => done(err));
    });
    req.on('error', (err) => done(err));
    const timer = setTimeout(() => done(new LinkRefused('partnerLinkFailed')), Math.max(1, deadline - Date.now()));
  });
}

/**
 * Fetches the link into a staged blob (the caller commits or discards it); refusals are 1001
 * "The link of the {field} model is refused: {reason}" in the caller's language.
 */
export async function fetchLink(ctx: AppContext, lang: Lang, field: string, link: string, storage: BlobStorage): Promise<StagedBlob> {
  const insecure = ctx.config.partnerLinksInsecure;
  const refused = (key: MessageKey, params?: MessageParams) => fail('partnerLinkRefused', { field, reason: t(lang, key, params) });
  const deadline = Date.now() + LINK_TIMEOUT_MS;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw refused('partnerLinkFailed');
  }
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'https:' && !(insecure && url.protocol === 'http:')) throw refused('partnerLinkNotHttps');
    if (url.username || url.password) throw refused('partnerLinkFailed');
    // A literal address is not looked up: it is checked here.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!insecure && (net.isIP(host) ? isInternalAddress(host) : host === 'localhost' || host.endsWith('.localhost'))) throw refused('partnerLinkPrivate');
    let got: Fetched;
    try {
      got = await getOnce(url, insecure, storage, ctx.config.uploadMaxBytes, deadline);
    } catch (err) {
      // (safeLookup's refusal arrives wrapped in the request's error)
      const cause = err instanceof LinkRefused ? err : (err as { cause?: unknown })?.cause;
      if (cause instanceof LinkRefused) throw refused(cause.key, cause.params);
      throw refused('partnerLinkFailed');
    }
    if (got.staged) return got.staged;
    if (hop >= PARTNER_LINK_MAX_REDIRECTS) throw refused('partnerLinkRedirects');
    try {
      url = new URL(got.location!, url);
    } catch {
      throw refused('partnerLinkFailed');
    }
  }
}
