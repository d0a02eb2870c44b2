/**
 * Drafts (publishParams, codeContent, topicTags), never lost: a zustand store persisted to
 * IndexedDB (its own idb-keyval store), written at most 300 ms after a change and at once when the
 * page is hidden or left. Pictures stay as blobs until uploaded, so a reload, a crashed tab or a
 * closed browser brings the draft back whole.
 *
 * Leaving the page, or losing it: an IndexedDB write begun in pagehide may never commit
 * (Chromium drops it on a reload), and a crashed tab runs no pagehide at all and loses the write
 * waiting for its 300 ms. So every change not yet committed is also copied, synchronously as it
 * is made, to localStorage (without its blobs; the browser keeps localStorage when a tab's
 * renderer crashes), taken back at the next start, newer wins, blobs found again in IndexedDB by
 * the picture's localId, and dropped from there once IndexedDB has it. A crash loses no text;
 * a new picture is written to IndexedDB at once (its blob cannot go to localStorage), so only a
 * crash within that write loses it (it comes back as lost: 移除后重新添加).
 *
 * Storage refusing: a save refused for want of room drops the persisted query cache
 * and is tried again (lib/storage-room.ts); still refused, or with no IndexedDB at all (private
 * modes), the draft lives in this page's memory, is saved with the next change, and a toast says
 * once that it is kept only on this page.
 *
 * Two tabs: every draft carries the time of its last edit, and a save keeps, key by key, the
 * newer of what is stored and what is saved (one IndexedDB transaction), so a tab with an older
 * text never overwrites a newer one; the other tabs hear of a save and take the newer text.
 * Publishing removes the draft (a tombstone with its time, so an older copy cannot return).
 */
import { createStore, update, get as idbGet } from 'idb-keyval';
import { create } from 'zustand';
import { newClientId } from '../../lib/ids.ts';
import type { Picture } from '../../lib/picture.ts';
import { keepWrite, storageNotice } from '../../lib/storage-room.ts';
import { toast } from '../../ui/toast/toast-store.ts';

export interface VoteDraft {
  title: string;
  multiple: boolean;
  options: string[];
  /** datetime-local value, or '' for no end. */
  endsAt: string;
}

export interface PostDraft {
  publishParams: {
    /** The post's client_id, born with the draft: a retried publish is one post. */
    id: string;
    content: string;
    channel_id: number[];
    attach: Picture[];
  };
  /** The code snippet (entered on /post); '' for none. */
  codeContent: string;
  codeLanguage: string;
  codeTitle: string;
  /** `#话题#` tags. */
  topicTags: string;
  vote: VoteDraft | null;
  /** When this text was last edited (ms): the newer edit wins across tabs. */
  editedAt: number;
}

/** What is stored per key: a draft, or the time it was published or thrown away. */
type Stored = PostDraft | { removedAt: number };
type StoredDrafts = Record<string, Stored>;

/**
 * The draft a user's 发动态 writes into: theirs alone on a shared device. A visitor's (a share
 * before the login), and the one an earlier version kept for everyone, is taken up by the next
 * user who writes with an empty draft of their own (adoptVisitorDraft).
 */
export const postDraftKey = (uid: number | undefined): string => (uid === undefined ? VISITOR_POST_DRAFT : `post@${uid}`);
const VISITOR_POST_DRAFT = 'post';

export const DRAFT_SAVE_DELAY_MS = 300;
const RECORD = 'drafts';
const CHANNEL = 'horde:drafts'; // horde: src/client/README.md ('horde')
const UNSAVED_BACKUP = 'horde-drafts-unsaved'; // horde: src/client/README.md ('horde')

export function emptyDraft(now = Date.now()): PostDraft {
  return {
    publishParams: { id: newClientId(), content: '', channel_id: [], attach: [] },
    codeContent: '',
    codeLanguage: 'javascript',
    codeTitle: '',
    topicTags: '',
    vote: null,
    editedAt: now,
  };
}

const isDraft = (stored: Stored | undefined): stored is PostDraft => Boolean(stored && 'publishParams' in stored);
const timeOf = (stored: Stored | undefined): number => (!stored ? -1 : isDraft(stored) ? stored.editedAt : stored.removedAt);

