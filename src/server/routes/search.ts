/** Search: posts, topics, channels and users. */
import { defineHandlers } from '../http/define-endpoint.ts';
import { search } from '../services/search.ts';
import type { RouteDeps } from './deps.ts';

export const searchHandlers = ({ db }: RouteDeps) =>
  defineHandlers({
    search: ({ input, viewer }) => search(db, input, viewer),
  });
