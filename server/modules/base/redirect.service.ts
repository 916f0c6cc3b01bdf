// One-time sign-in links (spec "POST redirect"): a code, good once for REDIRECT_TTL_MS (or the
// issuer's own validity), that signs a user in and names a local path of the app to open (the
// /transfer page takes it). The signed-in user asks one for themselves (comm/redirect); the
// partner API's `redirect` asks one for a named user of its department, opening the editor on an
// order (PARTNER_REDIRECT_TTL_MS). Only the code's SHA-256 is stored; a used, expired or
// unknown code, one of a disabled user, one issued before the user's password changed, or one a
// partner issued that no longer acts for the user (entry disabled, user moved out of its
// departments), gets the same answer.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { randomToken, sha256Hex } from '../../core/crypto.ts';
import { fail } from '../../core/errors.ts';
import { startSession, type TokenPair } from '../../core/tokens.ts';
import { partnerActsFor } from '../open/partner.ts';

export const REDIRECT_TTL_MS = 60_000;

/** A local path of the app: no scheme, host or protocol-relative form (never an open redirect). */
export const redirectTarget = z
  .string()
  .max(512)
  .regex(/^\/(?![/\\])[^\s]*$/);

export const redirectRequestSchema = z.object({ target: redirectTarget.default('/') }).strict();
export const redirectCodeSchema = z.object({ code: z.string().min(20).max(128) }).strict();

export interface RedirectTicket {
  code: string;
  /** Seconds the code stays good. */
  expire: number;
  /** The app path that takes the code. */
  url: string;
}

export interface RedirectOptions {
  /** How long the code stays good (default REDIRECT_TTL_MS). */
  ttlMs?: number;
  /** The partner entry that asks for it: the code then signs in only while it acts for the user. */
  partnerId?: number;
}

/** A code for this user (who must exist and be enabled) that opens `target` (a checked local path), good once. */
export async function issueRedirect(ctx: AppContext, userId: number, target: string, { ttlMs = REDIRECT_TTL_MS, partnerId }: RedirectOptions = {}): Promise<RedirectTicket> {
  const now = ctx.clock.now();
  const user = await ctx.db.selectFrom('base_sys_user').select(['passwordVersion', 'status']).where('id', '=', userId).executeTakeFirst();
  if (!user || user.status !== 1) throw fail('userDisabled');
  const code = randomToken(32);
  await ctx.db.deleteFrom('base_redirect_ticket').where('expiresAt', '<', now).execute();
  await ctx.db
    .insertInto('base_redirect_ticket')
    .values({ codeHash: await sha256Hex(code), userId, passwordVersion: user.passwordVersion, target, expiresAt: now + ttlMs, usedAt: null, createTime: formatTime(now), partnerId: partnerId ?? null })
    .execute();
  return { code, expire: ttlMs / 1000, url: `/transfer?code=${encodeURIComponent(code)}` };
}

/** Spends a code: a new session of its user and the path to open. */
export async function takeRedirect(ctx: AppContext, code: string): Promise<TokenPair & { target: string }> {
  const now = ctx.clock.now();
  const codeHash = await sha256Hex(code);
  // Marked used in the same statement that checks it: two requests with one code get one session.
  const spent = await ctx.db
    .updateTable('base_redirect_ticket')
    .set({ usedAt: now })
    .where('codeHash', '=', codeHash)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>=', now)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) throw fail('redirectInvalid');
  const ticket = await ctx.db.selectFrom('base_redirect_ticket').select(['userId', 'target', 'passwordVersion', 'partnerId']).where('codeHash', '=', codeHash).executeTakeFirstOrThrow();
  const user = await ctx.db.selectFrom('base_sys_user').select(['id', 'username', 'passwordVersion', 'status', 'departmentId']).where('id', '=', ticket.userId).executeTakeFirst();
  if (!user || user.status !== 1 || user.passwordVersion !== ticket.passwordVersion) throw fail('redirectInvalid');
  if (ticket.partnerId !== null && !(await partnerActsFor(ctx.db, ticket.partnerId, user.departmentId))) throw fail('redirectInvalid');
  return { ...(await startSession(ctx, user)), target: ticket.target };
}
