// POST /admin/base/comm/upload and GET /admin/base/comm/file/:id: any logged-in user.
// Files are checked (count, size, extension of the requested kind, STL content), stored by
// sha256 and recorded in space_info; downloads answer only to those who may read the file.
import { Hono, type Context } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { Code, envelope, ok } from '../../core/envelope.ts';
import { ApiError, fail } from '../../core/errors.ts';
import { formatTime } from '../../core/clock.ts';
import { t } from '../../core/i18n.ts';
import { authOf, canReadFile, SEE_ALL, seesAll } from './access.ts';
import { allowedExtensions, extensionOf, isKind, kindOf, mimeOf, type Kind } from './kinds.ts';
import { checkStl } from './stl-check.ts';
import type { BlobStorage } from './storage.ts';
import type { Serial } from './serial.ts';

export const UPLOAD_PATH = '/admin/base/comm/upload';
export const MAX_FILES = 9;
/** Room for multipart boundaries and the small fields next to the files. */
const FORM_OVERHEAD = 1024 * 1024;

export const uploadApi = [
  { method: 'post', path: '/upload', summary: 'Upload files (multipart: file..., kind?, classifyId?)' },
  { method: 'get', path: '/file/:id', summary: 'Download an uploaded file' },
] as const;

/** The URL a file row answers with: same origin, Authorization header required. */
export const fileUrl = (id: number) => `/admin/base/comm/file/${id}`;

const tooLarge = (name: string, maxBytes: number) =>
  new ApiError(Code.fail, 'uploadTooLarge', 413, { name, max: Math.round(maxBytes / 1024 / 1024) });

/** Counts bytes as they stream and stops past the limit, without buffering the body. */
function limited(c: Context<AppEnv>, maxBytes: number): Request {
  const raw = c.req.raw;
  const length = Number(raw.headers.get('content-length') ?? NaN);
  if (Number.isFinite(length) && length > maxBytes) throw tooLarge('', maxBytes - FORM_OVERHEAD);
  if (!raw.body) return raw;
  let seen = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > maxBytes) controller.error(tooLarge('', maxBytes - FORM_OVERHEAD));
      else controller.enqueue(chunk);
    },
  });
  return new Request(raw.url, { method: raw.method, headers: raw.headers, body: raw.body.pipeThrough(counter), duplex: 'half' } as RequestInit);
}

