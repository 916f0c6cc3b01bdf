// Access tokens are short-lived HS256 JWTs carrying the session (family) id and the user's
// password version. Refresh tokens are opaque, stored as sha256, good once, and rotate within
// the session; presenting a spent one revokes the whole session, except within a short grace
// after its rotation (two tabs refreshing at once), which answers the pair it was rotated into.
import { sign, verify } from 'hono/jwt';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/index.ts';
import type { AuthInfo } from './env.ts';
import { hmacToken, randomToken, sha256Hex } from './crypto.ts';
import { unauthorized } from './errors.ts';

export interface TokenPair {
  token: string;
  /** Seconds. */
  expire: number;
  refreshToken: string;
  /** Seconds. */
  refreshExpire: number;
}

interface AccessClaims {
  sub: number;
  sid: string;
  pv: number;
  name: string;
  typ: 'access';
  iat: number;
  exp: number;
}

/**
 * How long after a rotation the spent refresh token still answers: two tabs refreshing the same
 * token at once both get the pair the first one got. After it, a spent token is reuse.
 */
export const REFRESH_GRACE_MS = 10_000;

/**
 * The refresh token that replaces `refreshToken` on its rotation: derived from it under the
 * server's secret, so a second presenter within the grace gets the same one without the server
 * storing any raw token (the table keeps sha256 hashes only). Nobody without the secret can
 * derive it from a stolen token.
 */
const successorOf = (ctx: AppContext, refreshToken: string) => hmacToken(ctx.jwtSecret, `refresh-successor:${refreshToken}`);

interface SessionInfo {
  id: string;
  userId: number;
  username: string;
  passwordVersion: number;
}

/** The access token of a session issued at `at` (ms): the same claims sign to the same string. */
async function accessToken(ctx: AppContext, session: SessionInfo, at: number): Promise<string> {
  const iat = Math.floor(at / 1000);
  const claims: AccessClaims = {
    sub: session.userId,
    sid: session.id,
    pv: session.passwordVersion,
    name: session.username,
    typ: 'access',
    iat,
    exp: iat + ctx.config.tokenExpire,
  };
  return sign({ ...claims }, ctx.jwtSecret, 'HS256');
}

/** A new pair issued at `at`; its refresh token is stored (hashed) through `db`. */
async function issuePair(ctx: AppContext, session: SessionInfo, at: number, refreshToken: string, db: Db = ctx.db): Promise<TokenPair> {
  const { tokenExpire, refreshExpire } = ctx.config;
  await db
    .insertInto('base_refresh_token')
    .values({
      sessionId: session.id,
      tokenHash: await sha256Hex(refreshToken),
      expiresAt: at + refreshExpire * 1000,
      usedAt: null,
      createdAt: at,
    })
    .execute();
  return { token: await accessToken(ctx, session, at), expire: tokenExpire, refreshToken, refreshExpire };
}

/** Drops refresh tokens past expiry; they can no longer refresh, so reuse detection is moot. */
export async function pruneExpiredTokens(ctx: AppContext): Promise<void> {
  await ctx.db.deleteFrom('base_refresh_token').where('expiresAt', '<=', ctx.clock.now()).execute();
}

/** A new session for a user who just proved who they are. */
export async function startSession(
  ctx: AppContext,
  user: { id: number; username: string; passwordVersion: number },
): Promise<TokenPair> {
  const id = randomToken(18);
  await ctx.db
    .insertInto('base_session')
    .values({ id, userId: user.id, passwordVersion: user.passwordVersion, createdAt: ctx.clock.now(), revokedAt: null })
    .execute();
  return issuePair(ctx, { id, userId: user.id, username: user.username, passwordVersion: user.passwordVersion }, ctx.clock.now(), randomToken(32));
}

export async function revokeSession(ctx: AppContext, sessionId: string): Promise<void> {
  await ctx.db
    .updateTable('base_session')
    .set({ revokedAt: ctx.clock.now() })
    .where('id', '=', sessionId)
    .where('revokedAt', 'is', null)
    .execute();
}

/** Ends every session of the user; `db` is the transaction when called inside one. */
export async function revokeUserSessions(ctx: AppContext, userId: number, db: Db = ctx.db): Promise<void> {
  await db
    .updateTable('base_session')
    .set({ revokedAt: ctx.clock.now() })
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .execute();
}

