// Upload kinds and the extensions each accepts (spec: image, video, audio, word, excel, ppt,
// pdf, rar and a catch-all file kind; "model" is ours, for the jaw scans of orders). The server
// checks uploads against these (server/modules/space/kinds.ts); pages offer them (the file picker).

export const KINDS = {
  image: ['bmp', 'jpg', 'jpeg', 'png', 'gif', 'webp', 'svg', 'ico', 'tif', 'tiff'],
  video: ['mp4', 'webm', 'ogv', 'mov', 'avi', 'mkv', 'flv', 'wmv', 'm4v', 'mpeg', 'mpg'],
  audio: ['mp3', 'wav', 'ogg', 'oga', 'aac', 'flac', 'm4a', 'wma', 'amr', 'opus'],
  word: ['doc', 'docx', 'dot', 'dotx', 'rtf', 'odt', 'wps', 'txt', 'md'],
  excel: ['xls', 'xlsx', 'xlsm', 'csv', 'ods', 'et'],
  ppt: ['ppt', 'pptx', 'pps', 'ppsx', 'odp', 'dps'],
  pdf: ['pdf'],
  rar: ['rar', 'zip', '7z', 'tar', 'gz', 'tgz', 'bz2', 'xz'],
  model: ['stl'],
} as const satisfies Record<string, readonly string[]>;

export type Kind = keyof typeof KINDS | 'file';
export const KIND_NAMES: readonly Kind[] = [...(Object.keys(KINDS) as (keyof typeof KINDS)[]), 'file'];

export function isKind(value: string): value is Kind {
  return (KIND_NAMES as readonly string[]).includes(value);
}

/** The file input's `accept` of a kind ('' = anything). */
export function acceptOf(kind: Kind): string {
  return kind === 'file' ? '' : KINDS[kind].map((e) => `.${e}`).join(',');
}
