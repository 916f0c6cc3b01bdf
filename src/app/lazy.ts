import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A page module (a lazily loaded chunk) failed to load: usually a new deployment or the network. */
export class ModuleLoadError extends Error {
  override readonly name = 'ModuleLoadError';
}

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS|Loading chunk/i;

export function isModuleLoadError(error: unknown): boolean {
  return error instanceof ModuleLoadError || (error instanceof Error && CHUNK_ERROR.test(error.message));
}

/** `React.lazy` whose import failures surface as `ModuleLoadError`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyPage<C extends ComponentType<any>>(loader: () => Promise<{ default: C }>): LazyExoticComponent<C> {
  return lazy(() =>
    loader().catch((err: unknown) => {
      throw new ModuleLoadError(err instanceof Error ? err.message : String(err), { cause: err });
    }),
  );
}
