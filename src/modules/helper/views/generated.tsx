/**
 * The page of a module made by the AI coding helper (`/gen/<name>`): reads the module's stored
 * definition (GET /admin/gen/<name>/meta) and renders the generic list, search and form over its
 * generic service. One view serves every such module: nothing is generated or run in the browser.
 */
import { useEffect, useState } from 'react';
import { useRouterState } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { GEN_MODULE, GEN_PAGE_PREFIX, MODULE_NAME, type ModuleDef } from '../../../../common/ai-code.ts';
import { request } from '../../../api/client.ts';
import { CrudPage } from '../../../kit/index.ts';
import { PageSpinner } from '../../../ui/Spinner.tsx';
import { kitOf } from '../kit.ts';

export default function GeneratedModule() {
  const { t, i18n } = useLingui();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // Kept alive: the page keeps the module it was opened for.
  const [name] = useState(() => pathname.slice(GEN_PAGE_PREFIX.length).replace(/\/+$/, ''));
  const [def, setDef] = useState<ModuleDef | null | 'missing'>(null);
  useEffect(() => {
    if (!MODULE_NAME.test(name)) return setDef('missing');
    request<ModuleDef>({ url: `/admin/${GEN_MODULE}/${name}/meta`, onForbidden: 'page' }).then(setDef, () => setDef('missing'));
  }, [name]);
  if (def === null) return <PageSpinner />;
  if (def === 'missing') return <p className="p-6 text-sm text-slate-500">{t`This module no longer exists.`}</p>;
  const { columns, items, search, keyword } = kitOf(def, i18n.locale, { yes: t`Yes`, no: t`No`, created: t`Created` });
  return <CrudPage service={`/admin/${GEN_MODULE}/${def.name}`} columns={columns} items={items} search={search.length ? search : undefined} keyword={keyword} />;
}
