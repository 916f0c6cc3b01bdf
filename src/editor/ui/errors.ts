import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { EditorError } from '../engine/EditorEngine.ts';

/** A sentence for every error the editor can show (translated where it is shown). */
export function errorMessage(error: EditorError): MessageDescriptor {
  switch (error.code) {
    case 'STL_NOT_STL':
      return msg`This file is not an STL file.`;
    case 'STL_EMPTY':
      return msg`The STL file is empty.`;
    case 'STL_TOO_SHORT':
      return msg`The STL file is broken: it is too short to hold any triangles.`;
    case 'STL_TRUNCATED':
      return msg`The STL file is broken: it ends before all its triangles.`;
    case 'STL_COUNT_MISMATCH':
      return msg`The STL file is broken: the triangle count in its header does not match its size.`;
    case 'STL_MALFORMED': {
      const line = error.line;
      return line ? msg`The STL file is broken: there is an error in line ${line}.` : msg`The STL file is broken: its text is not valid STL.`;
    }
    case 'STL_NO_TRIANGLES':
      return msg`The STL file contains no triangles.`;
    case 'STL_NON_FINITE':
      return msg`The STL file is broken: some coordinates are not valid numbers.`;
    case 'STL_TOO_LARGE':
    case 'OUT_OF_MEMORY':
      return msg`The STL file is too large to open in this browser.`;
    case 'STL_READ_FAILED':
      return msg`The file could not be read. Please try again.`;
    case 'WEBGL_UNAVAILABLE':
      return msg`3D display is not available: this browser does not support WebGL or has it turned off.`;
    case 'DOWNLOAD_FAILED': {
      const status = error.status ?? 0;
      if (status === 404) return msg`The model file is no longer on the server.`;
      if (status === 403) return msg`You may not download this model file.`;
      return status ? msg`The model could not be downloaded (HTTP ${status}). Please try again.` : msg`The model could not be downloaded: network error. Please check your connection and try again.`;
    }
    case 'MODEL_MISSING':
      return msg`Not in this order`;
    case 'ABORTED':
      return msg`Loading was cancelled.`;
    case 'BAD_INPUT':
    case 'NO_SUCH_MESH':
    case 'KERNEL_FAILED':
    case 'WORKER_FAILED':
      return msg`The model could not be processed because of an internal error. Please reload the page and try again.`;
  }
}
