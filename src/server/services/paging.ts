/** Keyset paging: fetch size + 1 rows to learn whether more exist. */
import type { Paged } from '#shared/schemas.ts';

export interface KeysetRequest {
  /** The previous page's next_index; 0 or absent for the first page. */
  index?: number | undefined;
  size?: number | undefined;
}

export type Page<T> = Paged<T>;

export async function keysetPage<Row, Item>(
  rows: Row[],
  size: number,
  keyOf: (row: Row) => number,
  toItems: (rows: Row[]) => Promise<Item[]> | Item[],
): Promise<Page<Item>> {
  const more = rows.length > size;
  const pageRows = more ? rows.slice(0, size) : rows;
  const last = pageRows.at(-1);
  return {
    list: await toItems(pageRows),
    page: { more, next_index: last === undefined ? 0 : keyOf(last) },
  };
}
