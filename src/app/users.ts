/**
 * How people are named in the back office, one rule everywhere: the nickname, else the full
 * name, else the username (`userName`); in pickers also the username, which tells two "Dora"s
 * apart (`userLabel`: "Dora Designer (dora)").
 */
export interface NamedUser {
  username: string;
  nickName?: string | null;
  name?: string | null;
}

export function userName(u: NamedUser | null | undefined): string {
  if (!u) return '';
  return u.nickName?.trim() || u.name?.trim() || u.username;
}

export function userLabel(u: NamedUser): string {
  const name = userName(u);
  return name && name !== u.username ? `${name} (${u.username})` : u.username;
}
