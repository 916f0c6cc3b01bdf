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
  /** Manufacturers are departments; users are null without the user list permission. */
  added: { orders: number; manufacturers: number; users: number | null; devices: number };
  totals: { orders: number; manufacturers: number; users: number | null; devices: number };
  series: { time: string; orders: number; manufacturers: number; users: number; devices: number }[];
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

/** Counts per wire type (common/wires.ts WIRE_TYPES). */
export type TypeCounts = Record<string, number>;
export interface TypeLabel {
  type: string;
  label: string;
}
export interface DesignBase {
  unit: Unit;
  designs: number;
  bases: number;
  series: { time: string; designs: number; bases: number }[];
}
export interface DesignTypeRow extends TypeLabel {
  wires: number;
  orders: number;
}
export interface DesignTypeSeries {
  unit: Unit;
  types: TypeLabel[];
  series: { time: string; counts: TypeCounts }[];
}
export interface TypeMatrix {
  types: TypeLabel[];
  departments: { departmentId: number | null; name: string | null; counts: TypeCounts; total: number }[];
}
export interface DepartmentOrders {
  departmentId: number | null;
  name: string | null;
  orders: number;
  designing: number;
  pending: number;
  processed: number;
  designed: number;
}
export interface DepartmentWork {
  departmentId: number | null;
  name: string | null;
  done: number;
  failed: number;
}
export interface DepartmentTime {
  departmentId: number | null;
  name: string | null;
  jobs: number;
  bendMs: number;
  avgMs: number | null;
}
export interface DepartmentTimeSeries {
  unit: Unit;
  departments: { departmentId: number | null; name: string | null; bendMs: number }[];
  series: { time: string; ms: number[] }[];
}
export interface DesignerDetail {
  designerId: number;
  name: string;
  department: string | null;
  orders: number;
  submitted: number;
  designs: number;
  bases: number;
  wires: TypeCounts;
  avgDesignMs: number | null;
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
  designBase?: DesignBase;
  designTypes?: DesignTypeRow[];
  designTypeSeries?: DesignTypeSeries;
  designDepartmentTypes?: TypeMatrix;
  designerDetails?: { types: TypeLabel[]; designers: DesignerDetail[] };
  departmentOrders?: DepartmentOrders[];
  departmentWork?: DepartmentWork[];
  departmentTimes?: DepartmentTime[];
  departmentTypes?: TypeMatrix;
  departmentTimeSeries?: DepartmentTimeSeries;
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
  designBase: 'designBaseInfo',
  designTypes: 'designTypeInfo',
  designTypeSeries: 'designTypeNumberInfo',
  designDepartmentTypes: 'designDepartmentTypeNumberInfo',
  designerDetails: 'designeDetailInfo',
  departmentOrders: 'departmentDesignOrderInfo',
  departmentWork: 'departmentProcessInfo',
  departmentTimes: 'departmentProcessTime',
  departmentTypes: 'allDepartmentProcessType',
  departmentTimeSeries: 'allDepartmentProcessTime',
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
