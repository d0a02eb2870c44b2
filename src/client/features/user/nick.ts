/**
 * Setting the login user's nickname (user/nick/update). Not a queued write: the user waits for
 * the answer, since another user may hold the name. A refusal (taken, too long, over the day's
 * changes) is told by the query client's error hook, as a toast; success shows everywhere at once.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { showOwnNick } from '../../entities/user/cache.ts';
import { request } from '../../lib/http.ts';
import { toast } from '../../ui/toast/toast-store.ts';

export function useSetNick(onDone: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (nick: string) => request(endpoints.nickUpdate, { nick }),
    onSuccess: (me) => {
      showOwnNick(queryClient, me);
      toast.success('昵称已修改');
      onDone();
    },
  });
}
