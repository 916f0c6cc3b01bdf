// Upload kinds (common/upload-kinds.ts): the kind of a file, its type.

export { KINDS, KIND_NAMES, isKind, type Kind } from '../../../common/upload-kinds.ts';
import { KINDS, type Kind } from '../../../common/upload-kinds.ts';

/** Lower-case extension without the dot ('' when none). */
export function extensionOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The extensions a requested kind accepts; undefined = anything (the catch-all "file"). */
export function allowedExtensions(kind: Kind): readonly string[] | undefined {
  return kind === 'file' ? undefined : KINDS[kind];
}

/** The kind a file is filed under: the first list holding its extension, else "file". */
export function kindOf(ext: string): Kind {
  for (const [kind, list] of Object.entries(KINDS)) if ((list as readonly string[]).includes(ext)) return kind as Kind;
  return 'file';
}

// Types are taken from the extension, never from what the client claims.
const MIME: Record<string, string> = {
  bmp: 'image/bmp', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp',
  svg: 'image/svg+xml', ico: 'image/x-icon', tif: 'image/tiff', tiff: 'image/tiff',
  mp4: 'video/mp4', webm: 'video/webm', ogv: 'video/ogg', mov: 'video/quicktime', avi: 'video/x-msvideo',
  mkv: 'video/x-matroska', m4v: 'video/mp4', mpeg: 'video/mpeg', mpg: 'video/mpeg',
  mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg', oga: 'audio/ogg', aac: 'audio/aac', flac: 'audio/flac',
  m4a: 'audio/mp4', opus: 'audio/opus',
  doc: 'application/msword', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  rtf: 'application/rtf', odt: 'application/vnd.oasis.opendocument.text', txt: 'text/plain', md: 'text/markdown',
  xls: 'application/vnd.ms-excel', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv', ods: 'application/vnd.oasis.opendocument.spreadsheet',
  ppt: 'application/vnd.ms-powerpoint', pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odp: 'application/vnd.oasis.opendocument.presentation',
  pdf: 'application/pdf',
  rar: 'application/vnd.rar', zip: 'application/zip', '7z': 'application/x-7z-compressed', tar: 'application/x-tar',
  gz: 'application/gzip', tgz: 'application/gzip', bz2: 'application/x-bzip2', xz: 'application/x-xz',
  stl: 'model/stl',
};

export function mimeOf(ext: string): string {
  return MIME[ext] ?? 'application/octet-stream';
}
