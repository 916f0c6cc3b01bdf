/**
 * Toast messages (Radix Toast). `toast.error(...)` may be called from anywhere, React or not;
 * a message already on screen is not shown twice, but shown again for its full time (a second
 * save confirmed just as the first one's message was going would flash past).
 */
import { useSyncExternalStore } from 'react';
import { Toast } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { Icon } from './icons.tsx';

export type ToastKind = 'error' | 'success' | 'info';
interface ToastItem {
  id: number;
  kind: ToastKind;
  message: string;
}

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function set(next: ToastItem[]) {
  items = next;
  for (const l of listeners) l();
}

function show(kind: ToastKind, message: string) {
  if (!message) return;
  const same = (t: ToastItem) => t.kind === kind && t.message === message;
  // a new id remounts it, with its time from the start
  if (items.some(same)) set(items.map((t) => (same(t) ? { ...t, id: nextId++ } : t)));
  else set([...items, { id: nextId++, kind, message }]);
}

export const toast = {
  error: (message: string) => show('error', message),
  success: (message: string) => show('success', message),
  info: (message: string) => show('info', message),
  clear: () => set([]),
};

function dismiss(id: number) {
  set(items.filter((t) => t.id !== id));
}

const STYLE: Record<ToastKind, string> = {
  error: 'border-red-200 bg-red-50 text-red-800',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-800',
  info: 'border-slate-200 bg-white text-slate-800',
};
const ICON = { error: 'alert', success: 'check', info: 'info' } as const;

export function Toaster() {
  const { t } = useLingui();
  const list = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => items,
  );
  return (
    <Toast.Provider swipeDirection="up" duration={4000} label={t`Notification`}>
      {list.map((item) => (
        <Toast.Root
          key={item.id}
          type={item.kind === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) dismiss(item.id);
          }}
          className={`aw-toast pointer-events-auto flex w-full items-start gap-2.5 rounded-lg border px-4 py-3 text-sm shadow-lg ${STYLE[item.kind]}`}
        >
          <Icon name={ICON[item.kind]} className="mt-0.5 size-4 shrink-0" />
          <Toast.Description className="min-w-0 flex-1 break-words">{item.message}</Toast.Description>
          <Toast.Close aria-label={t`Close`} className="-mr-1 rounded p-0.5 opacity-60 hover:opacity-100">
            <Icon name="x" className="size-3.5" />
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport label={t`Notifications`} className="fixed top-4 left-1/2 z-[100] flex w-[min(92vw,420px)] -translate-x-1/2 flex-col gap-2 outline-none" />
    </Toast.Provider>
  );
}
