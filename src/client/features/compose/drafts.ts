/**
 * Drafts (SPEC.md section 3: publishParams, codeContent, topicTags), never lost: a zustand
 * store persisted to IndexedDB (its own idb-keyval store), written at most 300 ms after each
 * change and at once when the page is hidden or left. Pictures stay as blobs until uploaded,
 * so a reload, a crashed tab or a closed browser brings the draft back whole.
 *
 * Two tabs: every draft carries the time of its last edit, and a save keeps, key by key, the
 * newer of what is stored and what is saved (one IndexedDB transaction), so a tab with an older
 * text never overwrites a newer one; the other tabs hear of a save and take the newer text.
 * Publishing removes the draft (a tombstone with its time, so an older copy cannot return).
 */
import { createStore, update, get as idbGet } from 'idb-keyval';
import { create } from 'zustand';
import { newClientId } from '../../lib/ids.ts';

export interface ImageDraft {
  /** Stable within the draft. */
  localId: string;
  name: string;
  /** The picture itself, until it is uploaded. */
  blob?: Blob | undefined;
  /** Once uploaded: what the server answered. */
  url?: string | undefined;
  width?: number | undefined;
  height?: number | undefined;
  status: 'waiting' | 'uploading' | 'uploaded' | 'failed';
}

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
    attach: ImageDraft[];
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

/** The draft every 发动态 writes into. */
export const POST_DRAFT = 'post';

export const DRAFT_SAVE_DELAY_MS = 300;
const RECORD = 'drafts';
const CHANNEL = 'horde:drafts';

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

const idbStore = typeof indexedDB === 'undefined' ? undefined : createStore('horde-drafts', 'drafts');
let pending: StoredDrafts = {};
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
  if (!idbStore || Object.keys(changes).length === 0) return;
  try {
    await update<StoredDrafts>(RECORD, (stored) => newerDrafts(stored ?? {}, changes), idbStore);
    otherTabs()?.postMessage({ keys: Object.keys(changes) });
  } catch (error) {
    // Storage refused (quota, private mode): keep the changes for the next try.
    pending = newerDrafts(changes, pending);
    console.warn('Could not save the draft', error);
  }
}

function save(key: string, value: Stored): void {
  pending = { ...pending, [key]: value };
  clearTimeout(timer);
  timer = setTimeout(() => void flushDrafts(), DRAFT_SAVE_DELAY_MS);
}

export const useDrafts = create<DraftState>()((set, get) => ({
  stored: {},
  loaded: false,
  edit(key, change) {
    if (!key) return false;
    const current = get().stored[key];
    const next = { ...change(isDraft(current) ? current : emptyDraft()), editedAt: Date.now() };
    set({ stored: { ...get().stored, [key]: next } });
    save(key, next);
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

/** Takes in what IndexedDB holds (at start, and when another tab saved), newer wins. */
export async function loadDrafts(): Promise<void> {
  const stored = idbStore ? await idbGet<StoredDrafts>(RECORD, idbStore).catch(() => undefined) : undefined;
  useDrafts.setState((state) => ({ stored: newerDrafts(stored ?? {}, state.stored), loaded: true }));
}

let started = false;

/** Once per page: load the drafts, save before the page goes, hear the other tabs. */
export function startDrafts(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  void loadDrafts();
  window.addEventListener('pagehide', () => void flushDrafts());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') void flushDrafts();
  });
  otherTabs()?.addEventListener('message', () => void loadDrafts());
}
