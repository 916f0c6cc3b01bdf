// Captchas. Answers live in a store (the database by default, so any process can check them);
// tests inject a store that also remembers answers so they can log in with CAPTCHA on. The image
// comes from a generator passed in (captcha.svg.ts on Node), so the app itself stays Node-free.
import type { Db } from '../../db/index.ts';
import type { Clock } from '../../core/clock.ts';
import { randomToken, toBase64 } from '../../core/crypto.ts';

const TTL_MS = 10 * 60 * 1000;

export interface CaptchaStore {
  put(id: string, answer: string, expiresAt: number): Promise<void>;
  /** Returns the entry and forgets it: every captcha is good for one try. */
  take(id: string): Promise<{ answer: string; expiresAt: number } | undefined>;
}

export interface CaptchaImage {
  /** The answer. */
  text: string;
  /** SVG markup. */
  svg: string;
}
export type CaptchaGenerator = (size: { width: number; height: number }) => CaptchaImage;

export interface CaptchaService {
  create(size?: { width?: number; height?: number }): Promise<{ captchaId: string; data: string }>;
  check(captchaId: string | undefined, code: string | undefined): Promise<boolean>;
}

export function dbCaptchaStore(db: Db, clock: Clock): CaptchaStore {
  return {
    async put(id, answer, expiresAt) {
      // Drop stale rows as new ones come, so the table stays small without a timer.
      await db.deleteFrom('base_captcha').where('expiresAt', '<', clock.now()).execute();
      await db.insertInto('base_captcha').values({ id, answer, expiresAt }).execute();
    },
    async take(id) {
      const row = await db
        .deleteFrom('base_captcha')
        .where('id', '=', id)
        .returning(['answer', 'expiresAt'])
        .executeTakeFirst();
      return row ? { answer: row.answer, expiresAt: Number(row.expiresAt) } : undefined;
    },
  };
}

export function createCaptchaService(store: CaptchaStore, clock: Clock, generate: CaptchaGenerator): CaptchaService {
  return {
    async create(size = {}) {
      const width = clamp(size.width, 80, 400, 150);
      const height = clamp(size.height, 30, 200, 50);
      const image = generate({ width, height });
      const captchaId = randomToken(16);
      await store.put(captchaId, image.text.toLowerCase(), clock.now() + TTL_MS);
      const data = `data:image/svg+xml;base64,${toBase64(new TextEncoder().encode(image.svg))}`;
      return { captchaId, data };
    },
    async check(captchaId, code) {
      if (!captchaId || !code) return false;
      const entry = await store.take(captchaId);
      return !!entry && entry.expiresAt > clock.now() && entry.answer === code.trim().toLowerCase();
    },
  };
}

function clamp(value: number | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}