export async function rotateRefreshToken(ctx: AppContext, refreshToken: string): Promise<TokenPair> {
  const now = ctx.clock.now();
  const row = await ctx.db
    .selectFrom('base_refresh_token as rt')
    .innerJoin('base_session as s', 's.id', 'rt.sessionId')
    .innerJoin('base_sys_user as u', 'u.id', 's.userId')
    .select([
      'rt.id', 'rt.expiresAt', 'rt.usedAt', 's.id as sessionId', 's.revokedAt', 's.userId',
      's.passwordVersion as sessionPv', 'u.passwordVersion as userPv', 'u.status', 'u.username',
    ])
    .where('rt.tokenHash', '=', await sha256Hex(refreshToken))
    .executeTakeFirst();
  if (!row) throw unauthorized();
  if (row.revokedAt !== null) throw unauthorized('loggedInElsewhere');
  const session: SessionInfo = { id: row.sessionId, userId: row.userId, username: row.username, passwordVersion: row.userPv };
  const alive = () => {
    if (Number(row.expiresAt) <= now) throw unauthorized();
    if (row.sessionPv !== row.userPv || row.status !== 1) throw unauthorized();
  };
  if (row.usedAt !== null) return again(ctx, refreshToken, session, Number(row.usedAt), alive);
  alive();
  const successor = await successorOf(ctx, refreshToken);
  const pair = await ctx.db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable('base_refresh_token')
      .set({ usedAt: now })
      .where('id', '=', row.id)
      .where('usedAt', 'is', null)
      .executeTakeFirst();
    return Number(spent.numUpdatedRows) === 1 ? issuePair(ctx, session, now, successor, trx) : undefined;
  });
  if (pair) return pair;
  // Another request spent it between our read and our write (two tabs at once): answer as it did.
  const usedAt = (await ctx.db.selectFrom('base_refresh_token').select('usedAt').where('id', '=', row.id).executeTakeFirst())?.usedAt;
  return again(ctx, refreshToken, session, Number(usedAt ?? 0), alive);
}

/**
 * A spent refresh token presented again. Within REFRESH_GRACE_MS of its rotation, while the pair
 * it was rotated into is unspent, it answers that same pair (no new rows). Otherwise someone holds
 * a copy: the whole session (family) is revoked.
 */
async function again(ctx: AppContext, refreshToken: string, session: SessionInfo, usedAt: number, alive: () => void): Promise<TokenPair> {
  const successor = await successorOf(ctx, refreshToken);
  if (ctx.clock.now() - usedAt <= REFRESH_GRACE_MS) {
    const next = await ctx.db
      .selectFrom('base_refresh_token')
      .select('usedAt')
      .where('sessionId', '=', session.id)
      .where('tokenHash', '=', await sha256Hex(successor))
      .executeTakeFirst();
    if (next && next.usedAt === null) {
      alive();
      const { tokenExpire, refreshExpire } = ctx.config;
      return { token: await accessToken(ctx, session, usedAt), expire: tokenExpire, refreshToken: successor, refreshExpire };
    }
  }
  await revokeSession(ctx, session.id);
  throw unauthorized('loggedInElsewhere');
}

/** The raw Authorization value, with an optional "Bearer " prefix removed. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  return value.replace(/^Bearer\s+/i, '') || undefined;
}

/**
 * Tokens whose signature checked out, per secret: a client sends the same token with every call,
 * and Web Crypto's HMAC runs on libuv's thread pool, where under load it queues behind file I/O
 * and password hashing. Only the signature is remembered (a string's signature under a secret
 * never changes); expiry, session and password version are checked on every call. Bounded: the
 * oldest entries go first.
 */
const verified = new Map<string, Map<string, Partial<AccessClaims>>>();
const VERIFIED_MAX = 10_000;

async function signedClaims(secret: string, token: string): Promise<Partial<AccessClaims>> {
  let cache = verified.get(secret);
  const hit = cache?.get(token);
  if (hit) return hit;
  // Expiry is checked by the caller against the injectable clock, not the wall clock.
  const claims = (await verify(token, secret, { alg: 'HS256', exp: false, nbf: false, iat: false })) as Partial<AccessClaims>;
  if (!cache) {
    if (verified.size >= 8) verified.clear();
    cache = new Map();
    verified.set(secret, cache);
  }
  if (cache.size >= VERIFIED_MAX) cache.delete(cache.keys().next().value!);
  cache.set(token, claims);
  return claims;
}

/** Checks signature, expiry (by the context clock), session and password version. */
export async function verifyAccessToken(ctx: AppContext, token: string): Promise<AuthInfo> {
  let claims: Partial<AccessClaims>;
  try {
    claims = await signedClaims(ctx.jwtSecret, token);
  } catch {
    throw unauthorized();
  }
  const { sub, sid, pv, exp, typ } = claims;
  if (typ !== 'access' || typeof sub !== 'number' || typeof sid !== 'string' || typeof pv !== 'number' || typeof exp !== 'number') {
    throw unauthorized();
  }
  if (exp * 1000 <= ctx.clock.now()) throw unauthorized();
  const row = await ctx.db
    .selectFrom('base_session as s')
    .innerJoin('base_sys_user as u', 'u.id', 's.userId')
    .select(['s.revokedAt', 's.userId', 's.passwordVersion as sessionPv', 'u.passwordVersion as userPv', 'u.status', 'u.username'])
    .where('s.id', '=', sid)
    .executeTakeFirst();
  if (!row || row.userId !== sub) throw unauthorized();
  if (row.revokedAt !== null) throw unauthorized('loggedInElsewhere');
  if (row.sessionPv !== pv || row.userPv !== pv || row.status !== 1) throw unauthorized();
  return { userId: sub, username: row.username, sessionId: sid, passwordVersion: pv };
}
