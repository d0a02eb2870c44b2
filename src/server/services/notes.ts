/** A user's notes, newest first; `prev` is the cursor (the last note id seen). */
import { and, desc, eq, lt } from 'drizzle-orm';
import { MAX_ID, type Note } from '#shared/schemas.ts';
import type { Db } from '../db/client.ts';
import { notes } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { hitDailyCap } from './limits/daily-caps.ts';
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
    // Note ids are int4: a cursor beyond them all is every note (and must not reach the int4 column).
    .where(and(eq(notes.userId, userId), prev && prev <= MAX_ID ? lt(notes.id, prev) : undefined))
    .orderBy(desc(notes.id))
    .limit(size + 1);
  return keysetPage(rows, size, (row) => row.id, (page) => page.map(toNote));
}

/**
 * Creates a note, or updates one of the user's own notes when an id is given. Both store text,
 * so both count against the daily cap; call it inside the write's transaction (a refused or
 * failed save is rolled back, and not counted).
 */
export async function saveNote(tx: Db, userId: number, input: { id?: number | undefined; content: string }, dailyLimit: number): Promise<Note> {
  if (input.id === undefined) {
    await hitDailyCap(tx, 'note', userId, dailyLimit);
    const [created] = await tx.insert(notes).values({ userId, content: input.content }).returning();
    return toNote(created!);
  }
  const [updated] = await tx
    .update(notes)
    .set({ content: input.content, updatedAt: new Date() })
    .where(and(eq(notes.id, input.id), eq(notes.userId, userId)))
    .returning();
  if (!updated) throw notFound('笔记');
  await hitDailyCap(tx, 'note', userId, dailyLimit);
  return toNote(updated);
}
