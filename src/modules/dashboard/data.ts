/**
 * The figures of the home dashboard: one call per card under /admin/dashboard/info, each made only
 * when the user holds its permission. A call that fails anyway (a 403 after the role changed, a
 * network error) shows its toast and leaves its card out; the rest of the board stays.
 */
import type { AiStatistics } from '../../../common/ai.ts';
import { request } from '../../api/client.ts';
import { hasPerm } from '../../app/store.ts';

export type Period = 'day' | 'week' | 'month' | 'year' | 'all';
export const PERIODS: Period[] = ['day', 'week', 'month', 'year', 'all'];
export type Unit = 'hour' | 'day' | 'month';

export interface AddInfo {
  unit: Unit;
  added: { orders: number; users: number | null; devices: number };
  totals: { orders: number; users: number | null; devices: number };
  series: { time: string; orders: number; users: number; devices: number }[];
}
export interface DesignerRow {
  designerId: number;
  name: string;
  orders: number;
  processed: number;
}
export interface DepartmentRow {
  departmentId: number | null;
  name: string | null;
  orders: number;
  processed: number;
}
export interface Place {
  id: number;
  name: string;
  city: string | null;
  latitude: number;
  longitude: number;
}
export interface Places {
  manufacturers: (Place & { orders: number })[];
  devices: (Place & { online: boolean; jobs: number })[];
}
export interface DeviceTime {
  deviceId: number;
  name: string;
  online: boolean;
  jobs: number;
  bendMs: number;
  onlineMs: number;
  standbyMs: number;
}
export interface WireCounts {
  unit: Unit;
  done: number;
  failed: number;
  avgMs: number | null;
  series: { time: string; done: number; failed: number; avgMs: number | null }[];
  types: { type: string | null; diameter: number | null; done: number; failed: number; avgMs: number | null }[];
}
export interface Rank {
  id: number | null;
  name: string | null;
  count: number;
}
export interface BaseRankings {
  bases: { designers: Rank[]; departments: Rank[] };
  wires: { designers: Rank[]; departments: Rank[] };
}

export interface Board {
  add?: AddInfo;
  status?: { status: number; count: number }[];
  /** aiInfo: the automatic design's figures (common/ai.ts, as GET /admin/design/aiStatistics). */
  ai?: AiStatistics;
  designers?: DesignerRow[];
  departments?: DepartmentRow[];
  devices?: { online: number; offline: number; total: number };
  places?: Places;
  deviceTimes?: { devices: DeviceTime[] };
  wires?: WireCounts;
  rankings?: BaseRankings;
}

const BASE = '/admin/dashboard/info';

/** Card of the board → its call. */
const CALLS: Record<keyof Board, string> = {
  add: 'addInfo',
  status: 'designInfo',
  ai: 'aiInfo',
  designers: 'designerProcessInfo',
  departments: 'departmentInfo',
  devices: 'deviceWorkInfo',
  places: 'deviceAddressInfo',
  deviceTimes: 'deviceProcessTime',
  wires: 'processTypeInfo',
  rankings: 'processBaseInfo',
};

/** The cards the user may see, loaded at once; a card whose call fails is left out. */
export async function loadBoard(period: Period): Promise<Board> {
  const entries = await Promise.all(
    (Object.entries(CALLS) as [keyof Board, string][]).map(async ([card, call]) => {
      if (!hasPerm(`dashboard:info:${call}`)) return [card, undefined] as const;
      // A side call of the page: a refusal is a toast, never the /403 page.
      const data = await request<unknown>({ url: `${BASE}/${call}`, method: 'POST', data: { period }, onForbidden: 'toast' }).catch(() => undefined);
      return [card, data] as const;
    }),
  );
  const board: Board = {};
  for (const [card, data] of entries) if (data !== undefined && data !== null) (board as Record<string, unknown>)[card] = data;
  return board;
}

/** Bucket key ("YYYY-MM-DD HH", "YYYY-MM-DD", "YYYY-MM") → seconds since the epoch (UTC). */
export function bucketTime(key: string): number {
  const [date, hour] = key.split(' ');
  const [y, m, d] = (date ?? '').split('-').map(Number);
  return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1, Number(hour ?? 0)) / 1000;
}