/**
 * Key by key, the newer of two sets of drafts. On a tie `b` wins, except over a tombstone: a
 * draft published in the millisecond it was last edited must stay published.
 */
export function newerDrafts(a: StoredDrafts, b: StoredDrafts): StoredDrafts {
  const merged: StoredDrafts = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const theirs = timeOf(value);
    const ours = timeOf(merged[key]);
    if (theirs > ours || (theirs === ours && (isDraft(merged[key]) || !isDraft(value)))) merged[key] = value;
  }
  return merged;
}

interface DraftState {
  /** The drafts of this tab, by key; removed ones are tombstones. */
  stored: StoredDrafts;
  /** Read from IndexedDB once at start. */
  loaded: boolean;
  /** Changes draft `key` (created when missing). A missing key is refused: nothing is saved. */
  edit: (key: string, change: (draft: PostDraft) => PostDraft) => boolean;
  /** The draft was published (or thrown away): it goes, everywhere. */
  remove: (key: string) => void;
}

// Opened on first use: where IndexedDB is missing or throws, each use rejects (and is caught).
const idbStore = createStore('horde-drafts', 'drafts'); // horde: src/client/README.md ('horde')
let pending: StoredDrafts = {};
/** Changes whose IndexedDB write has begun and not yet committed. */
let writing: StoredDrafts = {};
let timer: ReturnType<typeof setTimeout> | undefined;
let channel: BroadcastChannel | null | undefined;

function otherTabs(): BroadcastChannel | null {
  channel ??= typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
  return channel;
}

/** Writes what changed since the last write; resolves once it is stored. */
export async function flushDrafts(): Promise<void> {
  clearTimeout(timer);
  timer = undefined;
  const changes = pending;
  pending = {};
  if (Object.keys(changes).length === 0) return;
  writing = newerDrafts(writing, changes);
  try {
    await keepWrite(() => update<StoredDrafts>(RECORD, (stored) => newerDrafts(stored ?? {}, changes), idbStore));
    dropFromBackup(changes);
    otherTabs()?.postMessage({ keys: Object.keys(changes) });
  } catch (error) {
    // Storage refused (no room even without the query cache, private mode): the changes stay
    // in memory (and in the localStorage copy) for the next try.
    pending = newerDrafts(changes, pending);
    console.warn('Could not save the draft', error);
    const notice = storageNotice(error);
    if (notice) toast.warning(notice);
  } finally {
    for (const [key, value] of Object.entries(changes)) if (writing[key] === value) delete writing[key];
  }
}

function save(key: string, value: Stored): void {
  pending = { ...pending, [key]: value };
  // At once: a tab that crashes now loses nothing typed.
  backupUnsavedDrafts();
  // Never postponed by the next keystroke: steady typing is written every 300 ms.
  timer ??= setTimeout(() => void flushDrafts(), DRAFT_SAVE_DELAY_MS);
}

export const useDrafts = create<DraftState>()((set, get) => ({
  stored: {},
  loaded: false,
  edit(key, change) {
    if (!key) return false;
    const current = get().stored[key];
    const before = isDraft(current) ? current : emptyDraft();
    const next = { ...change(before), editedAt: Date.now() };
    set({ stored: { ...get().stored, [key]: next } });
    save(key, next);
    // A new picture is written at once: the localStorage copy cannot hold its blob.
    const blobs = new Set(before.publishParams.attach.map((image) => image.blob));
    if (next.publishParams.attach.some((image) => image.blob && !blobs.has(image.blob))) void flushDrafts();
    return true;
  },
  remove(key) {
    if (!key) return;
    const tombstone = { removedAt: Date.now() };
    set({ stored: { ...get().stored, [key]: tombstone } });
    save(key, tombstone);
  },
}));

/** The live draft of `key`, or undefined. */
export function useDraft(key: string): PostDraft | undefined {
  return useDrafts((state) => {
    const stored = state.stored[key];
    return isDraft(stored) ? stored : undefined;
  });
}

