// Shape area: straightening (assembly/straighten.ts) and simplification
// (assembly/simplify.ts). Every export takes or returns plain numbers.
export * from './straighten';
export * from './simplify';
