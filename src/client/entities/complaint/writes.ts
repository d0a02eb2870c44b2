/** A complaint about a post, a comment or a user: nothing cached changes; refused, it goes back to its form. */
import { endpoints, type InputOf } from '#shared/endpoints.ts';
import { asOneCall, oneCall, type WriteDefinition } from '../outbox/definition.ts';

export interface ComplaintInput {
  body: Omit<InputOf<'complainAdd'>, 'client_id'>;
}

export const complain: WriteDefinition<ComplaintInput, ComplaintInput, unknown> = {
  make: (_queryClient, input) => ({ data: input, about: input.body.content }),
  ...asOneCall((write) => oneCall(endpoints.complainAdd, { ...write.data.body, client_id: write.id })),
  whenRefused: 'return',
};
