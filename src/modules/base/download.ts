/** Moved to the kit (src/kit/download.ts). */
export * from '../../kit/download.ts';
