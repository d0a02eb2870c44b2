/**
 * What the operator sets for the site to show, read by key: explore blocks (the sidebar asks
 * page horde, block sidebar) and config items. The upstream files both under its time service.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { ConfigItem, ExploreItem } from '#shared/schemas.ts';
import type { Db } from '../db/client.ts';
import { configItems, exploreItems } from '../db/schema.ts';

export async function exploreList(db: Db, page: string, blockName: string): Promise<ExploreItem[]> {
  const rows = await db
    .select({ id: exploreItems.id, title: exploreItems.title, redirect_param: exploreItems.redirectParam })
    .from(exploreItems)
    .where(and(eq(exploreItems.page, page), eq(exploreItems.blockName, blockName)))
    .orderBy(asc(exploreItems.sort), asc(exploreItems.id));
  return rows;
}

/** Content is stored as JSON text and parsed here; unknown keys are left out. */
export async function configList(db: Db, keys: string[]): Promise<ConfigItem[]> {
  const rows = await db.select().from(configItems).where(inArray(configItems.key, keys));
  return rows.map((row) => ({ key: row.key, content: parseJson(row.content) }));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
