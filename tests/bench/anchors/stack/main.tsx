/**
 * The stack alone (the floor of our first-visit JS): the libraries the community's first screen
 * starts, used as it uses them and for nothing else. React 19 renders in a transition; TanStack
 * Router has a root and a /home route whose loader fills TanStack Query's cache, the page reading
 * it with useSuspenseQuery and linking with Link; the cache is restored from and saved to
 * IndexedDB through @tanstack/query-persist-client-core and idb-keyval; a zustand store holds
 * the layout; dayjs writes the times. The bench counts what a visit to its /home loads beside
 * ours, so the goal's room for the app itself is a figure of the same run.
 */
import { persistQueryClientRestore, persistQueryClientSubscribe, type PersistedClient, type Persister } from '@tanstack/query-persist-client-core';
import { QueryClient, QueryClientProvider, useSuspenseQuery } from '@tanstack/react-query';
import { createBrowserHistory, createRootRoute, createRoute, createRouter, Link, Outlet, RouterProvider } from '@tanstack/react-router';
import dayjs from 'dayjs';
import { createStore, del, get, set } from 'idb-keyval';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { create } from 'zustand';

interface AnchorPost {
  id: number;
  author: string;
  /** ISO 8601. */
  time: string;
  content: string;
}

const queryClient = new QueryClient();
const cacheStore = createStore('stack-anchor', 'cache');
const persister: Persister = {
  persistClient: (client) => set('client', client, cacheStore),
  restoreClient: () => get<PersistedClient>('client', cacheStore),
  removeClient: () => del('client', cacheStore),
};

const useLayout = create<{ isMobile: boolean }>(() => ({ isMobile: matchMedia('(max-width: 768px)').matches }));
const feedQuery = {
  queryKey: ['posts'],
  queryFn: () => fetch('/posts.json').then((response) => response.json() as Promise<AnchorPost[]>),
};

function Feed() {
  const { data: posts } = useSuspenseQuery(feedQuery);
  const isMobile = useLayout((layout) => layout.isMobile);
  return (
    <main data-layout={isMobile ? 'mobile' : 'pc'}>
      <h1>
        <Link to="/home">动态</Link>
      </h1>
      {posts.map((post) => (
        <article key={post.id} aria-labelledby={`post-${post.id}-author`}>
          <header>
            <strong id={`post-${post.id}-author`}>{post.author}</strong>
            <time dateTime={post.time}>{dayjs(post.time).format('M月D日 HH:mm')}</time>
          </header>
          <p>{post.content}</p>
        </article>
      ))}
    </main>
  );
}

const rootRoute = createRootRoute({ component: Outlet });
const homeRoute = createRoute({ getParentRoute: () => rootRoute, path: '/home', loader: () => queryClient.ensureQueryData(feedQuery), component: Feed });
const router = createRouter({ routeTree: rootRoute.addChildren([homeRoute]), history: createBrowserHistory() });

// The persisted cache first, as the app restores it when the page carries no first screen.
void persistQueryClientRestore({ queryClient, persister }).then(() => {
  persistQueryClientSubscribe({ queryClient, persister });
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
});
