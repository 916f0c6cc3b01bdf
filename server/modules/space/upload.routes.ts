// POST /admin/base/comm/upload and GET /admin/base/comm/file/:id: any logged-in user.
// Files are checked (count, size, extension of the requested kind, STL content), stored by
// sha256 and recorded in space_info; downloads answer only to those who may read the file.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { entryDoc, epsGroup } from '../../core/eps.ts';
import { Code, envelope, ok } from '../../core/envelope.ts';
import { ApiError, fail } from '../../core/errors.ts';
import { formatTime } from '../../core/clock.ts';
import { t } from '../../core/i18n.ts';
import { authOf, SEE_ALL, seesAll } from '../../core/access.ts';
import { canReadFile } from './access.ts';
import { allowedExtensions, extensionOf, isKind, kindOf, mimeOf, type Kind } from './kinds.ts';
import { checkStl, STL_REASON, type StlHealth } from './stl-check.ts';
import type { BlobStorage, BlobWriter, StagedBlob } from './storage.ts';
import { boundaryOf, MultipartError, MultipartLimitError, readMultipart } from './multipart.ts';
import type { Serial } from './serial.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export const UPLOAD_PATH = '/admin/base/comm/upload';
export const MAX_FILES = 9;
/** Most parts of one upload form (files and fields together). */
export const MAX_PARTS = 100;
/** Room for multipart boundaries and the small fields next to the files. */
const FORM_OVERHEAD = 1024 * 1024;
/** The longest body an upload can need: every file at its limit, plus the form around them. */
export const maxUploadBody = (maxBytes: number) => MAX_FILES * maxBytes + FORM_OVERHEAD;

/** eps entries: the upload calls (any logged-in user) and images by their signed link. */
const UPLOAD = epsGroup('space', '/admin/base/comm', 'SpaceUpload');
const IMAGE = epsGroup('space', '/admin/base/open', 'SpaceImage');

/** The URL of a file: same origin, Authorization header required (models and documents). */
export const fileUrl = (id: number) => `/admin/base/comm/file/${id}`;

/**
 * Images are also reachable without a token, by an unguessable link (HMAC of the id with the
 * server secret), so that <img> tags (avatars, help articles, thumbnails) can show them.
 */
export function imageUrl(secret: string, id: number): string {
  return `/admin/base/open/file/${id}/${imageSignature(secret, id)}`;
}
function imageSignature(secret: string, id: number): string {
  return createHmac('sha256', secret).update(`space-image:${id}`).digest('base64url').slice(0, 32);
}
const urlOf = (secret: string, id: number, kind: string) => (kind === 'image' ? imageUrl(secret, id) : fileUrl(id));

const tooLarge = (name: string, maxBytes: number) =>
  new ApiError(Code.fail, 'uploadTooLarge', 413, { name, max: Math.round(maxBytes / 1024 / 1024) });
const bodyTooLarge = (maxBytes: number) =>
  new ApiError(Code.fail, 'uploadBodyTooLarge', 413, { max: Math.round(maxUploadBody(maxBytes) / 1024 / 1024) });

/**
 * The sink of a file part sent without a file name. An empty file input of a browser form sends
 * one with no bytes: that is no file, and nothing is staged for it. With bytes it is refused.
 */
const namelessSink = {
  async write(chunk: Uint8Array) {
    if (chunk.byteLength > 0) throw fail('uploadNoFileName');
  },
  async end() {},
};

interface Received {
  /** The form field the file came in. */
  field: string;
  name: string;
  writer: BlobWriter;
  staged?: StagedBlob;
}

/**
 * Streams the multipart body: each file part goes straight to a staged blob on disk, so no
 * upload is held in memory whole. Count and size limits stop the reading at once.
 */
