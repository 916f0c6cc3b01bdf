/** Moved to the kit (src/kit/FilePick.tsx). */
export * from '../../kit/FilePick.tsx';
