/**
 * The map of manufacturer (department) and device locations: the countries of world-atlas
 * (bundled, no network), zoomed to the markers' extent, manufacturers and devices in two colours,
 * the name, city and figure of a marker on hover or keyboard focus.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { geoGraticule10, geoNaturalEarth1, geoPath, type GeoPermissibleObjects } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import atlas from 'world-atlas/countries-110m.json';
import type { Places } from './data.ts';

const topology = atlas as unknown as Topology<{ countries: GeometryCollection }>;
const countries = feature(topology, topology.objects.countries);
const graticule = geoGraticule10();

interface Marker {
  key: string;
  kind: 'manufacturer' | 'device';
  name: string;
  lines: string[];
  lon: number;
  lat: number;
  dim: boolean;
}

/** What the projection is fitted to: the markers' box, grown so one marker still shows its region. */
function extentOf(markers: Marker[]): GeoPermissibleObjects {
  if (!markers.length) return { type: 'Sphere' };
  let [w, e, s, n] = [180, -180, 90, -90];
  for (const m of markers) [w, e, s, n] = [Math.min(w, m.lon), Math.max(e, m.lon), Math.min(s, m.lat), Math.max(n, m.lat)];
  const grow = (lo: number, hi: number, min: number, share: number) => {
    const pad = Math.max((hi - lo) * share, (min - (hi - lo)) / 2, 0);
    return [lo - pad, hi + pad] as const;
  };
  [w, e] = grow(w, e, 40, 0.15);
  [s, n] = grow(s, n, 20, 0.15);
  if (e - w > 300) return { type: 'Sphere' };
  [s, n] = [Math.max(s, -80), Math.min(n, 84)];
  // A grid of points, so that the box's curved edges are inside the fit as well.
  const points: [number, number][] = [];
  for (let i = 0; i <= 4; i++) for (let j = 0; j <= 4; j++) points.push([w + ((e - w) * i) / 4, s + ((n - s) * j) / 4]);
  return { type: 'MultiPoint', coordinates: points };
}

function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new ResizeObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(() => setWidth(el.clientWidth), 100);
    });
    observer.observe(el);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, []);
  return [ref, width] as const;
}

export function WorldMap({ places }: { places: Places }) {
  const { t } = useLingui();
  const [box, width] = useWidth();
  const [hover, setHover] = useState<Marker | null>(null);
  const markers = useMemo<Marker[]>(
    () => [
      // Manufacturers first: a device in the same town is drawn smaller on top, both stay visible.
      ...places.manufacturers.map((m) => ({
        key: `m${m.id}`,
        kind: 'manufacturer' as const,
        name: m.name,
        lines: [m.city ?? '', t`Orders: ${m.orders}`].filter(Boolean),
        lon: m.longitude,
        lat: m.latitude,
        dim: false,
      })),
      ...places.devices.map((d) => ({
        key: `d${d.id}`,
        kind: 'device' as const,
        name: d.name,
        lines: [d.city ?? '', `${d.online ? t`Online` : t`Offline`} · ${t`Wires bent: ${d.jobs}`}`].filter(Boolean),
        lon: d.longitude,
        lat: d.latitude,
        dim: !d.online,
      })),
    ],
    [places, t],
  );

  const height = Math.round(Math.min(380, Math.max(220, width * 0.5)));
  const geo = useMemo(() => {
    if (!width) return null;
    const projection = geoNaturalEarth1().fitExtent([[12, 12], [width - 12, height - 12]], extentOf(markers));
    const path = geoPath(projection);
    return { path, projection };
  }, [width, height, markers]);

  const colour = { manufacturer: 'var(--color-primary)', device: '#f59e0b' };
  const shown = hover && geo ? geo.projection([hover.lon, hover.lat]) : null;

  return (
    <div className="flex flex-col gap-2">
      <div ref={box} className="relative w-full overflow-hidden rounded-md bg-sky-50" style={{ height }}>
        {geo && (
          <svg width={width} height={height} role="img" aria-label={t`Map of manufacturer and device locations`} className="block">
            <path d={geo.path({ type: 'Sphere' }) ?? ''} fill="#f0f7ff" />
            <path d={geo.path(graticule) ?? ''} fill="none" stroke="#dbeafe" strokeWidth={0.5} />
            <path d={geo.path(countries) ?? ''} fill="#e2e8f0" stroke="#ffffff" strokeWidth={0.6} />
            {markers.map((m) => {
              const p = geo.projection([m.lon, m.lat]);
              if (!p) return null;
              const label = [m.kind === 'manufacturer' ? t`Manufacturer` : t`Device`, m.name, ...m.lines].join(', ');
              return (
                <g
                  key={m.key}
                  transform={`translate(${p[0]},${p[1]})`}
                  tabIndex={0}
                  role="img"
                  aria-label={label}
                  data-marker={m.kind}
                  className="cursor-pointer outline-none"
                  onMouseEnter={() => setHover(m)}
                  onMouseLeave={() => setHover(null)}
                  onFocus={() => setHover(m)}
                  onBlur={() => setHover(null)}
                >
                  {m.kind === 'manufacturer' ? (
                    <rect x={-7} y={-7} width={14} height={14} rx={2} transform="rotate(45)" fill={colour.manufacturer} stroke="#fff" strokeWidth={1.5} opacity={0.9} />
                  ) : (
                    <circle r={5} fill={colour.device} stroke="#fff" strokeWidth={1.5} opacity={m.dim ? 0.55 : 0.95} />
                  )}
                  {hover?.key === m.key && <circle r={11} fill="none" stroke={colour[m.kind]} strokeWidth={1.5} />}
                </g>
              );
            })}
          </svg>
        )}
        {hover && shown && (
          <div
            role="tooltip"
            className="pointer-events-none absolute z-10 max-w-56 rounded-md bg-slate-800/90 px-2.5 py-1.5 text-xs text-white shadow"
            style={{ left: Math.min(Math.max(shown[0], 80), width - 80), top: shown[1] > height / 2 ? shown[1] - 14 : shown[1] + 14, transform: `translate(-50%, ${shown[1] > height / 2 ? '-100%' : '0'})` }}
          >
            <div className="font-semibold">{hover.name}</div>
            {hover.lines.map((l) => (
              <div key={l} className="text-slate-200">
                {l}
              </div>
            ))}
          </div>
        )}
        {!markers.length && (
          <p className="absolute inset-0 flex items-center justify-center p-6 text-center text-sm text-slate-500">
            <span className="rounded-md bg-white/85 px-3 py-2">{t`No manufacturer or device has a location yet. Enter one in the department or device form.`}</span>
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500">
        <span className="flex items-center gap-1.5">
          <span className="size-2.5 rotate-45 rounded-[2px] bg-primary" />
          {t`Manufacturers`} {places.manufacturers.length}
        </span>
        <span className="flex items-center gap-1.5">
          <span className="size-2.5 rounded-full bg-amber-500" />
          {t`Devices`} {places.devices.length}
        </span>
      </div>
    </div>
  );
}
