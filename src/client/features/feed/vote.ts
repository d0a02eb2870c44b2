/**
 * Voting: once per user, as the poll allows. The choice is counted on screen at once and goes
 * through the outbox: sent now, or when the network is back; the poll the server answers shows
 * wherever the post is. A poll that changed meanwhile (voted from another device, closed) is
 * read again, after a toast says why.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { makeWrite } from '../../entities/outbox/index.ts';

/** Sends a vote; `pending` until the outbox has it. */
export function useVote(postId: number): { vote: (optionIds: number[]) => void; pending: boolean } {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const vote = (optionIds: number[]) => {
    setPending(true);
    void makeWrite(queryClient, 'vote', { post_id: postId, option_ids: optionIds }).finally(() => setPending(false));
  };
  return { vote, pending };
}
