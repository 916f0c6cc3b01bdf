// The optional location fields of departments (manufacturers) and devices, for the dashboard map,
// as a request body carries them. Degrees WGS 84; an empty form field ('') clears the value.
// Spread into the department and device schemas; the crud column descriptions stay with the
// server (server/core/location.ts).
import { z } from 'zod';

const blankToNull = (v: unknown) => (v === '' || v === undefined ? (v === '' ? null : undefined) : v);
const degrees = (limit: number) => z.preprocess(blankToNull, z.coerce.number().min(-limit).max(limit).nullable().optional());

export const locationFields = {
  city: z.preprocess(blankToNull, z.string().trim().max(255).nullable().optional()),
  latitude: degrees(90),
  longitude: degrees(180),
};
/** The names of the location fields, as a body carries them. */
export type LocationField = keyof typeof locationFields;
