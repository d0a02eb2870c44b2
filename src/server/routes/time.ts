/** The time service: explore lists, config items, notes. */
import { defineHandlers } from '../http/define-endpoint.ts';
import { configList, exploreList } from '../services/catalogue.ts';
import { saveNote } from '../services/notes.ts';
import { writer } from '../services/once.ts';
import type { RouteDeps } from './deps.ts';

export const timeHandlers = ({ db, config, onReplay }: RouteDeps) => {
  const write = writer(db, config, onReplay);
  return defineHandlers({
    exploreList: async ({ input }) => ({
      info: { list: await exploreList(db, input.page, input.block_name) },
    }),

    configList: async ({ input }) => ({ list: await configList(db, input.keys) }),

    // The body arrives as base64 of the JSON (see the preValidation hook in app.ts); exactly
    // once per client_id, within the write limit, like every write.
    noteUpdate: ({ input, viewer }) =>
      write({ endpoint: 'noteUpdate', viewer, input }, (tx) => saveNote(tx, viewer.userId, input, config.dailyNoteLimit)),
  });
};
