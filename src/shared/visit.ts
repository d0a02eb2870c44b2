/** The calls about one user name them by a numeric id (visit_user_id) or by ucode (visit_ucode). */
export type VisitUser = { visit_user_id: number } | { visit_ucode: string };

/** From a /usercenter/$id path parameter: a positive number is an id, anything else a ucode. */
export function visitUserOf(id: string): VisitUser {
  const trimmed = id.trim();
  return /^\d+$/.test(trimmed) && Number(trimmed) > 0 ? { visit_user_id: Number(trimmed) } : { visit_ucode: trimmed };
}
