/** Delivery addresses (/admin/user/address): the prefix and how one reads in a line. */
import type { Row } from '../../kit/index.ts';

export const ADDRESS_PREFIX = '/admin/user/address';

/** "Detail", or with the region: "北京市 市辖区 东城区 Detail". */
export function addressLabel(row: Row, withRegion = true): string {
  const region = withRegion ? String(row.regionNames ?? '').replaceAll(',', ' ') : '';
  return [region, String(row.detail ?? '')].filter(Boolean).join(' ');
}
