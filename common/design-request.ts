// The request schemas of the design document's calls (/admin/design/save, getDesignData). The
// server stores the document as the editor wrote it (it is the editor's to read back, see
// src/editor/engine/document.ts parseDocument) and checks only what it must know: the format's
// version (design.ts) and that each wire is of a known type (wires.ts).
import { z } from 'zod';
import { wireTypeSchema } from './bend-request.ts';

/** A design document: its format version, any wires of known types, the rest as sent. */
export const designDocumentSchema = z.looseObject({
  schemaVersion: z.number().int().positive(),
  wires: z.array(z.looseObject({ type: wireTypeSchema })).optional(),
});

/** POST /admin/design/save: the document and the version it was based on (optimistic saves). */
export const designSaveSchema = z.object({
  orderId: z.coerce.number().int().positive(),
  data: designDocumentSchema,
  /** The version the client's document was based on: 0 for the first save. */
  baseVersion: z.number().int().min(0),
});
export type DesignSaveRequest = z.input<typeof designSaveSchema>;

/** GET /admin/design/getDesignData?orderId= */
export const designGetSchema = z.object({ orderId: z.coerce.number().int().positive() });
export type DesignGetRequest = z.input<typeof designGetSchema>;
