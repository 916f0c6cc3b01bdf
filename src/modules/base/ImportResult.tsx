/** Moved to the kit (src/kit/ImportResult.tsx). */
export * from '../../kit/ImportResult.tsx';
