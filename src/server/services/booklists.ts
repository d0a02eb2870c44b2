/** Joint book lists (/booklist/{code}): one list by its code, with its books in the list's order. */
import { asc, eq } from 'drizzle-orm';
import type { Booklist, BooklistLink } from '#shared/schemas.ts';
import type { Db } from '../db/client.ts';
import { booklistBooks, booklists } from '../db/schema.ts';
import { notFound } from '../errors.ts';

type BookRow = typeof booklistBooks.$inferSelect;

function linkOf(row: BookRow): BooklistLink {
  if (row.linkType === 'reading' && row.linkUrl) return { type: 'reading', url: row.linkUrl, title: row.linkTitle };
  if ((row.linkType === 'course' || row.linkType === 'column') && row.linkId) return { type: row.linkType, id: row.linkId, title: row.linkTitle };
  // The table's check allows nothing else.
  throw new Error(`booklist book ${row.id}: link ${row.linkType} without its target`);
}

/** The list whose code is `code`, or -1005 书单不存在或已被删除. */
export async function getBooklist(db: Db, code: string): Promise<Booklist> {
  const [list] = await db.select().from(booklists).where(eq(booklists.code, code)).limit(1);
  if (!list) throw notFound('书单');
  const books = await db
    .select()
    .from(booklistBooks)
    .where(eq(booklistBooks.booklistId, list.id))
    .orderBy(asc(booklistBooks.sort), asc(booklistBooks.id));
  return {
    code: list.code,
    title: list.title,
    intro: list.intro,
    cover: { url: list.coverUrl, width: list.coverWidth, height: list.coverHeight },
    books: books.map((row) => ({
      id: row.id,
      title: row.title,
      author: row.author,
      cover: { url: row.coverUrl, width: row.coverWidth, height: row.coverHeight },
      reason: row.reason,
      link: linkOf(row),
    })),
  };
}
