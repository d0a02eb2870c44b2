/**
 * Fitting the persisted query cache under its byte cap (query-cache-persister.ts), least recently used
 * first out. Loaded only when a save is over the cap.
 */
import type { PersistedClient } from '@tanstack/query-persist-client-core';
import { jsonByteLength } from './local-cache.ts';
import type { PersistedQuery } from './query-cache-persister.ts';

/**
 * Fits a persisted client under `maxBytes` (JSON byte length): drops the queries used longest
 * ago first (`usedAt`, else when their data was fetched); if it is still over (huge
 * mutations), drops the mutations too. Returns the client unchanged when it fits.
 */
export function trimPersistedClient(client: PersistedClient, maxBytes: number): PersistedClient {
  let size = jsonByteLength(client);
  if (size <= maxBytes) return client;
  const queries = client.clientState.queries as PersistedQuery[];
  const byUse = queries
    .map((query, index) => ({ index, usedAt: query.usedAt ?? query.state.dataUpdatedAt }))
    .sort((a, b) => a.usedAt - b.usedAt);
  const dropped = new Set<number>();
  for (const { index } of byUse) {
    if (size <= maxBytes) break;
    dropped.add(index);
    size -= jsonByteLength(queries[index]) + 1; // the query and its separating comma
  }
  let trimmed: PersistedClient = {
    ...client,
    clientState: { ...client.clientState, queries: queries.filter((_, index) => !dropped.has(index)) },
  };
  if (jsonByteLength(trimmed) > maxBytes) {
    trimmed = { ...trimmed, clientState: { ...trimmed.clientState, queries: [], mutations: [] } };
  }
  return trimmed;
}