export async function receive(raw: Request, storage: BlobStorage, maxBytes: number) {
  const boundary = boundaryOf(raw.headers.get('content-type'));
  if (!boundary || !raw.body) throw fail('uploadNoFile');
  const length = Number(raw.headers.get('content-length') ?? NaN);
  if (Number.isFinite(length) && length > maxUploadBody(maxBytes)) throw bodyTooLarge(maxBytes);

  const fields = new Map<string, string>();
  const files: Received[] = [];
  try {
    await readMultipart(raw.body, boundary, {
      field: (name, value) => void (fields.has(name) || fields.set(name, value)),
      file(part) {
        if (!part.filename) return namelessSink;
        if (files.length >= MAX_FILES) throw fail('uploadTooMany', { max: MAX_FILES });
        const received: Received = { field: part.field, name: part.filename.slice(0, 255), writer: storage.writer() };
        files.push(received);
        return {
          async write(chunk) {
            if (received.writer.size + chunk.byteLength > maxBytes) throw tooLarge(received.name || 'file', maxBytes);
            await received.writer.write(chunk);
          },
          async end() {
            received.staged = await received.writer.finish();
          },
        };
      },
    }, { parts: MAX_PARTS, bytes: maxUploadBody(maxBytes) });
  } catch (err) {
    // Also when the client went away mid-upload (the body stream fails): nothing stays staged.
    await Promise.all(files.map((f) => (f.staged ? storage.discard(f.staged) : f.writer.abort())));
    if (err instanceof ApiError) throw err;
    if (err instanceof MultipartLimitError) {
      throw err.limit === 'bytes' ? bodyTooLarge(maxBytes) : fail('uploadTooManyParts', { max: MAX_PARTS });
    }
    if (err instanceof MultipartError) throw fail('uploadMalformed');
    throw err;
  }
  return { fields, files: files as (Received & { staged: StagedBlob })[] };
}

/** Records committed bytes as a file of the space (inside the caller's transaction). */
export async function recordFile(
  ctx: AppContext,
  trx: Kysely<Database>,
  f: { staged: StagedBlob; name: string; ext: string; kind: Kind; classifyId: number | null; userId: number; triangles: number | null; now: string },
) {
  const values = {
    url: '',
    key: f.staged.key,
    name: f.name,
    size: f.staged.size,
    mime: mimeOf(f.ext),
    kind: f.kind === 'file' ? kindOf(f.ext) : f.kind,
    classifyId: f.classifyId,
    userId: f.userId,
    triangleCount: f.triangles,
    createTime: f.now,
    updateTime: f.now,
  };
  const { id } = await trx.insertInto('space_info').values(values).returning('id').executeTakeFirstOrThrow();
  const url = urlOf(ctx.jwtSecret, id, values.kind);
  await trx.updateTable('space_info').set({ url }).where('id', '=', id).execute();
  return { id, ...values, url };
}

