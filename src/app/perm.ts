/**
 * Permission check of the specification (section 6): a check passes if any permission the server
 * granted contains the requested string (spaces removed); `or` and `and` combine checks.
 */
export type PermCheck = string | { or?: PermCheck[]; and?: PermCheck[] };

export function checkPerm(perms: readonly string[], value: PermCheck | null | undefined): boolean {
  if (!value) return false;
  if (typeof value === 'object') {
    if (value.or) return value.or.some((v) => checkPerm(perms, v));
    if (value.and) return value.and.length > 0 && value.and.every((v) => checkPerm(perms, v));
    return false;
  }
  const wanted = value.replace(/\s/g, '');
  if (!wanted) return false;
  return perms.some((p) => p.replace(/\s/g, '').includes(wanted));
}
