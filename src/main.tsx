import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nProvider } from '@lingui/react';
import { RouterProvider } from '@tanstack/react-router';
import { setNavigator } from './api/client.ts';
import { applyHardening } from './app/hardening.ts';
import { activateLocale, i18n, initialLocale } from './i18n/index.ts';
import { router } from './router.ts';
import { prefetchBend } from './routes/bend.tsx';
import './index.css';

setNavigator((to) => {
  if (router.state.location.pathname !== to) void router.navigate({ href: to, replace: to === '/login' });
});

async function boot() {
  void applyHardening();
  // The editor's downloads need not wait for the language catalog and the first render.
  if (window.location.pathname === '/bend') prefetchBend(window.location.search);
  try {
    await activateLocale(initialLocale());
  } catch {
    // Bootstrap errors are swallowed: without a catalog the English source texts show.
    i18n.activate('en');
  }
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing');
  createRoot(root).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nProvider>
    </StrictMode>,
  );
}

void boot();