export function uploadRoutes(ctx: AppContext, storage: BlobStorage, serial: Serial) {
  const maxBytes = ctx.config.uploadMaxBytes;

  const doc = entryDoc(UPLOAD);
  const comm = new Hono<AppEnv>()
    .post('/upload', doc('Upload files (multipart: file..., kind?, classifyId?)'), async (c) => {
      const auth = authOf(c);
      const { fields, files } = await receive(c.req.raw, storage, maxBytes);
      let committed = false;
      try {
        if (files.length === 0) throw fail('uploadNoFile');

        const kindField = (fields.get('kind') ?? fields.get('type') ?? 'file').trim() || 'file';
        if (!isKind(kindField)) throw fail('uploadBadKind', { kind: kindField.slice(0, 40) });
        const kind: Kind = kindField;
        const classifyId = await folderOf(ctx, auth.userId, fields.get('classifyId') ?? null);

        // Check every file before storing any: a rejected request stores nothing.
        const checked: { name: string; ext: string; staged: StagedBlob; triangles: number | null; health: StlHealth | null }[] = [];
        for (const { name: rawName, staged } of files) {
          const name = rawName || 'file';
          const ext = extensionOf(name);
          const allowed = allowedExtensions(kind);
          if (allowed && !allowed.includes(ext)) {
            throw fail('uploadBadExtension', { name, kind: t(c.get('lang'), KIND_LABEL[kind]), allowed: allowed.map((e) => `.${e}`).join(' ') });
          }
          let triangles: number | null = null;
          let health: StlHealth | null = null;
          if (ext === 'stl') {
            const stl = await checkStl(await storage.openStaged(staged), ctx.logger);
            if (!stl.ok) {
              const lang = c.get('lang');
              throw fail('uploadNotStl', { name, detail: t(lang, STL_REASON[stl.code] ?? 'stlUnreadable') });
            }
            triangles = stl.triangles;
            health = stl.health;
          }
          checked.push({ name, ext, staged, triangles, health });
        }

        const now = formatTime(ctx.clock.now());
        const rows = await serial.run(async () => {
          for (const { staged } of checked) await storage.commit(staged);
          committed = true;
          return ctx.db.transaction().execute(async (trx) => {
            const out = [];
            for (const s of checked) {
              const { id, url, key: _key, ...visible } = await recordFile(ctx, trx, { staged: s.staged, name: s.name, ext: s.ext, kind, classifyId, userId: auth.userId, triangles: s.triangles, now });
              // STL files also carry their health (not stored: the order form warns at once).
              out.push({ id, ...visible, url, ...(s.ext === 'stl' ? { health: s.health } : {}) });
            }
            return out;
          });
        });
        return ok(c, rows);
      } finally {
        if (!committed) await Promise.all(files.map((f) => storage.discard(f.staged)));
      }
    })
    // The order form checks a chosen model against this before sending it, so a file over the
    // limit is offered simplification at once instead of failing after a long upload.
    .get('/uploadLimit', doc('Upload limits: { maxBytes, maxFiles }'), (c) => ok(c, { maxBytes, maxFiles: MAX_FILES }))
    .get('/file/:id{[0-9]+}', doc('Download an uploaded file'), async (c) => {
      const auth = authOf(c);
      const id = Number(c.req.param('id'));
      // Someone else's file answers exactly like a missing one.
      if (!(await canReadFile(ctx, auth.userId, id))) return notFound(c);
      return serve(c, id);
    });

  async function serve(c: Context<AppEnv>, id: number, onlyKind?: string) {
    const row = await ctx.db.selectFrom('space_info').select(['key', 'name', 'size', 'mime', 'kind']).where('id', '=', id).executeTakeFirst();
    if (!row || (onlyKind && row.kind !== onlyKind)) return notFound(c);
    if (!storage.has(row.key)) {
      ctx.logger.error(`space_info ${id}: stored bytes ${row.key} are missing`);
      return notFound(c);
    }
    return new Response(storage.get(row.key), {
      headers: {
        'Content-Type': row.mime,
        'Content-Length': String(row.size),
        'Content-Disposition': `${onlyKind ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(row.name)}`,
        'Cache-Control': onlyKind ? 'private, max-age=3600' : 'private, no-cache',
        // A user's file must never run as a page of this origin (an SVG or HTML upload).
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'X-Content-Type-Options': 'nosniff',
      },
    });
  }

  /** Mounted under /admin/base/open: images by their signed link, no token. */
  const image = entryDoc(IMAGE)('An uploaded image by its signed link (no token)');
  const open = new Hono<AppEnv>().get('/file/:id{[0-9]+}/:signature{[A-Za-z0-9_-]{32}}', image, async (c) => {
    const id = Number(c.req.param('id'));
    const given = Buffer.from(c.req.param('signature'));
    const expected = Buffer.from(imageSignature(ctx.jwtSecret, id));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return notFound(c);
    return serve(c, id, 'image');
  });

  return { comm, open };
}

function notFound(c: Context<AppEnv>) {
  return c.json(envelope(Code.fail, t(c.get('lang'), 'dataNotFound')), 404);
}

const KIND_LABEL = {
  image: 'kindImage', video: 'kindVideo', audio: 'kindAudio', word: 'kindWord', excel: 'kindExcel',
  ppt: 'kindPpt', pdf: 'kindPdf', rar: 'kindRar', model: 'kindModel', file: 'kindFile',
} as const;

/** A folder id from the form, only when it is the caller's folder (or they administer files). */
async function folderOf(ctx: AppContext, userId: number, raw: string | null): Promise<number | null> {
  if (raw === null || raw === '') return null;
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0) return null;
  const folder = await ctx.db.selectFrom('space_type').select(['id', 'userId']).where('id', '=', id).executeTakeFirst();
  if (!folder) return null;
  if (folder.userId !== userId && !(await seesAll(ctx.db, userId, SEE_ALL.files))) return null;
  return folder.id;
}
