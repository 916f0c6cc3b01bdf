// Optional location fields of departments (manufacturers) and devices, for the dashboard map:
// their crud column descriptions. The zod part, which the browser's forms share, is
// common/location.ts; re-exported here for the server's schemas.
export { locationFields } from '../../common/location.ts';

/** Column descriptions (crud `columns`) of the location fields. */
export const locationColumns = {
  city: { type: 'string', comment: 'City (location on the dashboard map)', nullable: true },
  latitude: { type: 'number', comment: 'Latitude in degrees, -90 to 90', nullable: true },
  longitude: { type: 'number', comment: 'Longitude in degrees, -180 to 180', nullable: true },
} as const;
