/**
 * Whether a component mounts as part of the first screen: the server's render of it
 * (app/first-screen.server.tsx) or the client's hydration of that render
 * (app/first-screen-hydration.ts). Hydration adopts the server's nodes only where the client
 * writes what the server wrote, so a component that knows more on the device (the session, the
 * reader's clock) renders what the server did when it mounts so, and its own afterwards.
 */
import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';

const neverChanges = () => () => {};
const notFirstScreen = () => false;
/** Set by the server snapshot's getter, which React calls only in those renders, in the hook's call. */
let askedForServerSnapshot = false;
const serverSnapshot = () => {
  askedForServerSnapshot = true;
  return false;
};

/**
 * True in the render that mounts the component on the server or while hydrating, the only
 * renders in which React asks a store for its server snapshot; false in any other (a card a
 * long scroll mounts later, any update). Both snapshots are the same, so React has no reason
 * to render the component again once hydrated.
 */
export function useMountedInFirstScreen(): boolean {
  // eslint-disable-next-line react-hooks/globals -- reset and read within this call: the render's answer, never kept across renders
  askedForServerSnapshot = false;
  useSyncExternalStore(neverChanges, notFirstScreen, serverSnapshot);
  return askedForServerSnapshot;
}

/** True while the component shows what the first screen showed: from its mount in it until its first effect (hydrated). */
export function useRenderingFirstScreen(): boolean {
  const mountedInFirstScreen = useMountedInFirstScreen();
  const [rendering, setRendering] = useState(mountedInFirstScreen);
  useEffect(() => {
    if (rendering) startTransition(() => setRendering(false));
  }, [rendering]);
  return rendering;
}
