/**
 * Numbers as the user's language writes them (decimal separator, digit grouping): one
 * `Intl.NumberFormat` per locale and style, shared by the editor and the lists so that "3,4 s"
 * and "358.578 Dreiecke" agree in German. Pure apart from reading the active Lingui locale, so the
 * framework-free editor engine can use it too.
 */
import { i18n } from '@lingui/core';

export interface NumberStyle {
  /** Exactly this many decimals (`toFixed`, localised). */
  fixed?: number;
  /** At most this many decimals (default 0 without `fixed`: whole numbers). */
  max?: number;
  /** At least this many decimals. */
  min?: number;
}

const cache = new Map<string, Intl.NumberFormat>();

function formatter(locale: string, style: NumberStyle): Intl.NumberFormat {
  const min = style.fixed ?? style.min ?? 0;
  const max = Math.max(min, style.fixed ?? style.max ?? 0);
  const key = `${locale}|${min}|${max}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale || undefined, { minimumFractionDigits: min, maximumFractionDigits: max });
    cache.set(key, f);
  }
  return f;
}

/** `value` in `locale` (default: the active language); non-finite values as "–". */
export function formatNumber(value: number, style: NumberStyle = {}, locale: string = i18n.locale): string {
  if (!Number.isFinite(value)) return '–';
  return formatter(locale, style).format(value);
}

/** A length in millimetres with `digits` decimals: "6.04 mm", "6,04 mm". */
export function formatMm(value: number, digits = 2, locale: string = i18n.locale): string {
  return `${formatNumber(value, { fixed: digits }, locale)} mm`;
}

/** Whole numbers with grouping ("358,578", "358.578", "358,578"). */
export function formatCount(value: number, locale: string = i18n.locale): string {
  return formatNumber(Math.round(value), {}, locale);
}

/** A vector's components, "(0.000, 0.500, -0.866)"; where the decimal mark is a comma, "(0,000; 0,500; -0,866)". */
export function formatVector(values: readonly number[], digits = 3, locale: string = i18n.locale): string {
  const decimalComma = formatNumber(0.5, { fixed: 1 }, locale).includes(',');
  return `(${values.map((v) => formatNumber(v, { fixed: digits }, locale)).join(decimalComma ? '; ' : ', ')})`;
}
