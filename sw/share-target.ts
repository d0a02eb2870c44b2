/**
 * A share to the installed app (the manifest's share_target), offline too. A POST (what the
 * manifest asks for, so pictures can come along) is read here: its pictures are kept in IndexedDB
 * under a new id, and the share goes on to the composer with its text and that id in the query
 * (src/shared/static-paths.ts), where the composer takes the pictures into the post draft. A GET
 * (an install made before the manifest asked for POST) goes on as its query says.
 */
import { createStore, set } from 'idb-keyval';
import { registerRoute } from 'workbox-routing';
import { SHARE_FIELDS, SHARE_FILES_FIELD, SHARE_TARGET_PATH, SHARED_FILES_DB, SHARED_FILES_PARAM, shareTargetLocation } from '#shared/static-paths.ts';

declare const self: ServiceWorkerGlobalScope;

const isShare = ({ url, request }: { url: URL; request: Request }) => request.mode === 'navigate' && url.pathname === SHARE_TARGET_PATH;

const toComposer = (search: string) => Response.redirect(new URL(shareTargetLocation(search), self.location.origin).href, 303);

async function takeShare(request: Request): Promise<Response> {
  const form = await request.formData().catch(() => undefined);
  const query = new URLSearchParams();
  for (const field of SHARE_FIELDS) {
    const value = form?.get(field);
    if (typeof value === 'string' && value.trim()) query.set(field, value);
  }
  const pictures = (form?.getAll(SHARE_FILES_FIELD) ?? []).filter((file): file is File => file instanceof File && file.type.startsWith('image/'));
  if (pictures.length > 0) {
    const id = crypto.randomUUID();
    try {
      await set(id, pictures, createStore(SHARED_FILES_DB.database, SHARED_FILES_DB.store));
      query.set(SHARED_FILES_PARAM, id);
    } catch (error) {
      // No room or no IndexedDB: the text still reaches the composer.
      console.warn('Could not keep the shared pictures', error);
    }
  }
  return toComposer(query.toString());
}

export function setupShareTarget(): void {
  registerRoute(isShare, ({ request }) => takeShare(request), 'POST');
  registerRoute(isShare, async ({ url }) => toComposer(url.search));
}
