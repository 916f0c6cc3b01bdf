/**
 * Shared set-up of the kit's component tests (jsdom): the app's catalogs under Lingui, a memory
 * router with the app's catch-all route shape, a screen width that `matchMedia` answers for, the
 * browser APIs Radix needs that jsdom lacks, and an in-memory resource service whose replies the
 * test releases in any order.
 */
/// <reference path="../../src/po.d.ts" />
import type { ReactNode } from 'react';
import { act, configure, render } from '@testing-library/react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { messages as de } from '../../src/locales/de/messages.po';
import { messages as en } from '../../src/locales/en/messages.po';
import { messages as zh } from '../../src/locales/zh/messages.po';
import type { CrudService, PageReply, Query, Row } from '../../src/kit/types.ts';
import { Toaster } from '../../src/ui/toast.tsx';

// The machine is shared: give findBy/waitFor time to see what the user would see.
configure({ asyncUtilTimeout: 5000 });

i18n.load({ en, zh, de });
export function useLocale(locale: 'en' | 'zh' | 'de') {
  act(() => i18n.activate(locale));
}
i18n.activate('en');

// --- Screen width and the browser APIs jsdom lacks -------------------------------------------
let width = 1280;
const mediaLists = new Set<{ query: string; listeners: Set<(e: { matches: boolean }) => void> }>();
function evaluate(query: string): boolean {
  const max = /max-width:\s*([\d.]+)px/.exec(query);
  const min = /min-width:\s*([\d.]+)px/.exec(query);
  return (!max || width <= Number(max[1])) && (!min || width >= Number(min[1]));
}
Object.defineProperty(window, 'matchMedia', {
  configurable: true,
  value: (query: string) => {
    const entry = { query, listeners: new Set<(e: { matches: boolean }) => void>() };
    mediaLists.add(entry);
    return {
      media: query,
      get matches() {
        return evaluate(query);
      },
      addEventListener: (_: string, l: (e: { matches: boolean }) => void) => entry.listeners.add(l),
      removeEventListener: (_: string, l: (e: { matches: boolean }) => void) => entry.listeners.delete(l),
      addListener: (l: (e: { matches: boolean }) => void) => entry.listeners.add(l),
      removeListener: (l: (e: { matches: boolean }) => void) => entry.listeners.delete(l),
      onchange: null,
      dispatchEvent: () => true,
    };
  },
});

/** Resizes the "screen": media queries answer for the new width and notify their listeners. */
export function setScreenWidth(px: number) {
  act(() => {
    width = px;
    for (const m of mediaLists) for (const l of m.listeners) l({ matches: evaluate(m.query) });
  });
}

class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= NoopResizeObserver as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= function () {};
window.scrollTo = () => {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
globalThis.PointerEvent ??= MouseEvent as unknown as typeof PointerEvent;

// --- Rendering under a router ------------------------------------------------------------------
/**
 * Renders `page` at `url` under a root with the app's catch-all page route; returns the router.
 * With `kept`, the page stays mounted beside the routes (like a kept-alive page of the layout).
 */
export function renderAt(page: () => ReactNode, url = '/sys/log', opts: { kept?: boolean } = {}) {
  const Kept = page;
  const root = createRootRoute({
    component: () => (
      <>
        {opts.kept && <Kept />}
        <Outlet />
        <Toaster />
      </>
    ),
  });
  const pageRoute = createRoute({ getParentRoute: () => root, path: '$', component: opts.kept ? () => null : page });
  const other = createRoute({ getParentRoute: () => root, path: '/elsewhere', component: () => <p>elsewhere</p> });
  const router = createRouter({ routeTree: root.addChildren([other, pageRoute]), history: createMemoryHistory({ initialEntries: [url] }) });
  const view = render(
    <I18nProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nProvider>,
  );
  return { router, ...view };
}

// --- An in-memory resource ---------------------------------------------------------------------
export interface Call {
  action: string;
  payload: unknown;
  /** Resolves the call (page replies are computed from the rows at release time). */
  release: () => void;
  fail: (message?: string) => void;
}

/**
 * A resource over an array. With `manual`, page calls wait until the test releases them (to
 * check which reply wins); with `manualWrites`, add and update do. Other calls answer at once.
 */
export function memoryService(initial: Row[], opts: { manual?: boolean; manualWrites?: boolean; prefix?: string } = {}) {
  let rows = initial.map((r) => ({ ...r }));
  const calls: Call[] = [];
  let nextId = Math.max(0, ...rows.map((r) => Number(r.id))) + 1;

  function pageOf(q: Query): PageReply {
    let list = rows;
    if (q.keyWord) list = list.filter((r) => JSON.stringify(r).toLowerCase().includes(String(q.keyWord).toLowerCase()));
    for (const [k, v] of Object.entries(q)) {
      if (['page', 'size', 'keyWord', 'order', 'sort'].includes(k)) continue;
      list = list.filter((r) => String(r[k]) === String(v));
    }
    if (q.order) {
      const key = q.order;
      const dir = q.sort === 'asc' ? 1 : -1;
      list = [...list].sort((a, b) => (String(a[key]) < String(b[key]) ? -dir : String(a[key]) > String(b[key]) ? dir : 0));
    }
    const page = q.page ?? 1;
    const size = q.size ?? 20;
    return { list: list.slice((page - 1) * size, page * size), pagination: { page, size, total: list.length } };
  }

  function track<T>(action: string, payload: unknown, answer: () => T, wait: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const call: Call = {
        action,
        payload,
        release: () => resolve(answer()),
        fail: (message = 'failed') => reject(new Error(message)),
      };
      calls.push(call);
      if (!wait) call.release();
    });
  }

  const service: CrudService & { prefix?: string } = {
    ...(opts.prefix ? { prefix: opts.prefix } : {}),
    // The reply is what the rows were when the call was made (a late reply is a stale one).
    page: (q) => {
      const snapshot = pageOf(q);
      return track('page', q, () => snapshot, !!opts.manual);
    },
    info: ({ id }) =>
      track('info', { id }, () => {
        const r = rows.find((x) => String(x.id) === String(id));
        if (!r) throw new Error('Data does not exist');
        return { ...r };
      }, false),
    add: (data) => track('add', data, () => {
      const id = nextId++;
      rows = [...rows, { ...data, id }];
      return { id };
    }, !!opts.manualWrites),
    update: (data) => track('update', data, () => {
      rows = rows.map((r) => (String(r.id) === String(data.id) ? { ...r, ...data } : r));
      return null;
    }, !!opts.manualWrites),
    delete: ({ ids }) => track('delete', { ids }, () => {
      rows = rows.filter((r) => !ids.some((id) => String(id) === String(r.id)));
      return null;
    }, false),
  };
  return {
    service,
    calls,
    rows: () => rows,
    pending: () => calls.filter((c) => c.action === 'page'),
    last: (action: string) => [...calls].reverse().find((c) => c.action === action),
  };
}

export function sampleRows(n: number): Row[] {
  return Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `user-${String(i + 1).padStart(3, '0')}`, status: i % 2, remark: '' }));
}
