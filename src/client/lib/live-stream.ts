/**
 * The server's live stream (GET /serv/v1/live, server-sent events), one per browser, not per tab:
 * the tab holding the lock LIVE_LOCK opens it and passes each event to the other tabs over a
 * BroadcastChannel; when that tab closes, another visible one takes the lock and opens it again
 * from the last event id any tab saw (kept in localStorage), so what happened between is sent
 * first. A tab hidden for LIVE_HIDDEN_CLOSE_MS lets the stream go; the next visible tab takes it
 * and catches up. Without EventSource nothing opens, and the app's regular checks go on as before;
 * without Web Locks or BroadcastChannel each tab holds its own stream. A client that sends its
 * ticket as headers (the mini-program, the native app) opens the stream with them, through the
 * `eventsource` package's fetch-based EventSource (loaded only there): the browser's sends cookies alone.
 */
import type { EventSource as PackageEventSource } from 'eventsource';
import { OTHER_PATHS } from '#shared/endpoints.ts';
import { APP_UPDATE_EVENT, appUpdateApplying } from './app-update.ts';
import { loadChunk } from './chunk.ts';
import { ticketHeaders } from './http.ts';

/** What the stream needs of an EventSource, the browser's or the package's. */
type Source = Pick<EventSource, 'close' | 'readyState' | 'addEventListener'>;
type HeaderEventSource = typeof PackageEventSource;
let withHeaders: HeaderEventSource | undefined;
const loadHeaderEventSource = () => loadChunk(() => import('eventsource')).then((module) => void (withHeaders = module.EventSource));

export type LiveKind = 'post' | 'notice' | 'ended' | 'refetch';
export interface LiveMessage {
  kind: LiveKind;
  data: unknown;
}

const LIVE_KINDS: readonly LiveKind[] = ['post', 'notice', 'ended', 'refetch'];
const LIVE_LOCK = 'live-stream';
const LIVE_CHANNEL = 'live-stream';
const LAST_EVENT_ID_KEY = 'live-last-event-id';
export const LIVE_HIDDEN_CLOSE_MS = 60_000;
/** After the server refused the stream (an HTTP error, which EventSource does not retry): the next try. */
const REFUSED_RETRY_MS = 60_000;

/** Between the tabs: an event, or the holder asked to open the stream again (a login or logout elsewhere). */
type Broadcast = LiveMessage | { kind: 'reopen' };

function readLastId(): string | null {
  try {
    return localStorage.getItem(LAST_EVENT_ID_KEY);
  } catch {
    return null;
  }
}

function keepLastId(id: string): void {
  try {
    localStorage.setItem(LAST_EVENT_ID_KEY, id);
  } catch {
    // Storage refused (private mode, full): a reopened stream then starts from now.
  }
}

/** The stream's EventSource: the browser's, or with the ticket's headers where it travels so. */
function eventSource(url: string, ticket: Record<string, string>, HeaderSource: HeaderEventSource | undefined): Source {
  if (!HeaderSource || Object.keys(ticket).length === 0) return new EventSource(url);
  return new HeaderSource(url, { fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, ...ticket } }) });
}

/** Whether the stream can open now; false while the code for the ticket's headers loads, `then` called once it is here. */
function readyToConnect(then: () => void): boolean {
  if (withHeaders || Object.keys(ticketHeaders()).length === 0) return true;
  void loadHeaderEventSource().then(then, () => undefined);
  return false;
}

/**
 * An EventSource from the last event id kept: each event's id kept and its message handed to
 * `hear`. A dropped connection is retried by EventSource itself; a refused one (an HTTP error)
 * is closed for good, and `refused` is told.
 */
function connect(hear: (message: LiveMessage) => void, refused: (source: Source) => void): Source {
  const lastId = readLastId();
  const url = lastId ? `${OTHER_PATHS.live}?last_event_id=${encodeURIComponent(lastId)}` : OTHER_PATHS.live;
  const opened = eventSource(url, ticketHeaders(), withHeaders);
  const heard = (kind: LiveKind | 'ready') => (event: Event) => {
    const { lastEventId, data } = event as MessageEvent<string>;
    if (lastEventId) keepLastId(lastEventId);
    if (kind === 'ready') return;
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(data);
    } catch {
      // An event without data still says what happened.
    }
    hear({ kind, data: parsed });
  };
  opened.addEventListener('ready', heard('ready'));
  for (const kind of LIVE_KINDS) opened.addEventListener(kind, heard(kind));
  opened.addEventListener('error', () => {
    if (opened.readyState === EventSource.CLOSED) refused(opened);
  });
  return opened;
}

/** `hold` runs once this tab holds LIVE_LOCK, given its release; at once where there are no Web Locks, or no other tab to share with. */
function holdLock(shared: boolean, hold: (release: () => void) => void): void {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks || !shared) {
    hold(() => undefined);
    return;
  }
  void locks.request(LIVE_LOCK, () => new Promise<void>((release) => hold(() => release())));
}

export interface LiveStream {
  /** Who is logged in changed: the stream opens again with the new ticket (in whichever tab holds it). */
  reopen(): void;
}

export function startLiveStream(onMessage: (message: LiveMessage) => void): LiveStream {
  if (typeof EventSource === 'undefined') return { reopen: () => undefined };
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(LIVE_CHANNEL);
  let source: Source | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  /** Lets the stream go (and the lock with it); null while this tab does not hold it. */
  let letGo: (() => void) | null = null;
  let asking = false;
  let hiddenTimer: ReturnType<typeof setTimeout> | undefined;

  const close = () => {
    clearTimeout(retry);
    source?.close();
    source = null;
  };
  const open = () => {
    close();
    if (appUpdateApplying()) return;
    // Opened once its code is here, if this tab still holds the stream.
    if (!readyToConnect(() => letGo && open())) return;
    source = connect(
      (message) => {
        onMessage(message);
        channel?.postMessage(message satisfies Broadcast);
      },
      (refused) => {
        if (source !== refused) return;
        retry = setTimeout(() => {
          if (source === refused) open();
        }, REFUSED_RETRY_MS);
      },
    );
  };

  const lead = () => {
    if (letGo || asking || appUpdateApplying()) return;
    asking = true;
    holdLock(channel !== null, (release) => {
      asking = false;
      letGo = () => {
        close();
        letGo = null;
        release();
      };
      open();
      if (document.visibilityState === 'hidden') letGoLater();
    });
  };
  const letGoLater = () => {
    clearTimeout(hiddenTimer);
    hiddenTimer = setTimeout(() => {
      if (document.visibilityState === 'hidden') letGo?.();
    }, LIVE_HIDDEN_CLOSE_MS);
  };

  channel?.addEventListener('message', (event: MessageEvent<Broadcast>) => {
    if (event.data.kind === 'reopen') {
      if (source) open();
    } else onMessage(event.data);
  });
  // A new version is applied here: the stream ends for good (the new service worker takes over
  // only once no page holds a request open; this one reloads into the new version).
  window.addEventListener(APP_UPDATE_EVENT, () => {
    letGo?.();
    close();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') {
      clearTimeout(hiddenTimer);
      lead();
    } else if (letGo) letGoLater();
  });
  if (document.visibilityState === 'visible') lead();

  return {
    reopen() {
      if (source) open();
      channel?.postMessage({ kind: 'reopen' } satisfies Broadcast);
    },
  };
}
