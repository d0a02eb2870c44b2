/**
 * The moderators' review: the queue of reported posts, comments and users, and the audit log.
 * The only source of these query keys. Nothing here is kept for offline reading: a moderator
 * decides on what the server holds now.
 */
import { infiniteQueryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { request } from '../../lib/http.ts';
import { keysetPaging } from '../../lib/paging.ts';

export const MODERATION_PAGE_SIZE = 20;

export const moderationKeys = {
  all: ['moderation'] as const,
  queue: ['moderation', 'queue'] as const,
  log: ['moderation', 'log'] as const,
};

/** Open complaints grouped by target, automatically hidden first, then the most reported, then the oldest. */
export function moderationQueueQueryOptions() {
  return infiniteQueryOptions({
    queryKey: moderationKeys.queue,
    queryFn: ({ pageParam, signal }) => request(endpoints.moderationQueue, { index: pageParam, size: MODERATION_PAGE_SIZE }, { signal }),
    ...keysetPaging,
    meta: { persist: false },
  });
}

/** The audit log, newest first. */
export function moderationLogQueryOptions() {
  return infiniteQueryOptions({
    queryKey: moderationKeys.log,
    queryFn: ({ pageParam, signal }) => request(endpoints.moderationLog, { index: pageParam, size: MODERATION_PAGE_SIZE }, { signal }),
    ...keysetPaging,
    meta: { persist: false },
  });
}
