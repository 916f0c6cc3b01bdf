// /admin/demo/sample: the specification's in-memory demo service, the example of a list page's
// calls (add, delete, update, info, list, page) for anyone adding a module (docs/adding-a-module.md).
// Records live in this process only, at most DEMO_MAX of them; every call answers after
// DEMO_DELAY_MS (the spec's slow back end, so loading states can be seen). Search: keyWord over
// phone and name, createTime, occupation and status exactly, phone and name by substring; a page
// carries the sum of the matching rows' wages in subData.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import type { AppEnv } from '../../core/env.ts';
import { entryDoc, epsGroup } from '../../core/eps.ts';
import { ok } from '../../core/envelope.ts';
import { fail } from '../../core/errors.ts';
import { MAX_PAGE_SIZE } from '../../core/crud.ts';
import { validate } from '../../core/validate.ts';

export const DEMO_DELAY_MS = 500;
/** Most records the list holds: adds beyond are refused, so it cannot grow without bound. */
export const DEMO_MAX = 500;
/** Records a fresh process starts with. */
const SEEDED = 25;

export interface DemoSample {
  id: number;
  name: string;
  createTime: string;
  wages: number;
  /** 0 or 1. */
  status: number;
  account: string;
  /** 0 to 5: the demo's occupations (the page names them). */
  occupation: number;
  avatar: string;
  phone: string;
}

const fields = {
  name: z.string().trim().min(1).max(64),
  wages: z.coerce.number().min(0).max(1e9).multipleOf(0.01),
  status: z.coerce.number().int().min(0).max(1),
  account: z.string().trim().min(1).max(64),
  occupation: z.coerce.number().int().min(0).max(5),
  avatar: z.string().trim().max(512).refine((v) => v === '' || v.startsWith('/') || /^https?:\/\//.test(v)).default(''),
  phone: z.string().trim().regex(/^\+?\d[\d -]{4,30}$/),
};
const addSchema = z.object(fields);
const updateSchema = z.object({ ...fields, id: z.coerce.number().int().positive() }).partial({
  name: true, wages: true, status: true, account: true, occupation: true, avatar: true, phone: true,
});
const SORTABLE = ['id', 'name', 'createTime', 'wages', 'status', 'occupation', 'account'] as const;
const searchShape = {
  keyWord: z.string().max(200).optional(),
  name: z.string().max(64).optional(),
  phone: z.string().max(32).optional(),
  createTime: z.string().max(19).optional(),
  occupation: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(5).optional()),
  status: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(1).optional()),
  order: z.enum(SORTABLE).or(z.literal('')).optional(),
  sort: z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(['asc', 'desc'])).optional(),
};
const listSchema = z.object(searchShape);
const pageSchema = z.object({
  ...searchShape,
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).default(20).transform((s) => Math.min(s, MAX_PAGE_SIZE)),
});
type Search = z.output<typeof listSchema>;

const GIVEN = ['Wang', 'Li', 'Zhang', 'Liu', 'Chen', 'Müller', 'Schmidt', 'Smith', 'Brown', 'Garcia'];
const FAMILY = ['Wei', 'Fang', 'Anna', 'Jonas', 'Mia', 'Lei', 'Jing', 'Paul', 'Lena', 'Tom'];

/** One process's records. */
export class DemoStore {
  private readonly rows = new Map<number, DemoSample>();
  private nextId = 1;

  constructor(now: number) {
    for (let i = 0; i < SEEDED; i++) {
      this.insert({
        name: `${GIVEN[i % GIVEN.length]} ${FAMILY[(i * 3) % FAMILY.length]}`,
        // A day apart, the newest first.
        createTime: formatTime(now - i * 86_400_000),
        wages: 3000 + ((i * 1237) % 9000),
        status: i % 3 === 0 ? 0 : 1,
        account: `demo${String(i + 1).padStart(2, '0')}`,
        occupation: i % 6,
        avatar: '',
        phone: `1380000${String(1000 + i * 37).padStart(4, '0')}`,
      });
    }
  }

  private insert(data: Omit<DemoSample, 'id'>): DemoSample {
    const row = { ...data, id: this.nextId++ };
    this.rows.set(row.id, row);
    return row;
  }

  add(data: Omit<DemoSample, 'id' | 'createTime'>, now: number): number {
    if (this.rows.size >= DEMO_MAX) throw fail('demoFull', { max: DEMO_MAX });
    return this.insert({ ...data, createTime: formatTime(now) }).id;
  }

