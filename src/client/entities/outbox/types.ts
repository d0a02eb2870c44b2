/**
 * The writes as the screens that show them read them (a waiting post, a waiting comment, a
 * returned complaint): types, and a check of the kind, without loading the outbox's code.
 */
import type { QueuedWrite } from '../../lib/write-queue/store.ts';
import type { WriteData, WriteKind } from './registry.ts';

export type { WriteAnswer, WriteData, WriteInput, WriteKind } from './registry.ts';
export type { WriteAuthor } from './definition.ts';

/** A stored write of kind K. */
export type WriteOf<K extends WriteKind> = QueuedWrite<K, WriteData<K>>;

/** Any write the app knows. */
export type Write = { [K in WriteKind]: WriteOf<K> }[WriteKind];

export const isWriteOf = <K extends WriteKind>(item: QueuedWrite, kind: K): item is WriteOf<K> => item.kind === kind;

/** What the app says of each kind of write (app/write-notices.ts): texts and routes live there, not here. */
export interface WriteNotice<D> {
  /** What the outbox's list calls it (动态, 点赞, 取消关注, ...). */
  label(data: D): string;
  /** Where its editor is, for a write that came back: a path, or `?name=value` on the current page. */
  editor?(data: D): string;
  /** Said when it went out after the screen that made it had moved on. */
  sentLater?: string;
  /** Said before the server's message when it was refused after the screen moved on. */
  refusedLater?: string;
  /** The screen that makes it shows a refusal itself (a form): nothing is said while it waits. */
  refusalShownByScreen?: boolean;
}

export type WriteNotices = { [K in WriteKind]: WriteNotice<WriteData<K>> };
