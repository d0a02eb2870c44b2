/**
 * What a kind of write is: how it is made from what the screen asked for and what the cache
 * shows, how it is sent, what shows at once, what puts that back, and what the server's answer
 * changes. Each entity declares the writes that change it (entities/<name>/writes.ts), and
 * registry.ts lists them all; the outbox (run.ts) does the rest the same way for every kind.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ClientEndpoint, EndpointName, InputOf } from '#shared/endpoints.ts';
import type { LoginUser } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';
import type { AppEvent } from '../../lib/app-events.ts';
import type { QueuedWrite, Toggle } from '../../lib/write-queue/store.ts';

/** Who wrote it, as a waiting post or comment shows them. */
export interface WriteAuthor {
  uid: number;
  nick: string;
  avatar: string;
}

export const authorOf = (user: LoginUser): WriteAuthor => ({ uid: user.uid, nick: user.nick, avatar: user.avatar });

/** A write of data `D` as the outbox holds it. */
export type Queued<D> = QueuedWrite<string, D>;

/** What `make` gives the outbox: the write's data, and how it sits with the writes waiting. */
export interface Made<D> {
  data: D;
  /** A line of what it is about (the words, the post's first words, the nick): the outbox's list shows it. */
  about: string;
  toggle?: Toggle;
  /** At most one waiting write per key (the vote of a poll): a newer one replaces it. */
  replaces?: string;
}

export interface SendContext<D> {
  /** Keeps a change to the write's data (a picture uploaded), so a later attempt starts from there. */
  save(data: D): Promise<void>;
}

/** A call of the route table with its input. */
export interface OneCall {
  endpoint: ClientEndpoint;
  input: InputOf<EndpointName>;
}

export const oneCall = <K extends EndpointName>(endpoint: ClientEndpoint<K>, input: InputOf<K>): OneCall => ({ endpoint, input }) as OneCall;

export const sendCall = <A>({ endpoint, input }: OneCall): Promise<A> => request(endpoint, input) as Promise<A>;

/** A write that is one call: sent as that call, by a tab or, with every tab closed, by the service worker. */
export function asOneCall<D, A>(callOf: (write: Queued<D>) => OneCall): Pick<WriteDefinition<never, D, A>, 'call' | 'send'> {
  return { call: callOf, send: (write) => sendCall<A>(callOf(write)) };
}

export interface WriteDefinition<I, D, A> {
  /** The write for `input` by `viewer`; null when there is nothing to do (the screen already shows it so). */
  make(queryClient: QueryClient, input: I, viewer: LoginUser): Made<D> | null;
  /** One attempt, with the write's id as its client_id. */
  send(write: Queued<D>, context: SendContext<D>): Promise<A>;
  /**
   * The write as the one call `send` would make now, its client_id the write's id; null while it
   * takes more (pictures to upload). What the service worker sends when no tab is open.
   */
  call?(write: Queued<D>): OneCall | null;
  /** What shows at once, and again over answers read while it waits: so it leaves what agrees alone. */
  show?(queryClient: QueryClient, write: Queued<D>): void;
  /** Puts back what `show` changed (refused, or taken back): the changes, applied here and told to the other tabs. */
  undo?(queryClient: QueryClient, write: Queued<D>): AppEvent[];
  /** What the answer changes: applied here and told to the other tabs. */
  settle?(queryClient: QueryClient, write: Queued<D>, answer: A): AppEvent[] | Promise<AppEvent[]>;
  /** Refused later: its words go back to their editor (return), or it is let go (drop). */
  whenRefused: 'return' | 'drop';
}

/** A switch's input: the target, and the state the user wants. */
export interface SwitchInput {
  on: boolean;
}

export interface SwitchSpec<I extends SwitchInput, A> {
  target(input: I): string;
  /** What the cache shows `viewer` for the target now; undefined when nothing cached shows it. */
  isOn(queryClient: QueryClient, input: I, viewer: number): boolean | undefined;
  /** Shows the target on or off in every cached copy of it (copies already so are left alone). */
  show(queryClient: QueryClient, input: I, on: boolean, viewer: number): void;
  call(input: I, clientId: string): OneCall;
  /** The state for every tab: as the answer says once sent, or as `show` put it back. */
  changes(queryClient: QueryClient, input: I, on: boolean, viewer: number, answer?: A): AppEvent[];
  /** A line of what it is about, for the outbox's list. */
  about(queryClient: QueryClient, input: I): string;
}

/**
 * Every switch (a like of a post or a comment, a follow of a user or a channel) the same way:
 * shown at once, merged with a waiting switch of the same target (two taps that undo each other
 * send nothing), put back to the state before the first tap when refused or taken back.
 */
export function switchWrite<I extends SwitchInput, A>(spec: SwitchSpec<I, A>): WriteDefinition<I, I, A> {
  return {
    make(queryClient, input, viewer) {
      const before = spec.isOn(queryClient, input, viewer.uid) ?? !input.on;
      if (before === input.on) return null;
      return { data: input, about: spec.about(queryClient, input), toggle: { target: spec.target(input), on: input.on, before } };
    },
    ...asOneCall<I, A>((write) => spec.call(write.data, write.id)),
    show: (queryClient, write) => spec.show(queryClient, write.data, write.data.on, write.uid),
    undo(queryClient, write) {
      const before = write.toggle?.before ?? !write.data.on;
      spec.show(queryClient, write.data, before, write.uid);
      return spec.changes(queryClient, write.data, before, write.uid);
    },
    settle: (queryClient, write, answer) => spec.changes(queryClient, write.data, write.data.on, write.uid, answer),
    whenRefused: 'drop',
  };
}