function readUnsavedBackup(): StoredDrafts {
  try {
    return JSON.parse(localStorage.getItem(UNSAVED_BACKUP) ?? '{}') as StoredDrafts;
  } catch {
    return {};
  }
}

function writeBackup(backup: StoredDrafts): void {
  try {
    if (Object.keys(backup).length === 0) localStorage.removeItem(UNSAVED_BACKUP);
    else localStorage.setItem(UNSAVED_BACKUP, JSON.stringify(backup));
  } catch {
    // No localStorage (or full): the IndexedDB write is all there is.
  }
}

/** IndexedDB has these: their copies (unless newer, from another tab) leave localStorage. */
function dropFromBackup(saved: StoredDrafts): void {
  const backup = readUnsavedBackup();
  const keys = Object.keys(saved).filter((key) => key in backup && timeOf(backup[key]) <= timeOf(saved[key]));
  if (keys.length === 0) return;
  for (const key of keys) delete backup[key];
  writeBackup(backup);
}

/** Copies the changes not yet committed to IndexedDB to localStorage, at once (each change, and as the page goes). */
export function backupUnsavedDrafts(): void {
  const unsaved = newerDrafts(writing, pending);
  if (Object.keys(unsaved).length === 0) return;
  const withoutBlobs: StoredDrafts = {};
  for (const [key, value] of Object.entries(unsaved)) {
    withoutBlobs[key] = isDraft(value)
      ? { ...value, publishParams: { ...value.publishParams, attach: value.publishParams.attach.map(({ blob: _blob, ...image }) => image) } }
      : value;
  }
  writeBackup(newerDrafts(readUnsavedBackup(), withoutBlobs));
}

/** The backup's drafts, each picture given back its blob from the stored copy of the same draft. */
function withBlobsFrom(backup: StoredDrafts, stored: StoredDrafts): StoredDrafts {
  const restored: StoredDrafts = {};
  for (const [key, value] of Object.entries(backup)) {
    const storedDraft = stored[key];
    const blobs = new Map(isDraft(storedDraft) ? storedDraft.publishParams.attach.map((image) => [image.localId, image.blob]) : []);
    restored[key] = isDraft(value)
      ? {
          ...value,
          publishParams: {
            ...value.publishParams,
            attach: value.publishParams.attach.map((image) => ({ ...image, blob: blobs.get(image.localId) })),
          },
        }
      : value;
  }
  return restored;
}

/** Takes in what IndexedDB holds (at start, and when another tab saved) and what the last page left unsaved, newer wins. */
export async function loadDrafts(): Promise<void> {
  let stored: StoredDrafts = {};
  try {
    stored = (await idbGet<StoredDrafts>(RECORD, idbStore)) ?? {};
  } catch (error) {
    const notice = storageNotice(error);
    if (notice) toast.warning(notice);
  }
  const backup = readUnsavedBackup();
  const unsaved = withBlobsFrom(backup, stored);
  useDrafts.setState((state) => ({ stored: newerDrafts(newerDrafts(stored, unsaved), state.stored), loaded: true }));
  if (Object.keys(backup).length === 0) return;
  // Into IndexedDB with the next write (newer wins there too), which then drops the copies.
  pending = newerDrafts(unsaved, pending);
  await flushDrafts();
}

let started = false;

/** Once per page: load the drafts, save before the page goes, hear the other tabs. */
export function startDrafts(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  void loadDrafts();
  const saveNow = () => {
    backupUnsavedDrafts();
    void flushDrafts();
  };
  window.addEventListener('pagehide', saveNow);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') saveNow();
  });
  otherTabs()?.addEventListener('message', () => void loadDrafts());
}

/** User `uid`'s post draft, or, when they have none yet, the visitor's, which becomes theirs. */
export function adoptVisitorDraft(uid: number): void {
  const { stored, edit, remove } = useDrafts.getState();
  const visitors = stored[VISITOR_POST_DRAFT];
  const key = postDraftKey(uid);
  if (isDraft(stored[key]) || !isDraft(visitors)) {
    edit(key, (draft) => draft);
    return;
  }
  edit(key, () => visitors);
  remove(VISITOR_POST_DRAFT);
}