export function uploadRoutes(ctx: AppContext, storage: BlobStorage, serial: Serial) {
  const maxBytes = ctx.config.uploadMaxBytes;
  const maxMb = Math.round(maxBytes / 1024 / 1024);

  return new Hono<AppEnv>()
    .post('/upload', async (c) => {
      const auth = authOf(c);
      let form: FormData;
      try {
        // The files are held in memory once (undici's FormData); they are then streamed to disk.
        form = await limited(c, MAX_FILES * maxBytes + FORM_OVERHEAD).formData();
      } catch (err) {
        if (err instanceof ApiError) throw err;
        if (err instanceof TypeError && err.cause instanceof ApiError) throw err.cause;
        throw fail('uploadNoFile');
      }
      const files = [...form.values()].filter((v) => typeof v !== 'string') as unknown as File[];
      if (files.length === 0) throw fail('uploadNoFile');
      if (files.length > MAX_FILES) throw fail('uploadTooMany', { max: MAX_FILES });

      const kindField = String(form.get('kind') ?? form.get('type') ?? 'file').trim() || 'file';
      if (!isKind(kindField)) throw fail('uploadBadKind', { kind: kindField.slice(0, 40) });
      const kind: Kind = kindField;
      const classifyId = await folderOf(ctx, auth.userId, form.get('classifyId'));

      // Check every file before storing any: a rejected request stores nothing.
      const checked: { file: File; ext: string; triangles: number | null }[] = [];
      for (const file of files) {
        const name = file.name || 'file';
        if (file.size > maxBytes) throw new ApiError(Code.fail, 'uploadTooLarge', 413, { name, max: maxMb });
        const ext = extensionOf(name);
        const allowed = allowedExtensions(kind);
        if (allowed && !allowed.includes(ext)) {
          throw fail('uploadBadExtension', { name, kind: t(c.get('lang'), KIND_LABEL[kind]), allowed: allowed.map((e) => `.${e}`).join(' ') });
        }
        let triangles: number | null = null;
        if (ext === 'stl') {
          const stl = await checkStl(file, ctx.logger);
          if (!stl.ok) throw fail('uploadNotStl', { name, detail: stl.detail });
          triangles = stl.triangles;
        }
        checked.push({ file, ext, triangles });
      }

      const now = formatTime(ctx.clock.now());
      const rows = await serial.run(async () => {
        const stored: ((typeof checked)[number] & { key: string; size: number })[] = [];
        for (const { file, ext, triangles } of checked) {
          const { key, size } = await storage.put(file.stream());
          stored.push({ file, ext, triangles, key, size });
        }
        return ctx.db.transaction().execute(async (trx) => {
          const out = [];
          for (const s of stored) {
            const values = {
              url: '',
              key: s.key,
              name: (s.file.name || 'file').slice(0, 255),
              size: s.size,
              mime: mimeOf(s.ext),
              kind: kind === 'file' ? kindOf(s.ext) : kind,
              classifyId,
              userId: auth.userId,
              triangleCount: s.triangles,
              createTime: now,
              updateTime: now,
            };
            const { id } = await trx.insertInto('space_info').values(values).returning('id').executeTakeFirstOrThrow();
            await trx.updateTable('space_info').set({ url: fileUrl(id) }).where('id', '=', id).execute();
            const { key: _key, ...visible } = values;
            out.push({ id, ...visible, url: fileUrl(id) });
          }
          return out;
        });
      });
      return ok(c, rows);
    })
    .get('/file/:id{[0-9]+}', async (c) => {
      const auth = authOf(c);
      const id = Number(c.req.param('id'));
      // Someone else's file answers exactly like a missing one.
      if (!(await canReadFile(ctx, auth.userId, id))) {
        return c.json(envelope(Code.fail, t(c.get('lang'), 'dataNotFound')), 404);
      }
      const row = await ctx.db.selectFrom('space_info').select(['key', 'name', 'size', 'mime']).where('id', '=', id).executeTakeFirstOrThrow();
      if (!storage.has(row.key)) {
        ctx.logger.error(`space_info ${id}: stored bytes ${row.key} are missing`);
        return c.json(envelope(Code.fail, t(c.get('lang'), 'dataNotFound')), 404);
      }
      return new Response(storage.get(row.key), {
        headers: {
          'Content-Type': row.mime,
          'Content-Length': String(row.size),
          'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(row.name)}`,
          'Cache-Control': 'private, no-cache',
          // A user's file must never run as a page of this origin (an SVG or HTML upload).
          'Content-Security-Policy': "default-src 'none'; sandbox",
          'X-Content-Type-Options': 'nosniff',
        },
      });
    });
}

const KIND_LABEL = {
  image: 'kindImage', video: 'kindVideo', audio: 'kindAudio', word: 'kindWord', excel: 'kindExcel',
  ppt: 'kindPpt', pdf: 'kindPdf', rar: 'kindRar', model: 'kindModel', file: 'kindFile',
} as const;

/** A folder id from the form, only when it is the caller's folder (or they administer files). */
async function folderOf(ctx: AppContext, userId: number, raw: unknown): Promise<number | null> {
  if (raw === null || raw === '' || typeof raw !== 'string') return null;
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0) return null;
  const folder = await ctx.db.selectFrom('space_type').select(['id', 'userId']).where('id', '=', id).executeTakeFirst();
  if (!folder) return null;
  if (folder.userId !== userId && !(await seesAll(ctx.db, userId, SEE_ALL.files))) return null;
  return folder.id;
}
