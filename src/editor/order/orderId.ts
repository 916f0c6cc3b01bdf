/** The order of /bend?orderId=N, or null (the editor then opens local files). */
export function orderIdOf(searchStr: string): number | null {
  const raw = new URLSearchParams(searchStr).get('orderId');
  const id = raw ? Number(raw) : NaN;
  return Number.isInteger(id) && id > 0 ? id : null;
}
