/**
 * What a post's row keeps of its attachments (posts.attach, schema.ts): the card's list as the API
 * answers it, written once with the post (post/add, the demo seed, the bench's bulk loader) and
 * read by every page and detail without touching post_images or code_snippets.
 */
import type { Attach } from '#shared/schemas.ts';

/** Lines of a code snippet a card shows; code/detail serves the whole snippet. */
export const CODE_PREVIEW_LINES = 8;

/** The first CODE_PREVIEW_LINES lines of the code (split on \n only, as migration 0004's backfill does). */
export const codePreview = (code: string): string => code.split('\n', CODE_PREVIEW_LINES).join('\n');

/** The card's attachments: the pictures in their order, then the code snippet. */
export function cardAttach(
  pictures: readonly { url: string; width: number; height: number }[],
  code: { uuid: string; language: string; title: string; code: string } | null,
): Attach[] {
  const attach: Attach[] = pictures.map(({ url, width, height }) => ({ type: 'image', url, width, height }));
  if (code) attach.push({ type: 'code', uuid: code.uuid, language: code.language, title: code.title, preview: codePreview(code.code) });
  return attach;
}
