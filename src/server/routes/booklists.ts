/** Joint book lists: one list by its code (public, cached offline by the service worker like every public read). */
import { defineHandlers } from '../http/define-endpoint.ts';
import { getBooklist } from '../services/booklists.ts';
import type { RouteDeps } from './deps.ts';

export const booklistHandlers = ({ db }: RouteDeps) =>
  defineHandlers({
    booklistDetail: ({ input }) => getBooklist(db, input.code),
  });
