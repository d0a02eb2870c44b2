import type { FastifyInstance } from 'fastify';
import { api } from '#shared/api.ts';
import { defineEndpoint } from '../http/define-endpoint.ts';
import { configList, exploreList } from '../services/catalogue.ts';
import { saveNote } from '../services/notes.ts';
import type { RouteDeps } from './deps.ts';

export async function timeRoutes(app: FastifyInstance, { db }: RouteDeps) {
  defineEndpoint(app, api.exploreList, async ({ input }) => ({
    info: { list: await exploreList(db, input.page, input.block_name) },
  }));

  defineEndpoint(app, api.configList, async ({ input }) => ({ list: await configList(db, input.keys) }));

  // The body arrives as base64 of the JSON (see the preValidation hook in app.ts).
  defineEndpoint(app, api.noteUpdate, ({ input, viewer }) => saveNote(db, viewer.userId, input));
}
