/** The region picker on its own: pick or search a district, see the codes and names it stores. */
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { RegionField } from '../../../kit/RegionField.tsx';
import type { RegionValue } from '../../../../common/region.ts';
import { DemoPage } from '../DemoPage.tsx';

export default function RegionDemo() {
  const { t } = useLingui();
  const [value, setValue] = useState<RegionValue | undefined>();
  return (
    <DemoPage plugin="regionPicker" title={t`Region picker`} intro={t`Province, city and district, cascading or searched; a form item of type "region" stores the codes and the names.`}>
      <div className="max-w-md">
        <label htmlFor="region-demo" className="mb-1 block text-sm text-slate-600">{t`Region`}</label>
        <RegionField id="region-demo" value={value} onChange={setValue} />
      </div>
      <dl className="mt-4 grid max-w-md grid-cols-[7rem_1fr] gap-y-1 text-sm" data-testid="region-result">
        <dt className="text-slate-500">{t`Codes`}</dt>
        <dd className="font-mono">{value?.codes.join(', ') || '—'}</dd>
        <dt className="text-slate-500">{t`Names`}</dt>
        <dd>{value?.names.join(' / ') || '—'}</dd>
      </dl>
    </DemoPage>
  );
}
