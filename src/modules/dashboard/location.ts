/**
 * The location fields of the department (manufacturer) and device forms, drawn on the dashboard's
 * map: a city and the coordinates in degrees. Both coordinates or neither; an emptied field is
 * sent as null so that it clears the stored value.
 */
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { FormItem, Row } from '../../kit/index.ts';
import type { LocationField } from '../../../common/location.ts';

/** The server's location fields (common/location.ts), the ones this form sends. */
const PROPS = ['city', 'latitude', 'longitude'] as const satisfies readonly LocationField[];

export function locationItems(i18n: I18n): FormItem[] {
  const degrees = (prop: 'latitude' | 'longitude', limit: number): FormItem => ({
    prop,
    label: i18n._(prop === 'latitude' ? msg`Latitude` : msg`Longitude`),
    type: 'number',
    min: -limit,
    max: limit,
    step: 0.000001,
    span: 12,
    placeholder: prop === 'latitude' ? '-90 … 90' : '-180 … 180',
    validate: (value, form) => {
      const other = form[prop === 'latitude' ? 'longitude' : 'latitude'];
      const set = (v: unknown) => v !== undefined && v !== null && v !== '';
      if (set(value) && (Number(value) < -limit || Number(value) > limit || Number.isNaN(Number(value)))) {
        return prop === 'latitude' ? i18n._(msg`Latitude is a number from -90 to 90`) : i18n._(msg`Longitude is a number from -180 to 180`);
      }
      if (set(value) !== set(other)) return i18n._(msg`Enter both latitude and longitude, or neither`);
      return null;
    },
  });
  return [
    {
      type: 'group',
      label: i18n._(msg`Location (map)`),
      children: [{ prop: 'city', label: i18n._(msg`City`), placeholder: i18n._(msg`e.g. Shanghai`) }, degrees('latitude', 90), degrees('longitude', 180)],
    },
  ];
}

/** The form's data with emptied location fields as null (an absent field would keep the old value). */
export function withLocation(data: Row): Row {
  const out: Row = { ...data };
  for (const p of PROPS) if (out[p] === undefined || out[p] === '') out[p] = null;
  return out;
}
