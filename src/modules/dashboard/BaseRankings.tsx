/** Base design and processing rankings: designers or departments by bases designed and by wires processed. */
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { BaseRankings as Rankings, Rank } from './data.ts';
import { RankingList, Segmented } from './parts.tsx';

export function BaseRankings({ rankings }: { rankings: Rankings }) {
  const { t } = useLingui();
  const [by, setBy] = useState<'designers' | 'departments'>('designers');
  const rows = (list: Rank[]) =>
    list.map((r) => ({ key: r.id ?? 'none', name: r.name ?? (by === 'departments' ? t`No department` : `#${r.id}`), value: r.count }));
  return (
    <div className="flex flex-col gap-4">
      <Segmented
        size="sm"
        label={t`Rank by`}
        value={by}
        onChange={setBy}
        options={[
          { value: 'designers', label: t`Designers` },
          { value: 'departments', label: t`Departments` },
        ]}
      />
      <div className="grid grid-cols-1 gap-5">
        <section aria-label={t`Bases designed`}>
          <h3 className="mb-2 text-xs font-medium text-slate-500">{t`Bases designed`}</h3>
          <RankingList rows={rows(rankings.bases[by])} empty={t`No data`} />
        </section>
        <section aria-label={t`Wires processed`}>
          <h3 className="mb-2 text-xs font-medium text-slate-500">{t`Wires processed`}</h3>
          <RankingList rows={rows(rankings.wires[by])} empty={t`No data`} />
        </section>
      </div>
    </div>
  );
}
