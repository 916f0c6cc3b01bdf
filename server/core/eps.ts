// The `eps` description clients read to build their service proxies. It is derived from the app's
// routes once they are all registered (describeRoutes): a call is listed when its route carries a
// description, either a `doc(summary)` middleware of an entry (hand-written routes) or a handler
// the CRUD factory tagged (its own calls and the definition's extra calls). Methods and paths are
// the routes' own, so a listed call always exists and a removed one disappears.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';

export type ColumnType = 'number' | 'string' | 'boolean' | 'datetime' | 'json';

export interface EpsApi {
  method: 'get' | 'post';
  path: string;
  summary: string;
}

export interface EpsColumn {
  propertyName: string;
  type: ColumnType;
  comment: string;
  nullable: boolean;
}

export interface EpsEntry {
  prefix: string;
  name: string;
  api: EpsApi[];
  columns: EpsColumn[];
}

/** module -> entries, in the order their first call was registered. */
export type Eps = Record<string, EpsEntry[]>;

/** One eps entry: a module's group of calls under one prefix. */
export interface EpsGroup {
  module: string;
  prefix: string;
  name: string;
  columns: EpsColumn[];
  /** Summaries of calls the group's owner registers itself, by `method path` (the CRUD
   * definition's extra calls); a route found under the prefix with one of these is listed. */
  extra?: ReadonlyMap<string, string>;
}

interface Described {
  group: EpsGroup;
  summary: string;
}

const DESCRIBED = new WeakMap<object, Described>();

/** Marks a handler (or middleware) as the call `summary` of `group`. */
export function describeHandler(handler: object, group: EpsGroup, summary: string): void {
  DESCRIBED.set(handler, { group, summary });
}

export function epsGroup(module: string, prefix: string, name: string, columns: EpsColumn[] = []): EpsGroup {
  return { module, prefix, name, columns };
}

/**
 * The description of one call of `group`, as a middleware placed before the route's handler:
 * `.post('/login', doc('Log in'), validate(...), handler)`. It only passes the request on.
 */
export type EpsDoc = (summary: string) => MiddlewareHandler<AppEnv>;

export function entryDoc(group: EpsGroup): EpsDoc {
  return (summary) => {
    const mw: MiddlewareHandler<AppEnv> = (_c, next) => next();
    describeHandler(mw, group, summary);
    return mw;
  };
}

/** What Hono keeps of a registered route (`app.routes`). */
export interface RegisteredRoute {
  method: string;
  path: string;
  handler: object;
}

/** A mounted sub-app's handler wraps the original when the sub-app has its own error handler. */
const COMPOSED_HANDLER = '__COMPOSED_HANDLER';

/** `/file/:id{[0-9]+}` -> `/file/:id`: eps names parameters, not their patterns. */
function plainPath(path: string): string {
  return path.replace(/(:[A-Za-z0-9_]+)\{(?:[^{}]|\{[^{}]*\})*\}/g, '$1');
}

/**
 * The eps description of every described route, in registration order: entries (groups) in the
 * order of their first call, each call once (a route answering GET and POST is listed once, by
 * its first method).
 */
export function describeRoutes(routes: readonly RegisteredRoute[]): Eps {
  const eps: Eps = {};
  const entries = new Map<EpsGroup, EpsEntry>();
  /** Groups seen so far, by prefix: a definition's extra calls are registered after its own. */
  const byPrefix = new Map<string, EpsGroup[]>();
  const listed = new Set<string>();
  const seen = new WeakSet<object>();
  const extras = new Map<EpsGroup, Set<string>>();

  function add(group: EpsGroup, method: string, path: string, summary: string) {
    let entry = entries.get(group);
    if (!entry) {
      entry = { prefix: group.prefix, name: group.name, api: [], columns: group.columns };
      entries.set(group, entry);
      (eps[group.module] ??= []).push(entry);
      byPrefix.set(group.prefix, [...(byPrefix.get(group.prefix) ?? []), group]);
    }
    const rest = path.startsWith(group.prefix) ? path.slice(group.prefix.length) || '/' : path;
    entry.api.push({ method: method === 'GET' ? 'get' : 'post', path: plainPath(rest), summary });
  }

  for (const route of routes) {
    if (route.method === 'ALL') continue;
    const own = (route.handler as Record<string, object>)[COMPOSED_HANDLER] ?? route.handler;
    const described = DESCRIBED.get(own);
    if (described) {
      // One description on several methods (`.on(['GET', 'POST'], ...)`) is one call.
      if (seen.has(own)) continue;
      seen.add(own);
      add(described.group, route.method, route.path, described.summary);
      continue;
    }
    // A route has an entry per handler (middleware, validators): each extra call is listed once.
    const id = `${route.method} ${route.path}`;
    if (listed.has(id)) continue;
    for (const [prefix, groups] of byPrefix) {
      if (!route.path.startsWith(`${prefix}/`)) continue;
      const key = `${route.method.toLowerCase()} ${route.path.slice(prefix.length)}`;
      const group = groups.find((g) => g.extra?.has(key));
      if (!group) continue;
      listed.add(id);
      (extras.get(group) ?? extras.set(group, new Set()).get(group)!).add(key);
      break;
    }
  }
  // A definition's extra calls follow its own, in the definition's order.
  for (const [group, keys] of extras) {
    for (const [key, summary] of group.extra!) {
      if (!keys.has(key)) continue;
      const [method, path] = key.split(' ') as [string, string];
      add(group, method.toUpperCase(), group.prefix + path, summary);
    }
  }
  return eps;
}
