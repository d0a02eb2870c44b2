import type { VisitUser } from '#shared/visit.ts';

/** One string per visited user, for query keys. */
export const visitKey = (visit: VisitUser): string =>
  'visit_user_id' in visit ? `id:${visit.visit_user_id}` : `ucode:${visit.visit_ucode}`;
