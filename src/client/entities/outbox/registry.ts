/**
 * Every kind of write the app makes, each declared beside the entity it changes. A kind missing
 * here is a type error wherever writes are made or described (app/write-notices.ts).
 */
import { channelFollow } from '../channel/writes.ts';
import { comment, commentDelete, commentLike } from '../comment/writes.ts';
import { complain } from '../complaint/writes.ts';
import { noticeRead, noticeSetting } from '../notice/writes.ts';
import { post, postDelete, postLike, vote } from '../post/writes.ts';
import { userFollow } from '../user/writes.ts';
import type { WriteDefinition } from './definition.ts';

const definitions = { post, postDelete, postLike, vote, comment, commentDelete, commentLike, userFollow, channelFollow, complain, noticeRead, noticeSetting };

type Definitions = typeof definitions;
type Parts<T> = T extends WriteDefinition<infer I, infer D, infer A> ? { input: I; data: D; answer: A } : never;

export type WriteKind = keyof Definitions;
/** What a screen gives to make a write of kind K. */
export type WriteInput<K extends WriteKind> = Parts<Definitions[K]>['input'];
/** What a write of kind K carries in the outbox. */
export type WriteData<K extends WriteKind> = Parts<Definitions[K]>['data'];
/** What the server answers a write of kind K. */
export type WriteAnswer<K extends WriteKind> = Parts<Definitions[K]>['answer'];

export const registry: { [K in WriteKind]: WriteDefinition<WriteInput<K>, WriteData<K>, WriteAnswer<K>> } = definitions;
