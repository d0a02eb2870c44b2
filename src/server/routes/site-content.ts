/**
 * What the operator sets for the site to show: explore lists and config items
 * (services/site-content.ts). The upstream files them under its time service (the OpenAPI tag time).
 */
import { defineHandlers } from '../http/define-endpoint.ts';
import { configList, exploreList } from '../services/site-content.ts';
import type { RouteDeps } from './deps.ts';

export const siteContentHandlers = ({ db }: RouteDeps) =>
  defineHandlers({
    exploreList: async ({ input }) => ({
      info: { list: await exploreList(db, input.page, input.block_name) },
    }),

    configList: async ({ input }) => ({ list: await configList(db, input.keys) }),
  });
