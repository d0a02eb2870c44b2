/**
 * Voting (issue 7): once per user, as the poll allows; the poll with its counts comes back and
 * shows wherever the post is (updateVoteOption). A poll that changed meanwhile (voted from
 * another device, closed) is fetched again, after the error hook said why.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { postDetailQueryOptions } from '../../entities/post/queries.ts';
import { emitAppEvent } from '../../lib/app-events.ts';
import { isApiError, request } from '../../lib/http.ts';
import { newClientId } from '../../lib/ids.ts';

export function useVote(postId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (optionIds: number[]) =>
      request(endpoints.voteSubmit, { post_id: postId, option_ids: optionIds, client_id: newClientId() }),
    onSuccess: (vote) => emitAppEvent('updateVoteOption', { post_id: postId, vote }),
    onError: async (error) => {
      if (!isApiError(error) || error.kind !== 'business') return;
      const post = await queryClient.fetchQuery({ ...postDetailQueryOptions(postId), staleTime: 0 });
      if (post.vote) emitAppEvent('updateVoteOption', { post_id: postId, vote: post.vote });
    },
  });
}
