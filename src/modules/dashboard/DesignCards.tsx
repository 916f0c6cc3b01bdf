/**
 * The design and manufacturer cards of the dashboard: tables of wires per manufacturer and wire
 * type, of each manufacturer's orders by status, and of each designer's work. Wire types are named
 * by the editor's one translated definition; a user without a department counts under "No department".
 */
import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { isWireType } from '../../../common/wires.ts';
import { WIRE_TYPE_NAMES } from '../../editor/features/wires/messages.ts';
import type { DepartmentOrders, DesignerDetail, TypeLabel, TypeMatrix } from './data.ts';
import { Empty, formatDuration } from './parts.tsx';

/** A wire type's name in the UI language (the server's label when the editor does not know it). */
export function useTypeName(): (t: TypeLabel) => string {
  const { i18n } = useLingui();
  return (t) => (isWireType(t.type) ? i18n._(WIRE_TYPE_NAMES[t.type]) : t.label);
}

const TH = 'py-1.5 pr-3 text-right font-medium whitespace-nowrap';
const TD = 'py-1.5 pr-3 text-right tabular-nums';
/** Wire type headers may wrap (German names are long): the table then fits its card. */
const TYPE_TH = 'py-1.5 pr-3 text-right align-bottom font-medium';

function Table({ caption, head, children }: { caption: string; head: ReactNode; children: ReactNode }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-xs sm:text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-100 text-left text-xs text-slate-500">{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** Manufacturers (rows) by wire type (columns) with their total. */
export function TypeMatrixTable({ matrix, caption }: { matrix: TypeMatrix; caption: string }) {
  const { t } = useLingui();
  const typeName = useTypeName();
  if (!matrix.departments.length) return <Empty>{t`No data`}</Empty>;
  return (
    <Table
      caption={caption}
      head={
        <>
          <th className="py-1.5 pr-3 font-medium">{t`Manufacturer`}</th>
          {matrix.types.map((ty) => (
            <th key={ty.type} className={TYPE_TH}>
              {typeName(ty)}
            </th>
          ))}
          <th className={TH}>{t`Total`}</th>
        </>
      }
    >
      {matrix.departments.map((d) => (
        <tr key={d.departmentId ?? 'none'} className="border-b border-slate-50 text-slate-700 last:border-0">
          <td className="max-w-40 truncate py-1.5 pr-3">{d.name ?? t`No department`}</td>
          {matrix.types.map((ty) => (
            <td key={ty.type} className={TD}>
              {d.counts[ty.type] ?? 0}
            </td>
          ))}
          <td className={`${TD} font-semibold`}>{d.total}</td>
        </tr>
      ))}
    </Table>
  );
}

/** Each manufacturer's orders of the period by status, and how many have a saved design. */
export function DepartmentOrdersTable({ rows }: { rows: DepartmentOrders[] }) {
  const { t } = useLingui();
  if (!rows.length) return <Empty>{t`No data`}</Empty>;
  return (
    <Table
      caption={t`Orders per manufacturer`}
      head={
        <>
          <th className="py-1.5 pr-3 font-medium">{t`Manufacturer`}</th>
          <th className={TH}>{t`Orders`}</th>
          <th className={TH}>{t`In design`}</th>
          <th className={TH}>{t`To be processed`}</th>
          <th className={TH}>{t`Processed`}</th>
          <th className={TH}>{t`Designed`}</th>
        </>
      }
    >
      {rows.map((d) => (
        <tr key={d.departmentId ?? 'none'} className="border-b border-slate-50 text-slate-700 last:border-0">
          <td className="max-w-40 truncate py-1.5 pr-3">{d.name ?? t`No department`}</td>
          <td className={`${TD} font-semibold`}>{d.orders}</td>
          <td className={TD}>{d.designing}</td>
          <td className={TD}>{d.pending}</td>
          <td className={TD}>{d.processed}</td>
          <td className={TD}>{d.designed}</td>
        </tr>
      ))}
    </Table>
  );
}

/** Per designer: orders, submitted, designs saved, bases, wires per type and the mean design time. */
export function DesignerTable({ types, designers }: { types: TypeLabel[]; designers: DesignerDetail[] }) {
  const { t, i18n } = useLingui();
  const typeName = useTypeName();
  if (!designers.length) return <Empty>{t`No data`}</Empty>;
  return (
    <Table
      caption={t`Designer details`}
      head={
        <>
          <th className="py-1.5 pr-3 font-medium">{t`Designer`}</th>
          <th className={TH}>{t`Orders`}</th>
          <th className={TH}>{t`Submitted`}</th>
          <th className={TH}>{t`Designs`}</th>
          <th className={TH}>{t`Bases`}</th>
          {types.map((ty) => (
            <th key={ty.type} className={TYPE_TH}>
              {typeName(ty)}
            </th>
          ))}
          <th className={TH}>{t`Mean design time`}</th>
        </>
      }
    >
      {designers.map((d) => (
        <tr key={d.designerId} className="border-b border-slate-50 text-slate-700 last:border-0">
          <td className="max-w-48 py-1.5 pr-3">
            <span className="block truncate">{d.name}</span>
            <span className="block truncate text-xs text-slate-400">{d.department ?? t`No department`}</span>
          </td>
          <td className={`${TD} font-semibold`}>{d.orders}</td>
          <td className={TD}>{d.submitted}</td>
          <td className={TD}>{d.designs}</td>
          <td className={TD}>{d.bases}</td>
          {types.map((ty) => (
            <td key={ty.type} className={TD}>
              {d.wires[ty.type] ?? 0}
            </td>
          ))}
          <td className={`${TD} whitespace-nowrap`}>{d.avgDesignMs === null ? '–' : formatDuration(d.avgDesignMs, i18n.locale)}</td>
        </tr>
      ))}
    </Table>
  );
}
