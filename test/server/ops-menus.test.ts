// Every permission the ops resources define is granted by some seeded menu entry, and their
// pages are in the seeded menu (so an administrator can give them to a role).
import { describe, expect, it } from 'vitest';
import { permsFor } from '../../server/core/crud.ts';
import { seedMenus, type MenuSeed } from '../../server/db/seed-menus.ts';
import { logResource } from '../../server/modules/base/sys-log.ts';
import { paramResource } from '../../server/modules/base/sys-param.ts';
import { releaseResource } from '../../server/modules/base/sys-release.ts';
import { dictInfoResource } from '../../server/modules/dict/dict-info.ts';
import { dictTypeResource } from '../../server/modules/dict/dict-type.ts';
import { articleResource } from '../../server/modules/help/article.ts';
import { categoryResource } from '../../server/modules/help/category.ts';
import { taskResource } from '../../server/modules/task/task-info.ts';
import { LOGIN_ONLY_PATHS } from '../../server/core/auth.ts';

function walk(items: MenuSeed[], out: MenuSeed[] = []): MenuSeed[] {
  for (const m of items) {
    out.push(m);
    walk(m.children ?? [], out);
  }
  return out;
}

describe('ops menus', () => {
  const all = walk(seedMenus);
  const seeded = new Set(all.flatMap((m) => m.perms?.split(',') ?? []));
  const loginOnly = new Set([...LOGIN_ONLY_PATHS].map((p) => p.replace(/^\/admin\//, '').replaceAll('/', ':')));

  it('grant every permission the ops resources define (or need none)', () => {
    const defined = [paramResource, logResource, releaseResource, dictTypeResource, dictInfoResource, taskResource, articleResource, categoryResource].flatMap(
      (r) => permsFor(r),
    );
    expect(defined).toContain('task:info:once');
    expect(defined.filter((p) => !seeded.has(p) && !loginOnly.has(p))).toEqual([]);
  });

  it('have the ops pages with their view paths', () => {
    const pages = Object.fromEntries(all.filter((m) => m.type === 1).map((m) => [m.router, m.viewPath]));
    expect(pages).toMatchObject({
      '/sys/param': 'modules/base/views/param',
      '/sys/log': 'modules/base/views/log',
      '/sys/release': 'modules/base/views/release',
      '/dict/list': 'modules/dict/views/list',
      '/task/list': 'modules/task/views/list',
      '/help/article': 'modules/help/views/article',
      '/help/doc': 'modules/help/views/doc',
    });
  });
});
