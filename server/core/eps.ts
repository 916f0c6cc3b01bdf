// The `eps` description clients read to build their service proxies.

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

/** module -> entries, in the order they were registered. */
export type Eps = Record<string, EpsEntry[]>;

export function addEps(eps: Eps, module: string, entry: EpsEntry): void {
  (eps[module] ??= []).push(entry);
}
