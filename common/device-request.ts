// The request schemas of a device's calibration (/admin/device/config): a springback table as it
// travels, held to the springback rule of springback.ts.
import { z } from 'zod';
import { SPRINGBACK_LIMITS as L, springbackTableProblem } from './springback.ts';

/** Rows of [angle, springback] (deg) inside SPRINGBACK_LIMITS, angles and compensated angles rising. */
export const springbackRowsSchema = z
  .array(z.tuple([z.number().min(L.minAngle).max(L.maxAngle), z.number().min(L.minSpringback).max(L.maxSpringback)]))
  .min(L.minRows)
  .max(L.maxRows)
  // The editor bends to angle + springback: that must rise too, or two targets share one bend.
  .refine((rows) => springbackTableProblem(rows) === null, 'angles and compensated angles must rise');

export type SpringbackRows = z.infer<typeof springbackRowsSchema>;