  update(id: number, data: Partial<Omit<DemoSample, 'id' | 'createTime'>>): void {
    const row = this.rows.get(id);
    if (!row) throw fail('dataNotFound');
    const defined = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined));
    this.rows.set(id, { ...row, ...defined });
  }

  delete(ids: readonly number[]): void {
    for (const id of ids) this.rows.delete(id);
  }

  info(id: number): DemoSample {
    const row = this.rows.get(id);
    if (!row) throw fail('dataNotFound');
    return row;
  }

  /** The matching rows, sorted (default: newest first). */
  search(q: Search): DemoSample[] {
    const kw = q.keyWord?.trim() ?? '';
    const rows = [...this.rows.values()].filter(
      (r) =>
        (!kw || r.phone.includes(kw) || r.name.toLowerCase().includes(kw.toLowerCase())) &&
        (!q.name || r.name.toLowerCase().includes(q.name.trim().toLowerCase())) &&
        (!q.phone || r.phone.includes(q.phone.trim())) &&
        (!q.createTime || r.createTime === q.createTime) &&
        (q.occupation === undefined || r.occupation === q.occupation) &&
        (q.status === undefined || r.status === q.status),
    );
    const column = q.order || 'id';
    const direction = q.order ? (q.sort ?? 'asc') : (q.sort ?? 'desc');
    const sign = direction === 'asc' ? 1 : -1;
    return rows.sort((a, b) => {
      const x = a[column];
      const y = b[column];
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return (c || a.id - b.id) * sign;
    });
  }
}

const wait = () => new Promise((resolve) => setTimeout(resolve, DEMO_DELAY_MS));
/** Wages summed in cents, so that 0.1 + 0.2 stays 0.3. */
const sumWages = (rows: readonly DemoSample[]) => rows.reduce((cents, r) => cents + Math.round(r.wages * 100), 0) / 100;

export const DEMO_PREFIX = '/admin/demo/sample';
const EPS = epsGroup('demo', DEMO_PREFIX, 'DemoSample', [
  { propertyName: 'id', type: 'number', comment: 'ID', nullable: false },
  { propertyName: 'name', type: 'string', comment: 'Name', nullable: false },
  { propertyName: 'createTime', type: 'datetime', comment: 'Created', nullable: false },
  { propertyName: 'wages', type: 'number', comment: 'Wages', nullable: false },
  { propertyName: 'status', type: 'number', comment: 'Status: 0 off, 1 on', nullable: false },
  { propertyName: 'account', type: 'string', comment: 'Account', nullable: false },
  { propertyName: 'occupation', type: 'number', comment: 'Occupation 0 to 5', nullable: false },
  { propertyName: 'avatar', type: 'string', comment: 'Avatar URL', nullable: false },
  { propertyName: 'phone', type: 'string', comment: 'Phone', nullable: false },
]);

/** The demo calls; their permissions follow the path (demo:sample:page, ...). */
export function demoSampleRoutes(ctx: AppContext) {
  const store = new DemoStore(ctx.clock.now());
  const doc = entryDoc(EPS);
  const routes = new Hono<AppEnv>()
    .post('/add', doc('Add'), validate('json', addSchema), async (c) => {
      await wait();
      return ok(c, { id: store.add(c.req.valid('json'), ctx.clock.now()) });
    })
    .post('/delete', doc('Delete'), validate('json', z.object({ ids: z.array(z.coerce.number().int()).min(1).max(1000) })), async (c) => {
      await wait();
      store.delete(c.req.valid('json').ids);
      return ok(c, null);
    })
    .post('/update', doc('Update'), validate('json', updateSchema), async (c) => {
      const { id, ...data } = c.req.valid('json');
      await wait();
      store.update(id, data);
      return ok(c, null);
    })
    .get('/info', doc('Info'), validate('query', z.object({ id: z.coerce.number().int().positive() })), async (c) => {
      await wait();
      return ok(c, store.info(c.req.valid('query').id));
    })
    .post('/list', doc('List'), validate('json', listSchema), async (c) => {
      await wait();
      return ok(c, store.search(c.req.valid('json')));
    })
    .post('/page', doc('Page'), validate('json', pageSchema), async (c) => {
      const { page, size, ...search } = c.req.valid('json');
      await wait();
      const rows = store.search(search);
      return ok(c, {
        list: rows.slice((page - 1) * size, page * size),
        pagination: { page, size, total: rows.length },
        subData: { wages: sumWages(rows) },
      });
    });
  return routes;
}

