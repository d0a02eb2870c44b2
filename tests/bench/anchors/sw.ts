/**
 * The minimal service worker of the offline start anchor: it precaches the
 * page's files and its JSON at install, takes control of the open page at once, and answers
 * every same-origin GET from that cache first (navigations with the page), the network after.
 * Built by build.ts with the list of files as __PRECACHE__.
 */
export {};

/** The parts of the worker's scope this worker uses (the tests' TypeScript has the DOM's types, not WebWorker's). */
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface WorkerScope {
  readonly location: Location;
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
}

declare const self: WorkerScope;
declare const __PRECACHE__: string[];

const CACHE_NAME = 'anchor-precache';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE_NAME)
      .then((cache) => cache.addAll(__PRECACHE__))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  const cached = request.mode === 'navigate' ? caches.match('/index.html') : caches.match(request);
  event.respondWith(cached.then((response) => response ?? fetch(request)));
});
