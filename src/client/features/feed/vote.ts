/**
 * Voting (issue 7): once per user, as the poll allows; the poll with its counts comes back and
 * shows wherever the post is (updateVoteOption). A poll that changed meanwhile (voted from
 * another device, closed) is fetched again, after the error hook said why.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { endpoints } from '#shared/endpoints.ts';
import { postDetailQueryOptions } from '../../entities/post/queries.ts';
import { emitAppEvent } from '../../lib/app-events.ts';
import { isApiError, request } from '../../lib/http.ts';
import { newClientId } from '../../lib/ids.ts';
import { runMutation } from '../../lib/query-client.ts';

/** Sends a vote; `pending` while it is on its way. */
export function useVote(postId: number): { vote: (optionIds: number[]) => void; pending: boolean } {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const vote = (optionIds: number[]) => {
    setPending(true);
    runMutation(
      queryClient,
      {
        mutationFn: () => request(endpoints.voteSubmit, { post_id: postId, option_ids: optionIds, client_id: newClientId() }),
        onSuccess: (result) => emitAppEvent('updateVoteOption', { post_id: postId, vote: result }),
        onError: async (error) => {
          if (!isApiError(error) || error.kind !== 'business') return;
          const post = await queryClient.fetchQuery({ ...postDetailQueryOptions(postId), staleTime: 0 });
          if (post.vote) emitAppEvent('updateVoteOption', { post_id: postId, vote: post.vote });
        },
      },
      undefined,
    )
      .catch(() => undefined) // the error hook has said why
      .finally(() => setPending(false));
  };
  return { vote, pending };
}
