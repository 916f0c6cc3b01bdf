// The design document's format as both ends know it: the editor writes documents of
// DESIGN_SCHEMA_VERSION (src/editor/engine/document.ts), and the server stores none newer (it
// cannot know what such a document means) and none larger than DESIGN_MAX_BYTES. Pure: no DOM,
// worker or Node imports, and no zod (the editor bundles it; the request schemas are
// design-request.ts).

/** The format written by this editor; the server refuses newer ones it does not know. */
export const DESIGN_SCHEMA_VERSION = 1;

/** Largest document, as JSON text (UTF-8 bytes): measurements, outlines and transforms, never meshes. */
export const DESIGN_MAX_BYTES = 1024 * 1024;
