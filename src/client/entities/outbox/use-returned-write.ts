import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent } from 'react';
import { useOutbox } from '../../lib/write-queue/store.ts';
import { outbox } from './index.ts';
import { isWriteOf, type WriteKind, type WriteOf } from './types.ts';

/**
 * A queued write of `kind` that the server refused and `matches` picks comes back into the editor
 * it was written in: taken out of the outbox and handed to `onReturned`, once the editor is
 * `empty` (words the user is typing are never replaced).
 */
export function useReturnedWrite<K extends WriteKind>(
  kind: K,
  matches: (item: WriteOf<K>) => boolean,
  empty: boolean,
  onReturned: (item: WriteOf<K>) => void,
): void {
  const queryClient = useQueryClient();
  const returnedId = useOutbox((s) => s.items.find((item) => item.state === 'returned' && isWriteOf(item, kind) && matches(item))?.id);
  const takeBack = useEffectEvent(onReturned);

  useEffect(() => {
    if (!returnedId || !empty) return;
    void outbox(queryClient)
      .then((writes) => writes.takeReturned((item) => item.id === returnedId))
      .then((item) => {
        if (item && isWriteOf(item, kind)) takeBack(item);
      });
  }, [returnedId, empty, queryClient, kind]);
}
