// Optional location fields of departments (manufacturers) and devices, for the dashboard map.
// Degrees WGS 84; an empty form field ('') clears the value.
import { z } from 'zod';

const blankToNull = (v: unknown) => (v === '' || v === undefined ? (v === '' ? null : undefined) : v);
const degrees = (limit: number) => z.preprocess(blankToNull, z.coerce.number().min(-limit).max(limit).nullable().optional());

export const locationFields = {
  city: z.preprocess(blankToNull, z.string().trim().max(255).nullable().optional()),
  latitude: degrees(90),
  longitude: degrees(180),
};

/** Column descriptions (crud `columns`) of the location fields. */
export const locationColumns = {
  city: { type: 'string', comment: 'City (location on the dashboard map)', nullable: true },
  latitude: { type: 'number', comment: 'Latitude in degrees, -90 to 90', nullable: true },
  longitude: { type: 'number', comment: 'Longitude in degrees, -180 to 180', nullable: true },
} as const;
