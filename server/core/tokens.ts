// Access tokens are short-lived HS256 JWTs carrying the session (family) id and the user's
// password version. Refresh tokens are opaque, stored as sha256, good once, and rotate within
// the session; presenting a spent one revokes the whole session.
import { sign, verify } from 'hono/jwt';
import type { AppContext } from '../context.ts';
import type { AuthInfo } from './env.ts';
import { randomToken, sha256Hex } from './crypto.ts';
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

async function issuePair(
  ctx: AppContext,
  session: { id: string; userId: number; username: string; passwordVersion: number },
): Promise<TokenPair> {
  const now = ctx.clock.now();
  const { tokenExpire, refreshExpire } = ctx.config;
  const claims: AccessClaims = {
    sub: session.userId,
    sid: session.id,
    pv: session.passwordVersion,
    name: session.username,
    typ: 'access',
    iat: Math.floor(now / 1000),
    exp: Math.floor(now / 1000) + tokenExpire,
  };
  const token = await sign({ ...claims }, ctx.jwtSecret, 'HS256');
  const refreshToken = randomToken(32);
  await ctx.db
    .insertInto('base_refresh_token')
    .values({
      sessionId: session.id,
      tokenHash: await sha256Hex(refreshToken),
      expiresAt: now + refreshExpire * 1000,
      usedAt: null,
      createdAt: now,
    })
    .execute();
  return { token, expire: tokenExpire, refreshToken, refreshExpire };
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
  return issuePair(ctx, { id, userId: user.id, username: user.username, passwordVersion: user.passwordVersion });
}

export async function revokeSession(ctx: AppContext, sessionId: string): Promise<void> {
  await ctx.db
    .updateTable('base_session')
    .set({ revokedAt: ctx.clock.now() })
    .where('id', '=', sessionId)
    .where('revokedAt', 'is', null)
    .execute();
}

export async function revokeUserSessions(ctx: AppContext, userId: number): Promise<void> {
  await ctx.db
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
  if (row.usedAt !== null) {
    // A spent token came back: someone holds a copy. End the whole family.
    await revokeSession(ctx, row.sessionId);
    throw unauthorized('loggedInElsewhere');
  }
  if (Number(row.expiresAt) <= now) throw unauthorized();
  if (row.sessionPv !== row.userPv || row.status !== 1) throw unauthorized();
  const spent = await ctx.db
    .updateTable('base_refresh_token')
    .set({ usedAt: now })
    .where('id', '=', row.id)
    .where('usedAt', 'is', null)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) {
    // Lost a race with another use of the same token: that is reuse too.
    await revokeSession(ctx, row.sessionId);
    throw unauthorized('loggedInElsewhere');
  }
  return issuePair(ctx, { id: row.sessionId, userId: row.userId, username: row.username, passwordVersion: row.userPv });
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
