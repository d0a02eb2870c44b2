/**
 * The queries whose data came inside the page and which the server rendered into it
 * (app/first-read.ts): the client's first render shows them at once, as the page already does,
 * never a placeholder first, which would flash and move the page. A list that otherwise renders
 * its first posts in the background (features/feed PostList) asks here. Forgotten once the first
 * screen is up: a later visit of the same page is an ordinary one.
 */
import { hashKey, type QueryKey } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';

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

/**
 * `data` as a list shows it: rendered in the background (a transition, which React does in
 * slices between which the page stays responsive, null until then) when `inBackground`, unless
 * the page carried and showed this query's data; otherwise at once. Decided when the list
 * mounts; once shown, what changes renders at once.
 */
export function useDeferredUnlessCarried<T>(data: T, queryKey: QueryKey, inBackground = true): T | null {
  const [deferred] = useState(() => inBackground && !carriedByPage(queryKey));
  return useDeferredValue<T | null>(data, deferred ? null : undefined);
}
