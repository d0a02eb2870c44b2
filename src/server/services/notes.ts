/** A user's notes, newest first; `prev` is the cursor (the last note id seen). */
import { and, desc, eq, lt } from 'drizzle-orm';
import type { Note } from '#shared/schemas.ts';
import type { Db } from '../db/client.ts';
import { notes } from '../db/schema.ts';
import { keysetPage, type Page } from './paging.ts';
import { resolveUserId } from './users.ts';

type NoteRow = typeof notes.$inferSelect;

export const toNote = (row: NoteRow): Note => ({
  id: row.id,
  content: row.content,
  create_time: row.createdAt.getTime(),
  update_time: row.updatedAt.getTime(),
});

export async function listNotes(db: Db, ucode: string, size: number, prev: number): Promise<Page<Note>> {
  const userId = await resolveUserId(db, { visit_ucode: ucode });
  const rows = await db
    .select()
    .from(notes)
    .where(and(eq(notes.userId, userId), prev ? lt(notes.id, prev) : undefined))
    .orderBy(desc(notes.id))
    .limit(size + 1);
  return keysetPage(rows, size, (row) => row.id, (page) => page.map(toNote));
}
