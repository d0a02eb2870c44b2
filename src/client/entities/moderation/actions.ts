/**
 * A moderator's actions: hide, restore, dismiss, suspend, lift. Each is sent once the moderator
 * has confirmed it, online (a decision is made on what the server holds now), with a client_id
 * kept for that decision until it is answered: tried again after a lost answer, it is applied once.
 * A refusal (one's own content, another moderator) is told by the query client's error hook.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { endpoints, type InputOf } from '#shared/endpoints.ts';
import { isApiError, request } from '../../lib/http.ts';
import { newClientId } from '../../lib/ids.ts';
import { postKeys } from '../post/queries.ts';
import { moderationKeys } from './queries.ts';

type WithoutId<T> = Omit<T, 'client_id'>;

export type ModerationDecision =
  | { action: 'hide'; input: WithoutId<InputOf<'moderationHide'>> }
  | { action: 'restore'; input: WithoutId<InputOf<'moderationRestore'>> }
  | { action: 'dismiss'; input: WithoutId<InputOf<'moderationDismiss'>> }
  | { action: 'suspend'; input: WithoutId<InputOf<'moderationSuspend'>> }
  | { action: 'lift'; input: WithoutId<InputOf<'moderationLift'>> };

function send(decision: ModerationDecision, clientId: string): Promise<unknown> {
  switch (decision.action) {
    case 'hide':
      return request(endpoints.moderationHide, { ...decision.input, client_id: clientId });
    case 'restore':
      return request(endpoints.moderationRestore, { ...decision.input, client_id: clientId });
    case 'dismiss':
      return request(endpoints.moderationDismiss, { ...decision.input, client_id: clientId });
    case 'suspend':
      return request(endpoints.moderationSuspend, { ...decision.input, client_id: clientId });
    case 'lift':
      return request(endpoints.moderationLift, { ...decision.input, client_id: clientId });
  }
}

/** The same decision (action, target, its options) keeps its client_id until answered. */
const decisionKey = (decision: ModerationDecision): string => JSON.stringify([decision.action, decision.input]);

export function useModerate() {
  const queryClient = useQueryClient();
  const pending = useRef(new Map<string, string>());
  return useMutation({
    mutationFn: async (decision: ModerationDecision) => {
      const key = decisionKey(decision);
      const clientId = pending.current.get(key) ?? newClientId();
      pending.current.set(key, clientId);
      try {
        const answer = await send(decision, clientId);
        pending.current.delete(key);
        return answer;
      } catch (error) {
        // Refused, it was answered: the next try is a new decision. Unanswered, it keeps its id.
        if (isApiError(error) && error.kind === 'business') pending.current.delete(key);
        throw error;
      }
    },
    onSuccess: async () => {
      // What every reader sees changed: the lists and the details are read again.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: moderationKeys.all }),
        queryClient.invalidateQueries({ queryKey: postKeys.all }),
      ]);
    },
  });
}
