// A plugin package: a JSON manifest, or a ZIP holding `manifest.json` and other files. The
// manifest is checked (names, versions, settings schema, menus only under the plugin's own route
// prefix, permissions only under its own permission prefix); the other files are only listed
// (names and sizes): nothing in a package is ever run, written to disk or served.
import { z } from 'zod';
import { MAX_PLUGIN_MENUS, MAX_PLUGIN_PACKAGE_BYTES, PLUGIN_NAME, PLUGIN_ROUTE_PREFIX, settingsSchemaSchema } from '../../../common/plugins.ts';
import { fail } from '../../core/errors.ts';
import { listZip, looksLikeZip, readZipEntry, unzippedSize } from '../../core/zip.ts';

const MAX_FILES = 200;
const MAX_UNZIPPED = 4 * 1024 * 1024;
const MAX_MANIFEST = 64 * 1024;
/** Manifest fields that would have the server run something: refused, never ignored. */
const CODE_FIELDS = ['scripts', 'main', 'server', 'hooks', 'install', 'postinstall', 'preinstall', 'entry'];

const text = (max: number) => z.string().trim().min(1).max(max);
const permOf = (name: string) => z.string().regex(new RegExp(`^plugin:${name}:[a-zA-Z][\\w]{0,39}$`), `permission outside plugin:${name}:`);

export function manifestSchema(name: string) {
  const routeRe = new RegExp(`^${PLUGIN_ROUTE_PREFIX}${name}(/[a-z0-9][a-z0-9-]{0,39}){0,3}$`);
  return z.strictObject({
    name: z.literal(name),
    version: z.string().regex(/^\d{1,4}\.\d{1,4}\.\d{1,4}(?:-[0-9A-Za-z.]{1,32})?$/, 'version must be x.y.z'),
    title: text(64).optional(),
    description: z.string().max(1000).optional(),
    settings: settingsSchemaSchema.optional(),
    permissions: z.array(permOf(name)).max(50).optional(),
    menus: z
      .array(
        z.strictObject({
          name: text(64),
          router: z.string().regex(routeRe, `menu path outside ${PLUGIN_ROUTE_PREFIX}${name}`),
          /** The page's content: an https address shown in a frame. */
          url: z.string().max(2048).regex(/^https:\/\/[^\s"'<>]+$/, 'menu url must be https'),
          icon: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/).optional(),
          perms: z.array(permOf(name)).max(20).optional(),
        }),
      )
      .max(MAX_PLUGIN_MENUS)
      .optional(),
  });
}
export type Manifest = z.output<ReturnType<typeof manifestSchema>>;

export interface PluginPackage {
  manifest: Manifest;
  /** The package's other files (kept as names and sizes only). */
  files: { name: string; size: number }[];
}

const invalid = (reason: string) => fail('pluginPackageInvalid', { reason });

/** A file name inside a package: relative, no `..`, no backslashes or drive letters. */
export function safeEntryName(name: string): boolean {
  if (!name || name.length > 200 || name.includes('\\') || name.includes('\0') || name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return false;
  return name.split('/').every((part, i, all) => (part === '' ? i === all.length - 1 : part !== '..' && part !== '.'));
}

function parseManifest(raw: string): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw invalid('manifest is not JSON');
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw invalid('manifest is not an object');
  const record = json as Record<string, unknown>;
  const code = CODE_FIELDS.find((f) => f in record);
  if (code) throw invalid(`"${code}": packages may not run code`);
  const name = typeof record.name === 'string' ? record.name : '';
  if (!PLUGIN_NAME.test(name)) throw invalid('name must be lower-case letters, digits and dashes');
  const parsed = manifestSchema(name).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(`${issue.path.join('.') || 'manifest'}: ${issue.message}`);
  }
  return parsed.data;
}

/** Reads and checks an uploaded package (JSON manifest or ZIP). */
export function readPackage(bytes: Uint8Array): PluginPackage {
  if (bytes.length > MAX_PLUGIN_PACKAGE_BYTES) throw fail('pluginPackageTooLarge', { max: MAX_PLUGIN_PACKAGE_BYTES / 1024 });
  if (!looksLikeZip(bytes)) {
    if (bytes.length > MAX_MANIFEST) throw fail('pluginPackageTooLarge', { max: MAX_MANIFEST / 1024 });
    return { manifest: parseManifest(new TextDecoder().decode(bytes)), files: [] };
  }
  const entries = listZip(bytes, MAX_FILES);
  if (!entries) throw invalid('not a readable ZIP, or too many files');
  const bad = entries.find((e) => !safeEntryName(e.name));
  if (bad) throw invalid(`unsafe file name "${bad.name.slice(0, 80)}"`);
  if (unzippedSize(entries) > MAX_UNZIPPED) throw fail('pluginPackageTooLarge', { max: MAX_UNZIPPED / 1024 });
  const manifestEntry = entries.find((e) => e.name === 'manifest.json');
  if (!manifestEntry) throw invalid('manifest.json is missing');
  if (manifestEntry.size > MAX_MANIFEST) throw fail('pluginPackageTooLarge', { max: MAX_MANIFEST / 1024 });
  const raw = readZipEntry(bytes, manifestEntry);
  if (!raw) throw invalid('manifest.json cannot be read');
  const manifest = parseManifest(new TextDecoder().decode(raw));
  const files = entries.filter((e) => e !== manifestEntry && !e.name.endsWith('/')).map((e) => ({ name: e.name, size: e.size }));
  return { manifest, files };
}
