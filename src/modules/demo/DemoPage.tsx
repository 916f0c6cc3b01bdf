/** The frame of a plugin demo page: a card with its title and a line on what it shows. */
import type { ReactNode } from 'react';

export function DemoPage({ title, intro, actions, children }: { title: string; intro?: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="p-3 sm:p-4">
      <section className="aw-card p-4">
        <header className="mb-4 flex flex-wrap items-start gap-3">
          <div className="mr-auto">
            <h1 className="text-lg font-semibold text-slate-800">{title}</h1>
            {intro && <p className="mt-1 text-sm text-slate-500">{intro}</p>}
          </div>
          {actions}
        </header>
        {children}
      </section>
    </div>
  );
}
