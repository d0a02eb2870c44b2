/** A user's notes (user/note/list: size 2, prev 0, then the cursor). The only source of this query key. */
import { infiniteQueryOptions } from '@tanstack/react-query';
import { NOTE_LIST_DEFAULT_SIZE } from '#shared/constants.ts';
import { endpoints } from '#shared/endpoints.ts';
import type { Note, Paged } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';
import { keysetPaging } from '../../lib/paging.ts';

export const noteKeys = { user: (ucode: string) => ['notes', ucode] as const };

export function notesQueryOptions(ucode: string) {
  return infiniteQueryOptions({
    queryKey: noteKeys.user(ucode),
    queryFn: ({ pageParam, signal }): Promise<Paged<Note>> =>
      request(endpoints.noteList, { visit_ucode: ucode, size: NOTE_LIST_DEFAULT_SIZE, prev: pageParam }, { signal }),
    ...keysetPaging,
  });
}
