/**
 * Whether this render is the first screen's: the server's render of it (app/first-screen.server.tsx)
 * or the client's hydration of that render (app/first-screen-hydration.ts). Hydration adopts the
 * server's nodes only where the client writes what the server wrote, so a component that knows
 * more on the device (the session, a clock, what storage remembers) renders what the server did
 * while this is true, and its own in the render React makes at once after hydration.
 */
import { useSyncExternalStore } from 'react';

const neverChanges = () => () => {};

/** React's server snapshot: read on the server and while hydrating; every other render reads false. */
export function useRenderingFirstScreen(): boolean {
  return useSyncExternalStore(
    neverChanges,
    () => false,
    () => true,
  );
}
