/**
 * The composer as the page's ?compose=1 opens it (the app shell). Opened by its address, it may
 * carry a share (the manifest's share_target arrives as `title`, `text`, `url`): that goes into
 * the post draft first, and leaves the address, so a reload does not add it again. Opened while
 * logged out (the app's 发动态 shortcut, a share), it asks for the login and opens after it; the
 * draft waits meanwhile.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { sessionQueryOptions } from '../../../entities/session/queries.ts';
import { closeComposer, openComposer } from '../open.ts';
import { hasShare, takeShare } from '../share.ts';
import Composer from './Composer.tsx';

export default function ComposerEntry(props: { onClose: () => void; onEditCode: () => void }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const session = useQuery(sessionQueryOptions());
  const loggedOut = session.data === null;
  const [shareTaken, setShareTaken] = useState(() => !hasShare(new URLSearchParams(window.location.search)));
  const taking = useRef(false);

  // Into the draft of whoever is logged in, once that is known (a visitor's draft before a login).
  const uid = session.data?.uid;
  const known = session.isFetched;
  useEffect(() => {
    if (shareTaken || taking.current || !known) return;
    taking.current = true;
    void takeShare(new URLSearchParams(window.location.search), uid)
      .catch((error: unknown) => console.warn('Could not take the share', error))
      .finally(() => {
        setShareTaken(true);
        void router.navigate({ to: '.', search: { compose: 1 }, replace: true });
      });
  }, [shareTaken, router, known, uid]);

  useEffect(() => {
    if (!shareTaken || !loggedOut) return;
    closeComposer(router);
    openComposer(router, queryClient);
  }, [shareTaken, loggedOut, router, queryClient]);

  // Until the first answer about the login (offline it may be a failure: then write away, the
  // draft is kept). Not while a later check runs: the composer would close and open again.
  if (!shareTaken || loggedOut || !session.isFetched) return null;
  return <Composer {...props} />;
}
