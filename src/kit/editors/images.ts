/**
 * Images for the editors: uploaded into the file space (kind image) and inserted by the URL the
 * upload answers (an image's signed link, shown by <img> without a token).
 */
import { t } from '@lingui/core/macro';
import { uploadFile } from '../upload.ts';

/** Files an editor takes as images. */
export const imagesOf = (files: FileList | readonly File[] | null | undefined): File[] =>
  [...(files ?? [])].filter((f) => f.type.startsWith('image/'));

/** Uploads one image; resolves to its URL. */
export function uploadImage(file: File): Promise<string> {
  return uploadFile(file, { kind: 'image' });
}

/** Opens the file picker for images; resolves to the chosen files (none when cancelled). */
export function pickImages(multiple = true): Promise<File[]> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = 'image/*';
    input.multiple = multiple;
    input.addEventListener('change', () => resolve(imagesOf(input.files)));
    input.addEventListener('cancel', () => resolve([]));
    input.click();
  });
}

/** The alt text of an uploaded image: its name without the extension. */
export const altOf = (file: File) => file.name.replace(/\.[^.]+$/, '').replace(/[[\]]/g, '') || t`image`;
