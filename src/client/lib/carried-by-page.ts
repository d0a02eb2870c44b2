/**
 * The queries whose data came inside the page and which the server rendered into it
 * (app/first-read.ts): the client's first render shows them at once, as the page already does,
 * never a placeholder first, which would flash and move the page. A list that otherwise renders
 * its first posts in the background (features/feed PostList) asks here. Forgotten once the first
 * screen is up: a later visit of the same page is an ordinary one.
 */
import { hashKey, type QueryKey } from '@tanstack/react-query';

const carried = new Set<string>();

export function markCarriedByPage(queryKey: QueryKey): void {
  carried.add(hashKey(queryKey));
}

export function carriedByPage(queryKey: QueryKey): boolean {
  return carried.has(hashKey(queryKey));
}

export function forgetCarriedByPage(): void {
  carried.clear();
}
